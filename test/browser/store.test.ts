// rearview/store in real Chromium: the shared contract on IndexedDB, playbooks on IndexedDB, and
// change notifications between PlaybookStore objects through BroadcastChannel.

import { idbStore, memoryStore, openBestStore } from 'rearview/kv';
import { emptyPlaybook } from 'rearview/playbook';
import { type PlaybookChange, playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { runKeyValueStoreContract } from '../store/vitest-contract';

let n = 0;
const dbName = () => `browser-store-${Date.now()}-${++n}`;

runKeyValueStoreContract('idbStore in Chromium', () => idbStore(dbName(), 'kv'));
runKeyValueStoreContract('memoryStore in Chromium', () => memoryStore());

describe('playbooks on IndexedDB in Chromium', () => {
  it('opens IndexedDB as the best store here', async () => {
    const { persistent, store } = await openBestStore({ dbName: dbName() });
    expect(persistent).toBe(true);
    expect(store.kind).toBe('indexeddb');
  });

  it('applies 200 concurrent applyTags from two store objects without losing one', async () => {
    const db = dbName();
    const a = playbookStore(idbStore(db, 'kv'), { broadcast: false });
    const b = playbookStore(idbStore(db, 'kv'), { broadcast: false });
    await a.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'x' }]);
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).applyTags('p', [{ name: 'oth-001', tag: 'helpful' }]),
      ),
    );
    expect((await a.load('p')).sections.OTHERS[0]!.helpful).toBe(200);
  });

  it('ids equal to built-in object members (replica, playbook) work and such tags are reported, not dropped', async () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const db = dbName();
      const store = playbookStore(idbStore(db, 'kv'), {
        broadcast: false,
        replicaId: name,
        onWarning: () => {},
      });
      await store.applyDelta(name, [{ type: 'ADD', section: 'OTHERS', text: 'x' }]);
      const out = await store.applyTags(name, [
        { name: 'oth-001', tag: 'helpful' },
        { name: 'oth-001', tag: 'helpful' },
        { name, tag: 'helpful' },
      ]);
      expect(out.applied).toBe(2);
      expect(out.skipped.map((s) => s.reason)).toEqual([`invalid key point name ${JSON.stringify(name)}`]);
      expect((await store.load(name)).sections.OTHERS[0]!.helpful).toBe(2);
      expect(await store.list()).toEqual([name]);
      const doc = await store.exportDocument(name);
      expect(Object.getOwnPropertyDescriptor(doc.counters['oth-001']!.helpful, name)?.value).toBe(2);
      // A second store object on the same database shares the slot and sees the same counts.
      const other = playbookStore(idbStore(db, 'kv'), { broadcast: false, replicaId: name });
      await other.applyTags(name, [{ name: 'oth-001', tag: 'helpful' }]);
      expect((await store.load(name)).sections.OTHERS[0]!.helpful).toBe(3);
    }
  });

  it('subscribe hears changes made by another PlaybookStore object through BroadcastChannel', async () => {
    const db = dbName();
    const channel = `test-${db}`;
    const writer = playbookStore(idbStore(db, 'kv'), { broadcast: channel });
    const reader = playbookStore(idbStore(db, 'kv'), { broadcast: channel });
    const seen: PlaybookChange[] = [];
    const off = reader.subscribe('p', (c) => seen.push(c));
    await writer.save('p', emptyPlaybook());
    await writer.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'x' }]);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.map((c) => [c.kind, c.version, c.origin])).toEqual([
      ['save', 1, 'remote'],
      ['delta', 2, 'remote'],
    ]);
    off();
    writer.close();
    reader.close();
  });
});

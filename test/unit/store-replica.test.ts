// A replica id shared by two concurrent writers on Workers KV (no transactions): their
// read-modify-writes of one counter slot overwrite each other. The store cannot prevent that, but it
// must not lose increments silently: the writer that finds its write overwritten gets
// `store_replica_conflict`.

import { type KeyValueStore, memoryStore, workersKvStore } from 'rearview/kv';
import { emptyPlaybook, type KeyPointTag } from 'rearview/playbook';
import { type PlaybookStoreOptions, playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { fakeKvNamespace } from './store-helpers';

const opts = (extra: PlaybookStoreOptions = {}): PlaybookStoreOptions => ({
  broadcast: false,
  onWarning: () => {},
  ...extra,
});
const tag = (name: string): KeyPointTag => ({ name, tag: 'helpful' });
const helpfulOf = async (kv: KeyValueStore) =>
  (await playbookStore(kv, opts()).load('p')).sections.OTHERS[0]!.helpful;

/** Two Workers KV store objects on one namespace: like two isolates, nothing serializes them. */
async function twoIsolates() {
  const ns = fakeKvNamespace();
  const setup = playbookStore(workersKvStore(ns), opts({ replicaId: 'setup' }));
  await setup.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'tip' }]);
  return { ns, kv: () => workersKvStore(ns) };
}

/** Settles every call; returns how many resolved and the errors of the others. */
async function settle(calls: Promise<unknown>[]) {
  const results = await Promise.allSettled(calls);
  return {
    resolved: results.filter((r) => r.status === 'fulfilled').length,
    errors: results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string }] : [])),
  };
}

describe('a replica id shared by two concurrent writers', () => {
  it('two interleaved applyTags on one slot: the overwritten writer gets store_replica_conflict', async () => {
    const { kv } = await twoIsolates();
    const a = playbookStore(kv(), opts({ replicaId: 'edge' }));
    const b = playbookStore(kv(), opts({ replicaId: 'edge' }));
    // Both read the slot before either writes (the fake answers after a microtask): B overwrites A.
    const out = await settle([a.applyTags('p', [tag('oth-001')]), b.applyTags('p', [tag('oth-001')])]);
    expect(out.errors).toEqual([
      expect.objectContaining({
        name: 'StoreError',
        code: 'store_replica_conflict',
        key: expect.stringMatching(/^pb:p:c:edge:[0-9a-f]{2}$/),
        message: expect.stringContaining('must be unique per concurrent writer'),
      }),
    ]);
    // One increment survived, and exactly one caller was told its call may have been lost.
    expect(out.resolved).toBe(1);
    expect(await helpfulOf(kv())).toBe(1);
    // Reported once: taking turns afterwards works for both.
    await a.applyTags('p', [tag('oth-001')]);
    await b.applyTags('p', [tag('oth-001')]);
    await a.applyTags('p', [tag('oth-001')]);
    expect(await helpfulOf(kv())).toBe(4);
  });

  it('200 concurrent increments through two isolates sharing an id: every loss is reported', async () => {
    const { kv } = await twoIsolates();
    const a = playbookStore(kv(), opts({ replicaId: 'edge' }));
    const b = playbookStore(kv(), opts({ replicaId: 'edge' }));
    const out = await settle(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).applyTags('p', [tag('oth-001')])),
    );
    const count = await helpfulOf(kv());
    expect(out.errors.length).toBeGreaterThan(0);
    expect(new Set(out.errors.map((e) => e.code))).toEqual(new Set(['store_replica_conflict']));
    // Silent loss was the bug (before: 200 calls resolved, 100 increments stored). In this
    // interleaving every overwritten call is told; the read-back window is the next test's case.
    expect(count).toBe(out.resolved);
  });

  it('a loss inside the read-back window is reported at the next write of the overwritten writer', async () => {
    const { ns, kv } = await twoIsolates();
    // A's puts wait for the gate: A reads, B writes, then A's stale write lands on top of B's.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gated = { ...ns, put: async (k: string, v: string) => gate.then(() => ns.put(k, v)) };
    const a = playbookStore(workersKvStore(gated), opts({ replicaId: 'edge' }));
    const b = playbookStore(kv(), opts({ replicaId: 'edge' }));
    await b.applyTags('p', [tag('oth-001')]);
    const pb = await a.load('p');
    pb.sections.OTHERS[0]!.helpful = 5; // +4 on the slot A read
    const saving = a.save('p', pb);
    await new Promise((r) => setTimeout(r, 20)); // A has read the slot and waits to write
    await b.applyTags('p', [tag('oth-001')]); // B's second increment...
    open();
    await saving; // ...is overwritten by A, after B's read-back
    expect(await helpfulOf(kv())).toBe(5);
    await expect(b.applyTags('p', [tag('oth-001')])).rejects.toMatchObject({
      code: 'store_replica_conflict',
    });
    // Nothing of the refused call was written; the next one counts.
    expect(await helpfulOf(kv())).toBe(5);
    await b.applyTags('p', [tag('oth-001')]);
    expect(await helpfulOf(kv())).toBe(6);
  });

  it('writers taking turns with one id (a new store object per request) never conflict', async () => {
    const { kv } = await twoIsolates();
    const shared = kv();
    for (let i = 0; i < 5; i++) {
      // Each request builds its own PlaybookStore, sometimes on its own KV object.
      const store = playbookStore(i % 2 ? kv() : shared, opts({ replicaId: 'edge' }));
      await store.applyTags('p', [tag('oth-001')]);
      if (i === 2) {
        const pb = await store.load('p');
        pb.sections.OTHERS[0]!.helpful += 2;
        await store.save('p', pb);
      }
    }
    expect(await helpfulOf(kv())).toBe(7);
  });

  it('one store object running many calls at once, and distinct ids, never conflict', async () => {
    const { kv } = await twoIsolates();
    const a = playbookStore(kv(), opts({ replicaId: 'colo-a' }));
    const b = playbookStore(kv(), opts({ replicaId: 'colo-b' }));
    const out = await settle(
      Array.from({ length: 100 }, (_, i) => (i % 4 ? a : b).applyTags('p', [tag('oth-001')])),
    );
    expect(out).toEqual({ resolved: 100, errors: [] });
    expect(await helpfulOf(kv())).toBe(100);
  });

  it('stores with shared transactions (memory, IndexedDB) share one slot safely: no lineage, no check', async () => {
    const kv = memoryStore();
    const a = playbookStore(kv, opts({ replicaId: 'tab' }));
    const b = playbookStore(kv, opts({ replicaId: 'tab' }));
    await a.save('p', emptyPlaybook());
    await a.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'tip' }]);
    await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).applyTags('p', [tag('oth-001')])));
    expect(await helpfulOf(kv)).toBe(50);
    // The loop below must see the shared slot, or it would assert nothing.
    const slots = await kv.keys('pb:p:c:');
    expect(slots.length).toBeGreaterThan(0);
    for (const key of slots)
      expect(Object.keys((await kv.get(key)) as object)).toEqual(['replica', 'counts']);
  });
});

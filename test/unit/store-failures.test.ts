// Explicit failures: quota, aborted and blocked transactions, no IndexedDB — each its own StoreError
// code, the previous state intact, and a fallback the caller chooses.
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import {
  idbStore,
  type KeyValueStore,
  memoryStore,
  openBestStore,
  withFallback,
  workersKvStore,
} from 'rearview/kv';
import { playbookStore } from 'rearview/store';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
});

let n = 0;
const fresh = () => idbStore(`failures-${++n}`, 'kv', { indexedDB: new IDBFactory() });

/** Makes every put throw like a browser out of quota. */
function simulateQuota() {
  return vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  });
}

describe('IndexedDB failures', () => {
  it('quota exceeded: store_quota, previous state intact for set, setMany, update and transact', async () => {
    const s = fresh();
    await s.setMany([
      ['a', 1],
      ['b', { list: [1] }],
    ]);
    simulateQuota();
    await expect(s.set('a', 2)).rejects.toMatchObject({ code: 'store_quota', name: 'StoreError' });
    await expect(
      s.setMany([
        ['a', 3],
        ['c', 3],
      ]),
    ).rejects.toMatchObject({ code: 'store_quota' });
    await expect(s.update<number>('a', (v) => (v ?? 0) + 1)).rejects.toMatchObject({ code: 'store_quota' });
    await expect(
      s.transact(['b'], () => ({ writes: [['b', 'x']], deletes: ['a'], result: 0 })),
    ).rejects.toMatchObject({
      code: 'store_quota',
    });
    vi.restoreAllMocks();
    expect(await s.getMany(['a', 'b', 'c'])).toEqual([1, { list: [1] }, undefined]);
  });

  it('quota exceeded during applyTags leaves the playbook and its counters as they were', async () => {
    const kv = fresh();
    const store = playbookStore(kv, { broadcast: false, onWarning: () => {} });
    await store.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'tip' }]);
    await store.applyTags('p', [{ name: 'oth-001', tag: 'helpful' }]);
    const before = await store.exportJson('p');
    simulateQuota();
    await expect(store.applyTags('p', [{ name: 'oth-001', tag: 'helpful' }])).rejects.toMatchObject({
      code: 'store_quota',
    });
    await expect(
      store.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'more' }]),
    ).rejects.toMatchObject({
      code: 'store_quota',
    });
    vi.restoreAllMocks();
    expect(await store.exportJson('p')).toBe(before);
  });

  it('an aborted transaction: store_aborted, nothing of it written', async () => {
    const s = fresh();
    await s.set('a', 1);
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore) {
      this.transaction.abort(); // e.g. the browser aborting under memory pressure
      throw new DOMException('The transaction was aborted.', 'AbortError');
    });
    await expect(s.update<number>('a', (v) => (v ?? 0) + 1)).rejects.toMatchObject({ code: 'store_aborted' });
    vi.restoreAllMocks();
    expect(await s.get('a')).toBe(1);
  });

  it('an upgrade blocked by another tab holding the database open: store_blocked', async () => {
    const factory = new IDBFactory();
    // "Another tab": opened the database with a different object store and ignores versionchange.
    const other = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open('shared-db', 1);
      req.onupgradeneeded = () => req.result.createObjectStore('other');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const s = idbStore('shared-db', 'kv', { indexedDB: factory });
    await expect(s.get('x')).rejects.toMatchObject({ code: 'store_blocked' });
    // Once the other tab lets go, the store is created and works.
    other.close();
    await s.set('x', 1);
    expect(await s.get('x')).toBe(1);
  });

  it('several stores share one database (the missing object store is added by an upgrade)', async () => {
    const factory = new IDBFactory();
    const a = idbStore('app', 'playbooks', { indexedDB: factory });
    const b = idbStore('app', 'memories', { indexedDB: factory });
    await a.set('k', 'a');
    await b.set('k', 'b');
    expect([await a.get('k'), await b.get('k')]).toEqual(['a', 'b']);
  });

  it('no IndexedDB (Node, private mode): store_unavailable on first use, not on creation', async () => {
    expect((globalThis as { indexedDB?: unknown }).indexedDB).toBeUndefined();
    const s = idbStore('x'); // creating touches nothing
    await expect(s.get('k')).rejects.toMatchObject({ code: 'store_unavailable' });
  });
});

describe('fallback chosen by the caller', () => {
  it('withFallback switches to the fallback on store_unavailable, once, with a warning', async () => {
    const warnings: string[] = [];
    const kv = withFallback(idbStore('x'), memoryStore(), { onWarning: (m) => warnings.push(m) });
    await kv.set('a', 1);
    expect(await kv.get('a')).toBe(1);
    expect(kv.kind).toBe('memory');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/store_unavailable.*memory/);
  });

  it('withFallback does not hide other failures (quota stays the caller’s decision)', async () => {
    const quota: KeyValueStore = {
      ...memoryStore(),
      kind: 'flaky',
      async set() {
        const { StoreError } = await import('rearview/core');
        throw new StoreError('store_quota', 'full');
      },
    };
    const kv = withFallback(quota, memoryStore(), { onWarning: () => {} });
    await expect(kv.set('a', 1)).rejects.toMatchObject({ code: 'store_quota' });
    expect(kv.kind).toBe('flaky');
    const permissive = withFallback(quota, memoryStore(), { on: ['store_quota'], onWarning: () => {} });
    await permissive.set('a', 1);
    expect(await permissive.get('a')).toBe(1);
  });

  it('openBestStore picks IndexedDB when it works, memory with a warning when it does not', async () => {
    const warn = vi.fn();
    const none = await openBestStore({ onWarning: warn });
    expect(none).toMatchObject({ persistent: false, store: { kind: 'memory' } });
    expect(warn).toHaveBeenCalledOnce();
    const best = await openBestStore({ dbName: 'best', indexedDB: new IDBFactory() });
    expect(best).toMatchObject({ persistent: true, store: { kind: 'indexeddb' } });
  });
});

describe('Workers KV failures', () => {
  it('a put over a limit is store_quota; every other failure store_failed, naming the call and key', async () => {
    const fail = (message: string) => () => Promise.reject(new Error(message));
    const kv = workersKvStore({
      get: fail('network down'),
      put: fail('Value length limit exceeded'),
      delete: fail('rate limit'),
      list: fail('network down'),
    });
    await expect(kv.set('big', 'x')).rejects.toMatchObject({
      code: 'store_quota',
      key: 'big',
      message: 'Workers KV put failed: Value length limit exceeded (key big)',
    });
    // "limit" in a delete's message is not about storage: only a put can exceed a quota.
    await expect(kv.delete('k')).rejects.toMatchObject({ code: 'store_failed', key: 'k' });
    await expect(kv.get('k')).rejects.toMatchObject({
      code: 'store_failed',
      message: 'Workers KV get failed: network down (key k)',
    });
    await expect(kv.keys()).rejects.toMatchObject({ code: 'store_failed' });
    const other = workersKvStore({
      get: fail(''),
      put: fail('socket hang up'),
      delete: fail(''),
      list: fail(''),
    });
    await expect(other.set('k', 1)).rejects.toMatchObject({ code: 'store_failed', key: 'k' });
  });
});

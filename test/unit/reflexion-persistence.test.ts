/**
 * Reflexion memory (seed 003, 4.3.3 and the reflexion_memory_test list) through a KeyValueStore
 * (memory and IndexedDB): reopened over the same store, namespaces kept apart, validation of what is
 * loaded, eviction on load, one sequence counter for every memory on a store, failed writes.
 */
import { IDBFactory } from 'fake-indexeddb';
import type { KeyValueStore } from 'rearview/kv';
import { idbStore, memoryStore } from 'rearview/kv';
import { describe, expect, it } from 'vitest';
import { ReflexionMemory } from '../../lib/loop/index';
import { clock, lesson } from './reflexion-helpers';

describe('persistence through a KeyValueStore', () => {
  it('a new memory over the same store sees earlier entries (open rebuilds the index)', async () => {
    const store = memoryStore();
    const first = await ReflexionMemory.open({ store, now: clock() });
    await first.store({
      prompt: 'Deploy the worker to production',
      mistake: 'Skipped tests',
      correction: 'Run npm test first',
    });
    const second = await ReflexionMemory.open({ store });
    expect(second.count()).toBe(1);
    expect(second.lastLoad).toEqual({ loaded: 1, skipped: [], evicted: 0 });
    expect((await second.retrieveSimilar('deploy the worker to production'))[0]!.correction).toBe(
      'Run npm test first',
    );
  });

  it('keeps namespaces apart', async () => {
    const store = memoryStore();
    await (await ReflexionMemory.open({ store, namespace: 'sql' })).store(lesson('count rows'));
    expect((await ReflexionMemory.open({ store, namespace: 'css' })).count()).toBe(0);
  });

  it('skips and reports invalid stored documents instead of crashing', async () => {
    const store = memoryStore();
    const memory = await ReflexionMemory.open({ store });
    await memory.store(lesson('good entry here'));
    await store.set('reflexion:default:entry:000000000099:bad', {
      v: 1,
      seq: 99,
      promptHash: 'nope',
      prompt: 'x',
    });
    await store.set('reflexion:default:entry:000000000100:junk', 'not an object');
    const reopened = await ReflexionMemory.open({ store });
    expect(reopened.count()).toBe(1);
    expect(reopened.lastLoad!.skipped.map((s) => s.key)).toEqual([
      'reflexion:default:entry:000000000099:bad',
      'reflexion:default:entry:000000000100:junk',
    ]);
    expect(reopened.lastLoad!.skipped[0]!.reason).toMatch(/promptHash/);
  });

  it('evicts past maxEntries on load', async () => {
    const store = memoryStore();
    await (await ReflexionMemory.open({ store })).storeMany([
      lesson('a1 task', 1),
      lesson('a2 task', 2),
      lesson('a3 task', 3),
    ]);
    const small = await ReflexionMemory.open({ store, maxEntries: 2 });
    expect(small.lastLoad).toMatchObject({ loaded: 2, evicted: 1 });
    expect(small.entries().map((e) => e.mistake)).toEqual(['mistake 2', 'mistake 3']);
    expect(await store.keys('reflexion:default:entry:')).toHaveLength(2);
  });

  it('two memories on one store never overwrite each other (shared sequence counter)', async () => {
    const store = memoryStore();
    const a = await ReflexionMemory.open({ store });
    const b = await ReflexionMemory.open({ store });
    await Promise.all([
      a.store(lesson('from a', 1)),
      b.store(lesson('from b', 2)),
      a.store(lesson('again a', 3)),
    ]);
    const merged = await ReflexionMemory.open({ store });
    expect(merged.count()).toBe(3);
  });

  it('a failed write leaves the memory unchanged', async () => {
    const base = memoryStore();
    const failing: KeyValueStore = { ...base, setMany: () => Promise.reject(new Error('quota')) };
    const memory = await ReflexionMemory.open({ store: failing });
    await expect(memory.store(lesson('lost task'))).rejects.toThrow('quota');
    expect(memory.count()).toBe(0);
    await expect(memory.store(lesson('lost task'))).rejects.toThrow('quota');
  });

  it('persists in IndexedDB across memory instances (fake-indexeddb)', async () => {
    const indexedDB = new IDBFactory();
    const one = await ReflexionMemory.open({
      store: idbStore('reflexion-test', 'kv', { indexedDB }),
      now: clock(),
    });
    await one.store({
      prompt: 'Format the date as ISO 8601',
      mistake: 'Used locale format',
      correction: 'toISOString()',
    });
    const two = await ReflexionMemory.open({ store: idbStore('reflexion-test', 'kv', { indexedDB }) });
    const [hit] = await two.retrieveSimilar('format the date as ISO 8601');
    expect(hit).toMatchObject({ correction: 'toISOString()', timestamp: 1_700_000_000_000 });
  });
});

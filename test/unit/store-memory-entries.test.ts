import { sha256Hex } from 'rearview/core';
import * as kv from 'rearview/kv';
import { memoryEntryStore, memoryStore } from 'rearview/kv';
import {
  ReflexionEntrySchema,
  ReflexionMemory,
  ReflexionEntrySchema as ReflexionMemorySchema,
} from 'rearview/loop';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

const clock = () => {
  let t = Date.UTC(2025, 0, 1);
  return () => {
    t += 1000;
    return new Date(t).toISOString();
  };
};

async function reflexion(prompt: string) {
  return {
    promptHash: await sha256Hex(prompt),
    prompt,
    mistake: `m:${prompt}`,
    correction: `c:${prompt}`,
    timestamp: Date.UTC(2025, 0, 1),
  };
}

describe('memoryEntryStore', () => {
  it('appends batches in one transaction, lists in order, queries and deletes (reflexion memories)', async () => {
    const kv = memoryStore();
    const mem = memoryEntryStore(kv, { namespace: 'reflexion', schema: ReflexionMemorySchema, now: clock() });
    const added = await mem.append([await reflexion('parse json'), await reflexion('retry http')]);
    expect(added.map((e) => [e.id, e.seq, e.at])).toEqual([
      ['000000000001', 1, '2025-01-01T00:00:01.000Z'],
      ['000000000002', 2, '2025-01-01T00:00:01.000Z'],
    ]);
    await mem.append(await reflexion('parse yaml'));
    expect((await mem.list()).map((e) => e.value.prompt)).toEqual(['parse json', 'retry http', 'parse yaml']);
    expect(
      (await mem.query((m) => m.prompt.startsWith('parse'), { order: 'newest', limit: 1 }))[0]!.value.prompt,
    ).toBe('parse yaml');
    expect(await mem.delete(['000000000002', 'nope'])).toBe(1);
    expect(await mem.count()).toBe(2);
    expect((await mem.get('000000000001'))?.value.prompt).toBe('parse json');
    await mem.clear();
    expect(await mem.count()).toBe(0);
  });

  it('is bounded: the oldest entries are evicted first', async () => {
    const mem = memoryEntryStore<number>(memoryStore(), { namespace: 'n', maxEntries: 3 });
    await mem.append([1, 2]);
    await mem.append([3, 4]);
    await mem.append(5);
    expect((await mem.list()).map((e) => e.value)).toEqual([3, 4, 5]);
    const big = await mem.append([6, 7, 8, 9]);
    expect(big.map((e) => e.value)).toEqual([7, 8, 9]);
    expect((await mem.list()).map((e) => e.value)).toEqual([7, 8, 9]);
  });

  it('validates on write: a bad entry in a batch is located and nothing is written', async () => {
    const kv = memoryStore();
    const mem = memoryEntryStore(kv, { namespace: 'r', schema: ReflexionMemorySchema });
    const good = await reflexion('ok');
    const err = await mem.append([good, { ...good, promptHash: 'xyz' }]).catch((e) => e);
    expect(err).toMatchObject({ code: 'validation_failed' });
    expect(err.message).toContain('[1].promptHash');
    expect(await kv.keys()).toEqual([]);
  });

  it('quarantines an entry that fails validation on read and loads the others', async () => {
    const kv = memoryStore();
    const errors: string[] = [];
    const schema = v.object({
      scope: v.string(),
      key: v.string(),
      value: v.string(),
      sourceIteration: v.number(),
    });
    const mem = memoryEntryStore(kv, {
      namespace: 'reflection',
      schema,
      onCorrupt: (e) => errors.push(e.code),
    });
    await mem.append([
      { scope: 'agent', key: 'a', value: 'x', sourceIteration: 1 },
      { scope: 'agent', key: 'b', value: 'y', sourceIteration: 2 },
    ]);
    await kv.update<{ value: { value: unknown } }>('mem:reflection:e:000000000001', (e) => ({
      ...e!,
      value: { ...e!.value, value: 42 },
    }));
    expect((await mem.list()).map((e) => e.value.key)).toEqual(['b']);
    expect(errors).toEqual(['store_corrupt']);
    const q = await kv.keys('quarantine:mem:reflection:e:000000000001');
    expect(q).toHaveLength(1);
    expect(await mem.list()).toHaveLength(1);
  });

  it('concurrent appends from two objects on one store never collide', async () => {
    const kv = memoryStore();
    const a = memoryEntryStore<number>(kv, { namespace: 'n' });
    const b = memoryEntryStore<number>(kv, { namespace: 'n' });
    await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).append(i)));
    const all = await a.list();
    expect(all).toHaveLength(50);
    expect(new Set(all.map((e) => e.id)).size).toBe(50);
  });
});

describe('one home for the log, one reflexion record schema', () => {
  it('rearview/store re-exports the log from rearview/kv and the schema from rearview/loop', () => {
    expect(memoryEntryStore).toBe(kv.memoryEntryStore);
    expect(ReflexionMemorySchema).toBe(ReflexionEntrySchema);
  });

  // Exactly what the former store schema (`timestamp: v.string()`) and memoryEntryStore wrote.
  const legacyEnvelope = async (seq: number, timestamp: unknown) => ({
    schema: 1,
    id: String(seq).padStart(12, '0'),
    seq,
    at: '2025-01-01T00:00:01.000Z',
    value: { ...(await reflexion(`old ${seq}`)), timestamp },
  });

  it('reads records written with the former ISO-string timestamp, as epoch milliseconds; writes numbers', async () => {
    const store = memoryStore();
    await store.setMany([
      ['mem:reflexion:head', { schema: 1, next: 4, first: 1 }],
      ['mem:reflexion:e:000000000001', await legacyEnvelope(1, '2025-01-01T00:00:00Z')],
      ['mem:reflexion:e:000000000002', await legacyEnvelope(2, '2025-03-04T05:06:07.890+02:00')],
      ['mem:reflexion:e:000000000003', await legacyEnvelope(3, '2024-02-29')],
    ]);
    const corrupt: string[] = [];
    const mem = memoryEntryStore(store, {
      namespace: 'reflexion',
      schema: ReflexionMemorySchema,
      onCorrupt: (e) => corrupt.push(e.message),
    });
    expect((await mem.list()).map((e) => e.value.timestamp)).toEqual([
      Date.UTC(2025, 0, 1),
      Date.UTC(2025, 2, 4, 3, 6, 7, 890),
      Date.UTC(2024, 1, 29),
    ]);
    expect(corrupt).toEqual([]);
    // New appends carry the number, and old and new entries list side by side.
    const [added] = await mem.append(await reflexion('new'));
    expect(
      (await store.get<{ value: { timestamp: unknown } }>(`mem:reflexion:e:${added!.id}`))?.value.timestamp,
    ).toBe(Date.UTC(2025, 0, 1));
    expect(await mem.count()).toBe(4);
  });

  it('quarantines a timestamp that is neither epoch milliseconds nor an unambiguous ISO 8601 date', async () => {
    const store = memoryStore();
    const bad = ['yesterday', '2025-02-30', '2025-01-01T10:00:00', 'NaN'];
    await store.setMany(
      await Promise.all(
        bad.map(async (t, i) => [`mem:r:e:00000000000${i + 1}`, await legacyEnvelope(i + 1, t)] as const),
      ),
    );
    const corrupt: string[] = [];
    const mem = memoryEntryStore(store, {
      namespace: 'r',
      schema: ReflexionMemorySchema,
      onCorrupt: (e) => corrupt.push(e.message),
    });
    expect(await mem.list()).toEqual([]);
    expect(corrupt).toEqual(
      bad.map(
        (t, i) =>
          `Memory entry is invalid: timestamp: Invalid type: Expected number but received "${t}" (key mem:r:e:00000000000${i + 1})`,
      ),
    );
    expect(await store.keys('quarantine:')).toHaveLength(4);
  });

  it('ReflexionMemory validates its documents with the same record schema', async () => {
    const store = memoryStore();
    const value = await reflexion('sort the users by age');
    await store.set('reflexion:default:entry:000000000000:legacy', {
      v: 1,
      seq: 0,
      ...value,
      timestamp: '2025-01-01T00:00:00Z',
    });
    await store.set('reflexion:default:entry:000000000001:bad', {
      v: 1,
      seq: 1,
      ...value,
      promptHash: 'xyz',
    });
    const memory = await ReflexionMemory.open({ store });
    expect(memory.entries()).toEqual([{ ...value, timestamp: Date.UTC(2025, 0, 1) }]);
    expect(v.safeParse(ReflexionEntrySchema, { ...value, promptHash: 'xyz' }).issues?.[0]?.message).toBe(
      'must be 64 lowercase hex characters',
    );
    expect(memory.lastLoad?.skipped).toEqual([
      {
        key: 'reflexion:default:entry:000000000001:bad',
        reason: 'promptHash: must be 64 lowercase hex characters',
      },
    ]);
  });
});

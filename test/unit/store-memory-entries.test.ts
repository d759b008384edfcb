import { sha256Hex } from 'rearview/core';
import { memoryEntryStore, memoryStore, ReflexionMemorySchema } from 'rearview/store';
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
    timestamp: '2025-01-01T00:00:00Z',
  };
}

describe('memoryEntryStore', () => {
  it('appends batches in one transaction, lists in order, queries and deletes (seed 003 reflexion memories)', async () => {
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

/**
 * The KeyValueStore contract: one list of cases every store must pass — memoryStore in Node,
 * idbStore in real Chromium and on fake-indexeddb in Node, workersKvStore inside workerd with a real
 * KV binding. Framework-free (no vitest import) so that a worker bundle can run it too.
 */
import type { KeyValueStore } from 'rearview/kv';

export interface ContractCase {
  name: string;
  run(store: KeyValueStore): Promise<void>;
}

export interface ContractResult {
  name: string;
  ok: boolean;
  error?: string;
}

class ContractFailure extends Error {}

function eq(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new ContractFailure(`${what}: expected ${e}, got ${a}`);
}

async function rejectsWith(
  fn: () => Promise<unknown>,
  code: string | undefined,
  what: string,
): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    if (code !== undefined && (err as { code?: string }).code !== code) {
      throw new ContractFailure(
        `${what}: expected code ${code}, got ${String((err as { code?: string }).code)} (${err})`,
      );
    }
    return err;
  }
  throw new ContractFailure(`${what}: expected a rejection`);
}

export const keyValueStoreContract: ContractCase[] = [
  {
    name: 'get of a missing key is undefined; set/get round-trips JSON data',
    async run(s) {
      eq(await s.get('missing'), undefined, 'missing');
      const value = { a: 1, b: [true, null, 'x'], c: { d: 'é\u{1F600}' }, e: -0.5 };
      await s.set('k', value);
      eq(await s.get('k'), value, 'round trip');
      await s.set('k', 'replaced');
      eq(await s.get('k'), 'replaced', 'overwrite');
    },
  },
  {
    name: 'values are copies: mutating what was stored or read changes nothing',
    async run(s) {
      const value = { list: [1, 2] };
      await s.set('k', value);
      value.list.push(3);
      const read = await s.get<{ list: number[] }>('k');
      eq(read, { list: [1, 2] }, 'after mutating the input');
      read!.list.push(4);
      eq(await s.get('k'), { list: [1, 2] }, 'after mutating the output');
    },
  },
  {
    name: 'delete removes a key; deleting a missing key is fine',
    async run(s) {
      await s.set('a', 1);
      await s.delete('a');
      await s.delete('never-there');
      eq(await s.get('a'), undefined, 'deleted');
    },
  },
  {
    name: 'keys are sorted and filtered by prefix, special characters included',
    async run(s) {
      await s.setMany([
        ['pb:b:doc', 1],
        ['pb:a:doc', 2],
        ['mem:x', 3],
        ['pb:a%3Ab:c:r', 4],
        ['pb:é/ü', 5],
      ]);
      eq(await s.keys(), ['mem:x', 'pb:a%3Ab:c:r', 'pb:a:doc', 'pb:b:doc', 'pb:é/ü'], 'all keys');
      eq(await s.keys('pb:a'), ['pb:a%3Ab:c:r', 'pb:a:doc'], 'prefix');
      eq(await s.keys('nothing'), [], 'no match');
    },
  },
  {
    name: 'update creates, returns the new value, and is atomic under concurrency',
    async run(s) {
      eq(await s.update<number>('n', (v) => (v ?? 0) + 1), 1, 'first update');
      await Promise.all(Array.from({ length: 40 }, () => s.update<number>('n', (v) => (v ?? 0) + 1)));
      eq(await s.get('n'), 41, 'no lost update among 40 concurrent updates');
    },
  },
  {
    name: 'an updater that throws writes nothing and its error comes back unchanged',
    async run(s) {
      await s.set('k', { v: 1 });
      const boom = new Error('boom');
      const err = await rejectsWith(
        () =>
          s.update('k', () => {
            throw boom;
          }),
        undefined,
        'throwing updater',
      );
      if (err !== boom) throw new ContractFailure(`expected the updater's own error, got ${String(err)}`);
      eq(await s.get('k'), { v: 1 }, 'unchanged');
    },
  },
  {
    name: 'getMany keeps order and gives undefined for missing keys; deleteMany removes',
    async run(s) {
      await s.setMany([
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ]);
      eq(await s.getMany(['c', 'x', 'a']), [3, undefined, 1], 'getMany');
      await s.deleteMany(['a', 'c', 'missing']);
      eq(await s.keys(), ['b'], 'after deleteMany');
    },
  },
  {
    name: 'updateMany calls the updater per key in order and writes every result',
    async run(s) {
      await s.set('b', 10);
      const seen: string[] = [];
      const out = await s.updateMany<number>(['a', 'b'], (k, v) => {
        seen.push(k);
        return (v ?? 0) + 1;
      });
      eq(seen, ['a', 'b'], 'order');
      eq(out, [1, 11], 'results');
      eq(await s.getMany(['a', 'b']), [1, 11], 'stored');
    },
  },
  {
    name: 'transact reads keys, writes and deletes any keys together, and is atomic under concurrency',
    async run(s) {
      await s.setMany([
        ['head', { next: 1 }],
        ['old', 'x'],
      ]);
      const r = await s.transact(['head', 'absent'], ([head, absent]) => {
        eq(absent, undefined, 'absent value');
        const next = (head as { next: number }).next;
        return {
          writes: [
            ['head', { next: next + 1 }],
            [`entry:${next}`, { n: next }],
          ],
          deletes: ['old'],
          result: next,
        };
      });
      eq(r, 1, 'result');
      eq(await s.keys(), ['entry:1', 'head'], 'keys after transact');
      await Promise.all(
        Array.from({ length: 30 }, () =>
          s.transact(['head'], ([head]) => {
            const next = (head as { next: number }).next;
            return {
              writes: [
                ['head', { next: next + 1 }],
                [`entry:${next}`, { n: next }],
              ],
              result: next,
            };
          }),
        ),
      );
      eq(await s.get('head'), { next: 32 }, 'no lost transact');
      eq((await s.keys('entry:')).length, 31, 'every entry written once');
    },
  },
  {
    name: 'a transact whose function throws writes nothing',
    async run(s) {
      await s.set('a', 1);
      await rejectsWith(
        () =>
          s.transact(['a'], () => {
            throw new RangeError('no');
          }),
        undefined,
        'throwing transact',
      );
      eq(await s.keys(), ['a'], 'nothing written');
      eq(await s.get('a'), 1, 'value intact');
    },
  },
  {
    name: 'values that cannot be stored fail with store_invalid_value and leave the previous state',
    async run(s) {
      await s.set('k', { ok: true });
      await rejectsWith(() => s.set('k', { f: () => 1 }), 'store_invalid_value', 'function value');
      await rejectsWith(() => s.set('k', undefined), 'store_invalid_value', 'undefined value');
      eq(await s.get('k'), { ok: true }, 'previous value intact');
      await rejectsWith(
        () =>
          s.setMany([
            ['x', 1],
            ['y', { f: () => 2 }],
          ]),
        'store_invalid_value',
        'bad value in a batch',
      );
      eq(await s.getMany(['x', 'y']), [undefined, undefined], 'nothing of the batch written');
      await rejectsWith(
        () => s.transact(['k'], () => ({ writes: [['k', { f: () => 3 }]], result: 0 })),
        'store_invalid_value',
        'bad value in transact',
      );
      eq(await s.get('k'), { ok: true }, 'still intact');
    },
  },
  {
    name: 'large values (256 KB) round-trip',
    async run(s) {
      const big = { text: 'x'.repeat(256 * 1024), list: Array.from({ length: 1000 }, (_, i) => ({ i })) };
      await s.set('big', big);
      const back = await s.get<typeof big>('big');
      eq(
        [back?.text.length, back?.list.length, back?.list[999]],
        [256 * 1024, 1000, { i: 999 }],
        'big value',
      );
    },
  },
  {
    name: 'kind and scope are declared',
    async run(s) {
      if (typeof s.kind !== 'string' || !s.kind) throw new ContractFailure('kind must be a non-empty string');
      if (s.scope !== 'shared' && s.scope !== 'instance')
        throw new ContractFailure(`bad scope ${String(s.scope)}`);
    },
  },
];

/** Runs every contract case on a fresh store from `makeStore`; never throws, reports per case. */
export async function runContractCases(
  makeStore: () => KeyValueStore | Promise<KeyValueStore>,
  cases: readonly ContractCase[] = keyValueStoreContract,
): Promise<ContractResult[]> {
  const out: ContractResult[] = [];
  for (const c of cases) {
    try {
      await c.run(await makeStore());
      out.push({ name: c.name, ok: true });
    } catch (err) {
      out.push({
        name: c.name,
        ok: false,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
  }
  return out;
}

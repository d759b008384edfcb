import { cloneJson, describeError, StoreError } from '../core/index.js';
import type { KeyValueStore, TransactResult } from './types.js';

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** Initial contents (copied). */
  initial?: Iterable<readonly [string, unknown]>;
}

/**
 * An in-memory {@link KeyValueStore} for tests, Node and short-lived workers. Values are deep-copied
 * on the way in and out (JSON data only, as Workers KV stores it: functions, Dates, Maps, NaN are
 * refused with `store_invalid_value`), so callers can never mutate stored state by accident.
 * Every read-modify-write runs synchronously between its read and its write, so it is atomic for
 * every user of this object (`scope: 'shared'`). Contents vanish when the program ends.
 *
 * @example
 * ```ts
 * const store = memoryStore();
 * await store.set('a', { n: 1 });
 * await store.update<{ n: number }>('a', (v) => ({ n: (v?.n ?? 0) + 1 })); // { n: 2 }
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): KeyValueStore & { readonly size: number } {
  const data = new Map<string, unknown>();
  for (const [k, v] of options.initial ?? []) data.set(k, storableJson(v, k));
  const read = <T>(key: string): T | undefined =>
    data.has(key) ? (storableJson(data.get(key), key) as T) : undefined;

  const commit = (writes: readonly (readonly [string, unknown])[], deletes: readonly string[]) => {
    // Clone everything first so a bad value leaves the store untouched.
    const copies = writes.map(([k, v]) => [k, storableJson(v, k)] as const);
    for (const k of deletes) data.delete(k);
    for (const [k, v] of copies) data.set(k, v);
  };

  return {
    kind: 'memory',
    scope: 'shared',
    get size() {
      return data.size;
    },
    async get<T>(key: string) {
      return read<T>(key);
    },
    async set(key, value) {
      commit([[key, value]], []);
    },
    async delete(key) {
      data.delete(key);
    },
    async keys(prefix = '') {
      return [...data.keys()].filter((k) => k.startsWith(prefix)).sort();
    },
    async update<T>(key: string, updater: (current: T | undefined) => T) {
      const next = updater(read<T>(key));
      commit([[key, next]], []);
      return read<T>(key) as T;
    },
    async getMany<T>(keys: readonly string[]) {
      return keys.map((k) => read<T>(k));
    },
    async setMany(entries) {
      commit(entries, []);
    },
    async deleteMany(keys) {
      for (const k of keys) data.delete(k);
    },
    async updateMany<T>(keys: readonly string[], updater: (key: string, current: T | undefined) => T) {
      const next = keys.map((k) => [k, updater(k, read<T>(k))] as const);
      commit(next, []);
      return keys.map((k) => read<T>(k) as T);
    },
    async transact<R>(keys: readonly string[], fn: (values: unknown[]) => TransactResult<R>) {
      const out = fn(keys.map((k) => read(k)));
      commit(out.writes ?? [], out.deletes ?? []);
      return out.result;
    },
  };
}

/**
 * The JSON copy a key-value store keeps of `value`, or a `store_invalid_value` StoreError naming the
 * key for anything JSON cannot hold (`undefined`, functions, NaN, cycles, class instances). Shared by
 * the adapters that store structured values, so they refuse exactly the same inputs.
 *
 * @example
 * ```ts
 * storableJson({ a: 1 }, 'k');       // { a: 1 } (a copy)
 * storableJson(undefined, 'k');      // throws StoreError store_invalid_value
 * ```
 */
export function storableJson(value: unknown, key: string): unknown {
  if (value === undefined) {
    throw new StoreError('store_invalid_value', 'Value cannot be stored: undefined', { key });
  }
  try {
    return cloneJson(value);
  } catch (err) {
    throw new StoreError('store_invalid_value', `Value cannot be stored: ${describeError(err)}`, {
      key,
      cause: err,
    });
  }
}

import { describeError, StoreError } from '../core/index.js';
import { type KeyValueStore, storableJson, type TransactResult } from '../kv/index.js';
import type { DurableStorageLike } from './types.js';

/**
 * A {@link KeyValueStore} on a SQLite-backed Durable Object's storage (`ctx.storage`). Every
 * read-modify-write runs inside `transactionSync`, so it is one SQLite transaction: atomic for every
 * user of the object (`scope: 'shared'`) and durable before the object's output gate lets a response
 * out. Values must be JSON data, as in every other store (`store_invalid_value` otherwise).
 *
 * @example
 * ```ts
 * export class Counter {
 *   constructor(private ctx: DurableObjectState) {}
 *   async fetch() {
 *     const kv = durableStorageKv(this.ctx.storage);
 *     return Response.json(await kv.update<number>('n', (n) => (n ?? 0) + 1));
 *   }
 * }
 * ```
 */
export function durableStorageKv(storage: DurableStorageLike): KeyValueStore {
  const { kv } = storage;
  const read = <T>(key: string): T | undefined => {
    try {
      return kv.get(key) as T | undefined;
    } catch (err) {
      throw failure('get', err, key);
    }
  };
  /** Validates every value first, so a bad one leaves storage untouched. */
  const commit = (writes: readonly (readonly [string, unknown])[], deletes: readonly string[]): void => {
    const copies = writes.map(([k, v]) => [k, storableJson(v, k)] as const);
    try {
      storage.transactionSync(() => {
        for (const k of deletes) kv.delete(k);
        for (const [k, v] of copies) kv.put(k, v);
      });
    } catch (err) {
      throw failure('write', err);
    }
  };
  /** Runs `fn` in one transaction; its own errors pass through unchanged (and roll back). */
  const atomically = <R>(fn: () => R): R => storage.transactionSync(fn);

  return {
    kind: 'durable-object',
    scope: 'shared',
    async get<T>(key: string) {
      return read<T>(key);
    },
    async set(key, value) {
      commit([[key, value]], []);
    },
    async delete(key) {
      commit([], [key]);
    },
    async keys(prefix = '') {
      const names: string[] = [];
      for (const [k] of kv.list({ prefix })) names.push(k);
      return names.sort();
    },
    async update<T>(key: string, updater: (current: T | undefined) => T) {
      return atomically(() => {
        const next = storableJson(updater(read<T>(key)), key);
        kv.put(key, next);
        return read<T>(key) as T;
      });
    },
    async getMany<T>(keys: readonly string[]) {
      return keys.map((k) => read<T>(k));
    },
    async setMany(entries) {
      commit(entries, []);
    },
    async deleteMany(keys) {
      commit([], keys);
    },
    async updateMany<T>(keys: readonly string[], updater: (key: string, current: T | undefined) => T) {
      return atomically(() => {
        const next = keys.map((k) => [k, storableJson(updater(k, read<T>(k)), k)] as const);
        for (const [k, v] of next) kv.put(k, v);
        return keys.map((k) => read<T>(k) as T);
      });
    },
    async transact<R>(keys: readonly string[], fn: (values: unknown[]) => TransactResult<R>) {
      return atomically(() => {
        const out = fn(keys.map((k) => read(k)));
        const writes = (out.writes ?? []).map(([k, v]) => [k, storableJson(v, k)] as const);
        for (const k of out.deletes ?? []) kv.delete(k);
        for (const [k, v] of writes) kv.put(k, v);
        return out.result;
      });
    },
  };
}

function failure(op: string, err: unknown, key?: string): StoreError {
  if (err instanceof StoreError) return err;
  const message = describeError(err);
  const code = /too (large|big)|SQLITE_TOOBIG|exceeds/i.test(message) ? 'store_quota' : 'store_failed';
  return new StoreError(code, `Durable Object storage ${op} failed: ${message}`, { key, cause: err });
}

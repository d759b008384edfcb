import { describeError, StoreError } from '../core/index.js';
import type { KeyValueStore, TransactResult } from './types.js';

/** The part of a Cloudflare Workers KV binding that {@link workersKvStore} uses. */
export interface KvNamespaceLike {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; cursor?: string; limit?: number }): Promise<{
    keys: { name: string }[];
    list_complete: boolean;
    cursor?: string;
  }>;
}

/**
 * A {@link KeyValueStore} on a Cloudflare Workers KV binding. Values are stored as JSON text.
 *
 * KV is eventually consistent and has no transactions (`scope: 'instance'`): `update` and `transact`
 * are atomic only among calls through this store object (queued per key), not across isolates or
 * data centres, and a multi-key write that fails midway may leave the keys written before it. Data
 * that many writers change (playbook counters) is therefore kept in per-replica records that each
 * writer owns alone and merged on read (see `playbookStore`), which KV's last-write-wins cannot break.
 *
 * Errors: `store_quota` (value too large / limits), `store_corrupt` (a value that is not JSON),
 * `store_invalid_value` (not JSON-serializable), `store_failed` otherwise.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(req: Request, env: { PLAYBOOKS: KVNamespace }) {
 *     const store = workersKvStore(env.PLAYBOOKS);
 *     await store.set('hello', { at: Date.now() });
 *     return Response.json(await store.get('hello'));
 *   },
 * };
 * ```
 */
export function workersKvStore(namespace: KvNamespaceLike): KeyValueStore {
  const queues = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task on any of `keys` has settled. */
  const serialize = <T>(keys: string | readonly string[], task: () => Promise<T>): Promise<T> => {
    const list = typeof keys === 'string' ? [keys] : [...new Set(keys)];
    const previous = Promise.all(list.map((k) => queues.get(k)));
    const next = previous.then(task);
    const settled = next.catch(() => undefined);
    for (const k of list) queues.set(k, settled);
    settled.then(() => {
      for (const k of list) if (queues.get(k) === settled) queues.delete(k);
    });
    return next;
  };

  const read = async <T>(key: string): Promise<T | undefined> => {
    let text: string | null;
    try {
      text = await namespace.get(key, 'text');
    } catch (err) {
      throw kvFailure('get', err, key);
    }
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new StoreError('store_corrupt', 'Workers KV value is not valid JSON', { key, cause: err });
    }
  };

  const write = async (key: string, value: unknown): Promise<void> => {
    const text = toText(key, value);
    try {
      await namespace.put(key, text);
    } catch (err) {
      throw kvFailure('put', err, key);
    }
  };

  const remove = async (key: string): Promise<void> => {
    try {
      await namespace.delete(key);
    } catch (err) {
      throw kvFailure('delete', err, key);
    }
  };

  const store: KeyValueStore = {
    kind: 'workers-kv',
    scope: 'instance',
    get: (key) => read(key),
    set: (key, value) => serialize(key, () => write(key, value)),
    delete: (key) => serialize(key, () => remove(key)),
    async keys(prefix = '') {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        let page: Awaited<ReturnType<KvNamespaceLike['list']>>;
        try {
          page = await namespace.list({ prefix, ...(cursor ? { cursor } : {}) });
        } catch (err) {
          throw kvFailure('list', err);
        }
        for (const k of page.keys) out.push(k.name);
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return out.sort();
    },
    update: <T>(key: string, updater: (current: T | undefined) => T) =>
      serialize(key, async () => {
        const next = updater(await read<T>(key));
        await write(key, next);
        return JSON.parse(toText(key, next)) as T;
      }),
    getMany: <T>(keys: readonly string[]) => Promise.all(keys.map((k) => read<T>(k))),
    async setMany(entries) {
      // Serialize every value first so a bad one writes nothing.
      for (const [k, v] of entries) toText(k, v);
      await Promise.all(entries.map(([k, v]) => store.set(k, v)));
    },
    async deleteMany(keys) {
      await Promise.all(keys.map((k) => store.delete(k)));
    },
    updateMany: <T>(keys: readonly string[], updater: (key: string, current: T | undefined) => T) =>
      store.transact(keys, (values) => {
        const next = keys.map((k, i) => updater(k, values[i] as T | undefined));
        return { writes: keys.map((k, i) => [k, next[i]] as const), result: next };
      }),
    transact: <R>(keys: readonly string[], fn: (values: unknown[]) => TransactResult<R>) =>
      serialize(keys, async () => {
        const values = await Promise.all(keys.map((k) => read(k)));
        const out = fn(values);
        const writes = out.writes ?? [];
        for (const [k, v] of writes) toText(k, v);
        await Promise.all([
          ...writes.map(([k, v]) => write(k, v)),
          ...(out.deletes ?? []).map((k) => remove(k)),
        ]);
        return out.result;
      }),
  };
  return store;
}

/**
 * A failed KV call as a {@link StoreError}: `store_quota` when a put's message says a limit was hit
 * (value too large, write quota), else `store_failed`. Never throws, whatever the binding threw.
 */
function kvFailure(op: 'get' | 'put' | 'delete' | 'list', err: unknown, key?: string): StoreError {
  const message = describeError(err);
  const quota = op === 'put' && /limit|quota|too large/i.test(message);
  return new StoreError(quota ? 'store_quota' : 'store_failed', `Workers KV ${op} failed: ${message}`, {
    cause: err,
    ...(key !== undefined ? { key } : {}),
  });
}

/** JSON text of `value`, refusing what JSON would silently drop or change (functions, symbols, NaN). */
function toText(key: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_k, v) => {
      if (typeof v === 'function' || typeof v === 'symbol') throw new TypeError(`${typeof v} is not JSON`);
      if (typeof v === 'number' && !Number.isFinite(v)) throw new TypeError(`${v} is not JSON`);
      return v;
    });
  } catch (err) {
    throw new StoreError('store_invalid_value', `Value cannot be stored: ${describeError(err)}`, {
      key,
      cause: err,
    });
  }
  if (text === undefined)
    throw new StoreError('store_invalid_value', 'Value cannot be stored: undefined', { key });
  return text;
}

import { describeError, isRearviewError } from '../core/index.js';
import { idbStore } from './idb.js';
import { memoryStore } from './memory.js';
import type { KeyValueStore } from './types.js';

/** Options of {@link withFallback}. */
export interface FallbackOptions {
  /** Error codes that switch to the fallback (default: only `store_unavailable`). */
  on?: readonly string[];
  /** Told once, when the switch happens. Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * A store that uses `primary` until it fails with one of `options.on` (default `store_unavailable`,
 * e.g. no IndexedDB in a private window), then switches to `fallback` for good, with a warning, and
 * retries the failed call there. Other errors (quota, aborted) still reach the caller. The caller
 * chooses the fallback and so what is lost: a `memoryStore` keeps nothing after the page closes.
 *
 * @example
 * ```ts
 * const kv = withFallback(idbStore('my-app'), memoryStore(), {
 *   onWarning: (m) => showBanner(`Not saved between visits: ${m}`),
 * });
 * ```
 */
export function withFallback(
  primary: KeyValueStore,
  fallback: KeyValueStore,
  options: FallbackOptions = {},
): KeyValueStore & { readonly active: KeyValueStore } {
  const codes = new Set(options.on ?? ['store_unavailable']);
  let active = primary;
  const call = async <R>(fn: (s: KeyValueStore) => Promise<R>): Promise<R> => {
    const current = active;
    try {
      return await fn(current);
    } catch (err) {
      if (current !== primary || !isRearviewError(err) || !codes.has(err.code)) throw err;
      if (active === primary) {
        active = fallback;
        (options.onWarning ?? ((m: string) => console.warn(m)))(
          `${primary.kind} store failed (${err.code}: ${err.message}); using the ${fallback.kind} store instead`,
        );
      }
      return fn(active);
    }
  };
  return {
    get kind() {
      return active.kind;
    },
    get scope() {
      return active.scope;
    },
    get active() {
      return active;
    },
    get: (key) => call((s) => s.get(key)),
    set: (key, value) => call((s) => s.set(key, value)),
    delete: (key) => call((s) => s.delete(key)),
    keys: (prefix) => call((s) => s.keys(prefix)),
    update: (key, updater) => call((s) => s.update(key, updater)),
    getMany: (keys) => call((s) => s.getMany(keys)),
    setMany: (entries) => call((s) => s.setMany(entries)),
    deleteMany: (keys) => call((s) => s.deleteMany(keys)),
    updateMany: (keys, updater) => call((s) => s.updateMany(keys, updater)),
    transact: (keys, fn) => call((s) => s.transact(keys, fn)),
  } as KeyValueStore & { readonly active: KeyValueStore };
}

/** Options of {@link openBestStore}. */
export interface OpenBestStoreOptions {
  dbName?: string;
  storeName?: string;
  /** IDBFactory to try (default: the global `indexedDB`). */
  indexedDB?: IDBFactory;
  /** Told when IndexedDB cannot be used. Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * Opens IndexedDB when it works here and a memory store otherwise (Node, workers without storage,
 * private modes that refuse IndexedDB), with a warning. Probes with one read so the answer is known
 * before the first real write.
 *
 * @example
 * ```ts
 * const { store, persistent } = await openBestStore({ dbName: 'my-app' });
 * if (!persistent) console.info('Playbooks last only as long as this page');
 * ```
 */
export async function openBestStore(
  options: OpenBestStoreOptions = {},
): Promise<{ store: KeyValueStore; persistent: boolean; reason?: string }> {
  const idb = idbStore(
    options.dbName,
    options.storeName,
    options.indexedDB ? { indexedDB: options.indexedDB } : {},
  );
  try {
    await idb.get('meta:probe');
    return { store: idb, persistent: true };
  } catch (err) {
    const reason = isRearviewError(err) ? `${err.code}: ${err.message}` : describeError(err);
    (options.onWarning ?? ((m: string) => console.warn(m)))(
      `IndexedDB is not usable (${reason}); keeping data in memory only`,
    );
    return { store: memoryStore(), persistent: false, reason };
  }
}

import { del, get, getMany, promisifyRequest, set, type UseStore, update } from 'idb-keyval';
import { describeError, StoreError } from '../core/index.js';
import type { KeyValueStore, TransactResult } from './types.js';

/** Options of {@link idbStore}. */
export interface IdbStoreOptions {
  /**
   * The `IDBFactory` to use. Default: the global `indexedDB`, looked up on first use. Pass `fake-indexeddb`'s factory in Node tests, or a wrapper to
   * simulate failures.
   */
  indexedDB?: IDBFactory;
}

/**
 * A {@link KeyValueStore} in IndexedDB through `idb-keyval`. Nothing is opened until the first call.
 * `update`, `updateMany` and `transact` each run inside ONE `readwrite` transaction, which IndexedDB
 * serializes across every tab of the origin (`scope: 'shared'`), so concurrent read-modify-writes
 * from several tabs never lose an update.
 *
 * Several stores may share one database (`idbStore('app', 'playbooks')`, `idbStore('app', 'memories')`):
 * a missing object store is created by a version upgrade, which other tabs let through (they close
 * and reopen on their next call).
 *
 * Failures are {@link StoreError}s and a failed write changes nothing:
 * - `store_unavailable`: no IndexedDB (Node, some private modes) or the browser refused to open it;
 * - `store_quota`: the origin's storage quota is exhausted;
 * - `store_blocked`: an upgrade was blocked by another tab holding the database open;
 * - `store_aborted`: the transaction was aborted (by the browser, another tab's upgrade, …);
 * - `store_invalid_value`: the value cannot be cloned; `store_failed`: anything else.
 *
 * @example
 * ```ts
 * const store = idbStore('my-app', 'rearview');
 * await store.set('greeting', { text: 'hi' });
 * await store.update<number>('visits', (n) => (n ?? 0) + 1);
 * ```
 */
export function idbStore(
  dbName = 'rearview',
  storeName = 'kv',
  options: IdbStoreOptions = {},
): KeyValueStore {
  let use: Promise<UseStore> | undefined;

  const getStore = (): Promise<UseStore> => {
    use ??= (async () => {
      const injected = options.indexedDB;
      const factory = injected ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
      if (!factory) {
        throw new StoreError(
          'store_unavailable',
          'IndexedDB is not available in this runtime (no browser storage, or a private mode that disables it)',
        );
      }
      // idb-keyval's createStore, with the factory passed in and a versionchange handler added.
      return ensureObjectStore(factory, dbName, storeName, createStoreWith(factory, dbName, storeName));
    })().catch((err) => {
      use = undefined; // let a later call try again (e.g. after the user frees space)
      throw err;
    });
    return use;
  };

  const run = async <T>(
    what: string,
    key: string | undefined,
    fn: (store: UseStore) => Promise<T>,
  ): Promise<T> => {
    try {
      return await fn(await getStore());
    } catch (err) {
      // The caller's own updater failed: hand its error back untouched, as memoryStore does.
      if (err instanceof CallerFailure) throw err.error;
      throw toStoreError(err, what, key);
    }
  };

  return {
    kind: 'indexeddb',
    scope: 'shared',
    get: <T>(key: string) => run('get', key, (s) => get<T>(key, s)),
    set: (key, value) =>
      run('set', key, async (s) => {
        if (value === undefined) throw undefinedValue(key);
        return set(key, value, s);
      }),
    delete: (key) => run('delete', key, (s) => del(key, s)),
    keys: (prefix = '') =>
      run('keys', undefined, async (s) => {
        // Filtered here rather than with an IDBKeyRange (a global that injected factories do not bring).
        const all = await s('readonly', (os) => promisifyRequest(os.getAllKeys()));
        return all
          .map(String)
          .filter((k) => k.startsWith(prefix))
          .sort();
      }),
    update: <T>(key: string, updater: (current: T | undefined) => T) =>
      run('update', key, async (s) => {
        // idb-keyval's update: get and put inside one readwrite transaction.
        let next: T | undefined;
        let failure: CallerFailure | undefined;
        await update<T>(
          key,
          (current) => {
            try {
              next = updater(current);
              if (next === undefined) throw undefinedValue(key);
            } catch (err) {
              failure = new CallerFailure(err);
              throw failure;
            }
            return next;
          },
          s,
        );
        if (failure) throw failure;
        return next as T;
      }),
    getMany: <T>(keys: readonly string[]) => run('getMany', undefined, (s) => getMany<T>([...keys], s)),
    // All or nothing: a put that throws (DataCloneError) aborts the whole transaction.
    setMany: (entries) =>
      run('setMany', undefined, (s) => transactInOne(s, [], () => ({ writes: entries, result: undefined }))),
    deleteMany: (keys) =>
      run('deleteMany', undefined, (s) => transactInOne(s, [], () => ({ deletes: keys, result: undefined }))),
    updateMany: <T>(keys: readonly string[], updater: (key: string, current: T | undefined) => T) =>
      run('updateMany', undefined, (s) =>
        transactInOne(s, keys, (values) => {
          const next = keys.map((k, i) => updater(k, values[i] as T | undefined));
          return { writes: keys.map((k, i) => [k, next[i]] as const), result: next };
        }),
      ),
    transact: <R>(keys: readonly string[], fn: (values: unknown[]) => TransactResult<R>) =>
      run('transact', keys.length === 1 ? keys[0] : undefined, (s) => transactInOne(s, keys, fn)),
  };
}

/** idb-keyval's `createStore`, with the `IDBFactory` passed in instead of read from the global. */
function createStoreWith(factory: IDBFactory, dbName: string, storeName: string): UseStore {
  let dbp: Promise<IDBDatabase> | undefined;
  const getDb = () => {
    if (dbp) return dbp;
    const request = factory.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    dbp = requestPromise(request);
    dbp.then(
      (db) => {
        db.onclose = () => {
          dbp = undefined;
        };
        db.onversionchange = () => {
          db.close();
          dbp = undefined;
        };
      },
      () => {
        dbp = undefined;
      },
    );
    return dbp;
  };
  return (mode, callback) =>
    getDb().then((db) => callback(db.transaction(storeName, mode).objectStore(storeName)));
}

/**
 * Wraps a UseStore so that a database that exists without our object store (another store of the
 * same database created it) gets it through a version upgrade, reported as `store_blocked` when
 * another connection refuses to close.
 */
function ensureObjectStore(factory: IDBFactory, dbName: string, storeName: string, base: UseStore): UseStore {
  let upgraded: Promise<void> | undefined;
  const wrapped: UseStore = async (mode, callback) => {
    try {
      return await base(mode, callback);
    } catch (err) {
      if ((err as { name?: string })?.name !== 'NotFoundError') throw err;
      upgraded ??= addObjectStore(factory, dbName, storeName).finally(() => {
        upgraded = undefined;
      });
      await upgraded;
      return base(mode, callback);
    }
  };
  return wrapped;
}

async function addObjectStore(factory: IDBFactory, dbName: string, storeName: string): Promise<void> {
  const current = await requestPromise(factory.open(dbName));
  const version = current.version;
  const has = current.objectStoreNames.contains(storeName);
  current.close();
  if (has) return;
  await new Promise<void>((resolve, reject) => {
    const request = factory.open(dbName, version + 1);
    let blocked = false;
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(storeName)) request.result.createObjectStore(storeName);
    };
    request.onblocked = () => {
      blocked = true;
      reject(
        new StoreError(
          'store_blocked',
          `IndexedDB upgrade of "${dbName}" to add "${storeName}" is blocked by another tab holding it open`,
        ),
      );
    };
    request.onsuccess = () => {
      request.result.close();
      if (!blocked) resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

function requestPromise<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Reads every key and applies every write inside ONE readwrite transaction, using request callbacks
 * only (awaiting anything else would let the transaction auto-commit midway).
 */
function transactInOne<R>(
  store: UseStore,
  keys: readonly string[],
  fn: (values: unknown[]) => TransactResult<R>,
): Promise<R> {
  return store('readwrite', (os) => {
    return new Promise<R>((resolve, reject) => {
      const tx = os.transaction;
      const values: unknown[] = new Array(keys.length);
      let pending = keys.length;
      let result: R;
      let failure: unknown;
      const apply = () => {
        try {
          const out = fn(values);
          result = out.result;
          for (const k of out.deletes ?? []) os.delete(k);
          for (const [k, v] of out.writes ?? []) {
            if (v === undefined) throw undefinedValue(k);
            os.put(v, k);
          }
        } catch (err) {
          // The caller's function, or a put that threw synchronously (DataCloneError, quota): undo all.
          failure = isDomLike(err) ? err : new CallerFailure(err);
          try {
            tx.abort();
          } catch {
            // already finished
          }
        }
      };
      keys.forEach((key, i) => {
        const req = os.get(key);
        req.onsuccess = () => {
          values[i] = req.result;
          if (--pending === 0) apply();
        };
      });
      if (keys.length === 0) apply();
      tx.oncomplete = () => resolve(result);
      tx.onabort = tx.onerror = () => reject(failure ?? tx.error ?? abortError());
    });
  });
}

function undefinedValue(key: string): StoreError {
  return new StoreError('store_invalid_value', 'Value cannot be stored: undefined', { key });
}

class CallerFailure {
  constructor(readonly error: unknown) {}
}

function isDomLike(err: unknown): boolean {
  const name = (err as { name?: unknown })?.name;
  return (
    typeof name === 'string' &&
    /^(QuotaExceededError|DataCloneError|AbortError|InvalidStateError)$/.test(name)
  );
}

function abortError(): Error {
  const err = new Error('The transaction was aborted');
  err.name = 'AbortError';
  return err;
}

/**
 * Maps an IndexedDB failure to a {@link StoreError} with a stable code.
 *
 * @example
 * ```ts
 * toStoreError(new DOMException('full', 'QuotaExceededError'), 'set', 'k').code; // 'store_quota'
 * ```
 */
export function toStoreError(err: unknown, what: string, key: string | undefined): StoreError {
  if (err instanceof StoreError) return err;
  if (err === null || err === undefined) err = abortError(); // an abort without an error attached
  const name = (err as { name?: string })?.name ?? '';
  const message = describeError(err);
  const opts = { cause: err, ...(key !== undefined ? { key } : {}) };
  if (name === 'QuotaExceededError') {
    return new StoreError('store_quota', `IndexedDB ${what} exceeded the storage quota`, opts);
  }
  if (name === 'AbortError' || name === 'TransactionInactiveError') {
    return new StoreError('store_aborted', `IndexedDB ${what} was aborted: ${message}`, opts);
  }
  if (name === 'DataCloneError') {
    return new StoreError('store_invalid_value', `Value cannot be stored in IndexedDB: ${message}`, opts);
  }
  if (name === 'InvalidStateError' || name === 'UnknownError' || name === 'SecurityError') {
    return new StoreError('store_unavailable', `IndexedDB is unavailable (${name}): ${message}`, opts);
  }
  return new StoreError('store_failed', `IndexedDB ${what} failed: ${message}`, opts);
}

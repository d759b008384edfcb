/**
 * What a {@link KeyValueStore.transact} callback asks to be written. Every write and deletion of one
 * call is applied together, or none is.
 */
export interface TransactResult<R> {
  /** Values to store, keyed; any key may be written, not only those that were read. */
  writes?: readonly (readonly [string, unknown])[];
  /** Keys to remove. */
  deletes?: readonly string[];
  /** What `transact` resolves to. */
  result: R;
}

/**
 * A minimal asynchronous key-value store. Values are structured-clonable JSON data (plain objects,
 * arrays, strings, finite numbers, booleans, null); implementations store copies, never references.
 *
 * Atomicity: `update`, `updateMany` and `transact` are read-modify-writes that no other write through
 * the same store can interleave with. How far "the same store" reaches depends on the backend (see
 * {@link KeyValueStore.scope}): IndexedDB serializes transactions across every tab of an origin; a
 * memory store within its process; Workers KV only within one store object (KV has no transactions).
 *
 * @example
 * ```ts
 * async function bump(store: KeyValueStore) {
 *   return store.update<number>('visits', (n) => (n ?? 0) + 1);
 * }
 * ```
 */
export interface KeyValueStore {
  /** Which backend this is: `memory`, `indexeddb`, `workers-kv`, or a custom name. */
  readonly kind: string;
  /**
   * How far read-modify-writes are atomic: `shared` (every user of the same storage, e.g. all tabs of
   * an origin for IndexedDB), `instance` (only calls through this store object).
   */
  readonly scope: 'shared' | 'instance';
  /** The value under `key`, or `undefined`. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores `value` under `key`. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes `key` (no error when absent). */
  delete(key: string): Promise<void>;
  /** Every key, or those starting with `prefix`, sorted by UTF-16 code units. */
  keys(prefix?: string): Promise<string[]>;
  /**
   * Atomic read-modify-write: `updater` sees the current value and returns the new one; no other
   * write to `key` through this store can interleave. `updater` must be synchronous and should be
   * pure (stores may run it more than once). If it throws, nothing is written and the error is
   * rethrown unchanged.
   */
  update<T>(key: string, updater: (current: T | undefined) => T): Promise<T>;
  /** Values of several keys in one round trip, in the same order. */
  getMany<T = unknown>(keys: readonly string[]): Promise<(T | undefined)[]>;
  /** Several writes in one round trip; all or nothing where the backend has transactions. */
  setMany(entries: readonly (readonly [string, unknown])[]): Promise<void>;
  /** Several deletions in one round trip. */
  deleteMany(keys: readonly string[]): Promise<void>;
  /**
   * Several read-modify-writes in one transaction where the backend has them. `updater` is called
   * once per key, in the order given.
   */
  updateMany<T>(keys: readonly string[], updater: (key: string, current: T | undefined) => T): Promise<T[]>;
  /**
   * The general atomic step: reads `keys`, calls `fn` synchronously with their values (same order),
   * then applies the writes and deletions it returns, all in one transaction. If `fn` throws,
   * nothing is written and its error is rethrown unchanged.
   */
  transact<R>(keys: readonly string[], fn: (values: unknown[]) => TransactResult<R>): Promise<R>;
}

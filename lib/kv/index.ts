/**
 * `rearview/kv`: the key-value adapters everything persistent is built on — the small
 * {@link KeyValueStore} interface (get/set/delete/keys plus an optional atomic `transact`), with
 * IndexedDB (browsers, through idb-keyval), Workers KV (edge) and in-memory implementations, and a
 * fallback opener for browsers without IndexedDB; and `memoryEntryStore`, a bounded, validated entry
 * log on any of them. Knows nothing of playbooks: `rearview/store` builds playbook persistence on top
 * of it. See lib/kv/README.md.
 *
 * @module
 */
export {
  type ListOptions,
  type MemoryEntryStore,
  type MemoryEntryStoreOptions,
  memoryEntryStore,
  type StoredEntry,
} from './entries.js';
export { type FallbackOptions, type OpenBestStoreOptions, openBestStore, withFallback } from './fallback.js';
export { type IdbStoreOptions, idbStore, toStoreError } from './idb.js';
export { type MemoryStoreOptions, memoryStore, storableJson } from './memory.js';
export type { KeyValueStore, TransactResult } from './types.js';
export { type KvNamespaceLike, workersKvStore } from './workers-kv.js';

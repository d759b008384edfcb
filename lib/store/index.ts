/**
 * `rearview/store`: persistence that never loses an update — a small {@link KeyValueStore} interface
 * with IndexedDB (browsers), Workers KV (edge) and memory implementations; playbooks with grow-only
 * G-counters, change log, revert, quarantine and migrations; bounded memory-entry logs. See
 * lib/store/README.md.
 *
 * @module
 */
export { type FallbackOptions, type OpenBestStoreOptions, openBestStore, withFallback } from './fallback.js';
export { type IdbStoreOptions, idbStore, toStoreError } from './idb.js';
export { findSyntaxError, parseJsonLocated } from './json-parse.js';
export { type MemoryStoreOptions, memoryStore } from './memory.js';
export {
  type ListOptions,
  type MemoryEntryStore,
  type MemoryEntryStoreOptions,
  memoryEntryStore,
  type ReflexionMemoryRecord,
  ReflexionMemorySchema,
  type StoredEntry,
} from './memory-entries.js';
export {
  compareKeyPointNames,
  compareStamps,
  countersFromRecords,
  type GCounters,
  type MergeConflict,
  mergeContent,
  mergeCounters,
  mergePlaybookDocuments,
  type PlaybookDocument,
  PlaybookDocumentSchema,
  recordsFromCounters,
  sameContent,
  viewPlaybook,
} from './playbook-merge.js';
export {
  type ContentDoc,
  type CounterRecord,
  detectPlaybookSchema,
  type HeadRecord,
  MIGRATED_REPLICA,
  type MigrationOutcome,
  migratePlaybook,
  migrateV0ToV1,
  migrateV1ToV2,
  PLAYBOOK_SCHEMA,
  PlaybookV0Schema,
  type PlaybookV1,
  PlaybookV1Schema,
  type Stamp,
  type StoredKeyPoint,
  type TagEvent,
  type VersionMeta,
  type VersionSnapshot,
} from './playbook-schema.js';
export {
  type ApplyDeltaStoreResult,
  type ApplyTagsResult,
  type HistoryEntry,
  type OpenedPlaybook,
  type PlaybookChange,
  type PlaybookStore,
  type PlaybookStoreOptions,
  playbookStore,
  syncPlaybooks,
  type WriteResult,
} from './playbook-store.js';
export type { KeyValueStore, TransactResult } from './types.js';
export { type KvNamespaceLike, workersKvStore } from './workers-kv.js';

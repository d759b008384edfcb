/**
 * `rearview/store`: persistence that never loses an update — a small {@link KeyValueStore} interface
 * with IndexedDB (browsers), Workers KV (edge) and memory implementations; playbooks with grow-only
 * G-counters, change log, revert, quarantine and migrations; bounded memory-entry logs. See
 * lib/store/README.md.
 *
 * @module
 */
// The key-value adapters live in `rearview/kv` and the located JSON parser in `rearview/core`; they
// stay re-exported here so that no import written against earlier versions breaks.
export { findSyntaxError, parseJsonLocated } from '../core/index.js';
export {
  type FallbackOptions,
  type IdbStoreOptions,
  idbStore,
  type KeyValueStore,
  type KvNamespaceLike,
  type MemoryStoreOptions,
  memoryStore,
  type OpenBestStoreOptions,
  openBestStore,
  type TransactResult,
  toStoreError,
  withFallback,
  workersKvStore,
} from '../kv/index.js';
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

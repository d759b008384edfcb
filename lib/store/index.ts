/**
 * `rearview/store`: playbook persistence that never loses an update — `playbookStore(kv)` on any
 * `rearview/kv` adapter, with grow-only G-counters, change log, history and revert, quarantine,
 * migrations, import/export and sync. See lib/store/README.md.
 *
 * @module
 */
export {
  countersFromRecords,
  type GCounters,
  mergeCounters,
  recordsFromCounters,
} from './playbook-gcounters.js';
export {
  compareKeyPointNames,
  compareStamps,
  type MergeConflict,
  mergeContent,
  mergePlaybookDocuments,
  type PlaybookDocument,
  PlaybookDocumentSchema,
  sameContent,
  viewPlaybook,
} from './playbook-merge.js';
export {
  detectPlaybookSchema,
  type MigrationOutcome,
  migratePlaybook,
  migrateV0ToV1,
  migrateV1ToV2,
  PlaybookV0Schema,
  type PlaybookV1,
  PlaybookV1Schema,
} from './playbook-migrations.js';
export {
  type ContentDoc,
  type CounterRecord,
  type HeadRecord,
  MIGRATED_REPLICA,
  PLAYBOOK_SCHEMA,
  type Stamp,
  type StoredKeyPoint,
  type TagEvent,
  type VersionMeta,
  type VersionSnapshot,
} from './playbook-schema.js';
export { playbookStore, syncPlaybooks } from './playbook-store.js';
export type {
  ApplyDeltaStoreResult,
  ApplyTagsResult,
  HistoryEntry,
  OpenedPlaybook,
  PlaybookChange,
  PlaybookStore,
  PlaybookStoreOptions,
  WriteResult,
} from './store-types.js';

/**
 * The public shapes of {@link PlaybookStore}: its options, results and change notifications. Kept
 * apart from the implementation so the per-concern modules can share them without a cycle.
 */
import type { StoreError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import type { AppliedOperation, KeyPointTag, Playbook } from '../playbook/index.js';
import type { MergeConflict, PlaybookDocument } from './playbook-merge.js';
import type { TagEvent, VersionMeta } from './playbook-schema.js';

/** Options of {@link playbookStore}. */
export interface PlaybookStoreOptions {
  /**
   * This writer's G-counter slot. Default: for stores with shared transactions (IndexedDB, memory) a
   * per-store id persisted under `meta:replica`, so every tab of a browser shares one slot; for
   * Workers KV a fresh id per PlaybookStore object (KV has no transactions, so writers must not share
   * a slot; pass a stable id per writer to keep the number of slots small). On such a store a replica
   * id must be unique per concurrent writer: a write that finds its slot overwritten by another writer
   * with the same id fails with `store_replica_conflict`.
   */
  replicaId?: string;
  /** Who is making changes, recorded in the change log. Default: the replica id. */
  actor?: string;
  /** Clock for timestamps (ISO string, Date or epoch ms). Default: the current time. */
  now?: () => string | number | Date;
  /** Content versions retained for history and revert (default 50, at least 1). */
  maxVersions?: number;
  /** applyTags events retained per replica (default 100). */
  maxTagEvents?: number;
  /**
   * How many records one replica's counters are split into (default 32; fix it per store). More
   * shards make applyTags on huge playbooks cheaper and loads read more keys.
   */
  counterShards?: number;
  /**
   * BroadcastChannel name used to tell other tabs about changes, or `false` for none. Default
   * `rearview:playbook` when the runtime has BroadcastChannel.
   */
  broadcast?: string | false;
  /** Called with each corrupt record found (code `store_corrupt`) after it has been quarantined. */
  onCorrupt?: (error: StoreError) => void;
  /** Called with each warning (skipped tags, ignored counter decreases). Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/** A change notification. */
export interface PlaybookChange {
  id: string;
  kind: VersionMeta['kind'] | 'tags';
  /** Content version after the change. */
  version: number;
  /** `local`: made through this PlaybookStore; `remote`: another tab, through BroadcastChannel. */
  origin: 'local' | 'remote';
}

/** What {@link PlaybookStore.open} returns. */
export interface OpenedPlaybook {
  id: string;
  exists: boolean;
  /** Content version (0 when the playbook does not exist yet). */
  version: number;
  playbook: Playbook;
  /** Legacy `kpt_NNN` names carried over by a migration. */
  legacyNames: string[];
  /** Corrupt records found and quarantined while loading (code `store_corrupt`). */
  diagnostics: StoreError[];
}

/** What {@link PlaybookStore.applyTags} did. */
export interface ApplyTagsResult {
  /** Tags that changed a counter. */
  applied: number;
  /** Tags skipped (unknown name or tag value); neutral tags are neither applied nor skipped. */
  skipped: { tag: KeyPointTag; reason: string }[];
  /** Content version the tags were checked against. */
  version: number;
}

/** What {@link PlaybookStore.applyDelta} did. */
export interface ApplyDeltaStoreResult {
  /** Content version after the delta (unchanged when nothing applied). */
  version: number;
  applied: AppliedOperation[];
  rejected: { op: unknown; reason: string }[];
  playbook: Playbook;
}

/** One line of {@link PlaybookStore.history}: a content version or an applyTags call. */
export type HistoryEntry =
  | ({ type: 'version' } & VersionMeta)
  | ({ type: 'tags'; replica: string } & TagEvent);

/** Result of save, revert and import. */
export interface WriteResult {
  id: string;
  /** Content version after the call. */
  version: number;
  /** False when there was nothing to change. */
  changed: boolean;
  /** Key points whose saved counters were lower than stored ones (counters never decrease). */
  ignoredDecreases?: string[];
  /** Same ids created independently on two replicas (the older text was dropped). */
  conflicts?: MergeConflict[];
}

/**
 * Playbooks persisted in any {@link KeyValueStore}, safe across tabs and devices. See
 * lib/store/README.md for the layout and guarantees.
 */
export interface PlaybookStore {
  /** The key-value store underneath. */
  readonly kv: KeyValueStore;
  /** This writer's G-counter slot id. */
  replicaId(): Promise<string>;
  /** Ids of every stored playbook, sorted. */
  list(): Promise<string[]>;
  /** Loads a playbook with its version and diagnostics; migrates and quarantines as needed. */
  open(id: string): Promise<OpenedPlaybook>;
  /** The playbook (five empty sections when it does not exist). */
  load(id: string): Promise<Playbook>;
  /**
   * Replaces the content (sections, key points, texts) with `playbook` as a new version. Counters
   * only grow: a saved counter higher than the stored total raises this replica's slot by the
   * difference; a lower one is ignored with a warning. Use applyTags for concurrent increments.
   */
  save(id: string, playbook: Playbook): Promise<WriteResult>;
  /** Applies reflector tags atomically: one transaction however many tags (the reference design semantics). */
  applyTags(id: string, tags: readonly KeyPointTag[]): Promise<ApplyTagsResult>;
  /** Applies curator operations (ADD/UPDATE/MERGE/REMOVE) atomically as one new version. */
  applyDelta(id: string, operations: readonly unknown[]): Promise<ApplyDeltaStoreResult>;
  /** Retained content versions and applyTags events, oldest first. */
  history(id: string): Promise<HistoryEntry[]>;
  /** Restores the content of a retained version as a new version; counters are not rolled back. */
  revert(id: string, version: number): Promise<WriteResult>;
  /** The portable document: content plus every replica's counter slots. */
  exportDocument(id: string): Promise<PlaybookDocument>;
  /** Merges a portable document into the stored one (creating it when absent). */
  importDocument(
    doc: PlaybookDocument,
    options?: { id?: string; kind?: 'import' | 'sync' },
  ): Promise<WriteResult>;
  /** {@link PlaybookStore.exportDocument} as JSON text. */
  exportJson(id: string): Promise<string>;
  /**
   * Imports JSON: a document from exportJson, a schema-1 document, or the reference design's plain playbook.json
   * (then `options.id` names it). Malformed input throws a located ValidationError and changes nothing.
   */
  importJson(json: string, options?: { id?: string }): Promise<WriteResult>;
  /** Calls `listener` after every change to playbook `id`, from this object or other tabs. */
  subscribe(id: string, listener: (change: PlaybookChange) => void): () => void;
  /** Releases the BroadcastChannel. */
  close(): void;
}

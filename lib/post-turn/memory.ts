/**
 * The memory entries post-turn reflection writes and the log they go to: a bounded
 * {@link MemoryEntryStore} from `rearview/kv`, validated with {@link ReflectionMemoryEntrySchema}.
 */
import * as v from 'valibot';
import type { StoreError } from '../core/index.js';
import { type KeyValueStore, type MemoryEntryStore, memoryEntryStore } from '../kv/index.js';

/** One memory entry written by reflection; visible to future retrieval only. */
export interface ReflectionMemoryEntry {
  /** The agent id (`unknown` when the bundle has none). */
  owner: string;
  /** The turn's fixed clock (`bundle.nowIso`). */
  ts: string;
  /** The summary. */
  text: string;
  tags: string[];
  kind: 'summary';
  /** Deterministic embedding of `text` (32 floats, L2-normalized) when `reflection.embed` is on. */
  vecFull?: number[];
}

/**
 * valibot schema of a {@link ReflectionMemoryEntry}.
 *
 * @example
 * ```ts
 * memoryEntryStore(kv, { namespace: 'reflection', schema: ReflectionMemoryEntrySchema });
 * ```
 */
export const ReflectionMemoryEntrySchema = v.object({
  owner: v.string(),
  ts: v.string(),
  text: v.string(),
  tags: v.array(v.string()),
  kind: v.literal('summary'),
  vecFull: v.optional(v.array(v.pipe(v.number(), v.finite()))),
});

/** Options of {@link reflectionMemoryStore}. */
export interface ReflectionMemoryStoreOptions {
  /** Namespace in the key-value store. Default `reflection`. On Workers KV use one per writer. */
  namespace?: string;
  /** Most entries kept (oldest evicted first). Default 1000. */
  maxEntries?: number;
  /** Clock for the store's own `at` stamp; pass a fixed one for byte-identical stores. */
  now?: () => string | number | Date;
  /** Called with each corrupt entry found on read (after it has been quarantined). */
  onCorrupt?: (error: StoreError) => void;
}

/**
 * A {@link MemoryEntryStore} of reflection memory entries on any {@link KeyValueStore}
 * (`memoryStore()`, `idbStore()`, `workersKvStore()`).
 *
 * @example
 * ```ts
 * const memory = reflectionMemoryStore(idbStore('app', 'memories'));
 * await reflect(bundle, config, { memory });
 * ```
 */
export function reflectionMemoryStore(
  kv: KeyValueStore,
  options: ReflectionMemoryStoreOptions = {},
): MemoryEntryStore<ReflectionMemoryEntry> {
  return memoryEntryStore<ReflectionMemoryEntry>(kv, {
    namespace: options.namespace ?? 'reflection',
    schema: ReflectionMemoryEntrySchema as v.GenericSchema<unknown, ReflectionMemoryEntry>,
    ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.onCorrupt ? { onCorrupt: options.onCorrupt } : {}),
  });
}

/**
 * Stored layout of playbooks (schema 2): the record types and their valibot schemas. The layouts
 * before it and their migrations are in playbook-migrations.ts. See lib/store/README.md for the keys.
 */
import * as v from 'valibot';
import { type HighWater, KeyPointNameSchema, SECTION_NAMES, type SectionName } from '../playbook/index.js';

/**
 * The current stored schema version.
 *
 * @example
 * ```ts
 * doc.schema === PLAYBOOK_SCHEMA; // stored by this version of rearview
 * ```
 */
export const PLAYBOOK_SCHEMA = 2;

/**
 * Reserved replica slot holding the counters a migrated (pre-G-counter) playbook already had.
 *
 * @example
 * ```ts
 * const exported = await store.exportDocument('legacy');
 * exported.counters.kpt_001.helpful[MIGRATED_REPLICA]; // the count the legacy file carried
 * ```
 */
export const MIGRATED_REPLICA = '~migrated';

/** A last-writer-wins stamp: Lamport clock, then replica id as tie-break. */
export type Stamp = [clock: number, replica: string];

/** A key point as stored: content only (counters live in per-replica records) plus its LWW stamp. */
export interface StoredKeyPoint {
  name: string;
  text: string;
  createdAt?: string;
  updatedAt?: string;
  source?: { session?: string; traceRefs?: string[] };
  stamp: Stamp;
}

/** The content document of one playbook (key `pb:{id}:doc`), schema 2. */
export interface ContentDoc {
  schema: 2;
  id: string;
  /** Local content version: 1 for the first write, +1 per content change on this store. */
  version: number;
  /** Lamport clock: the largest stamp clock seen. */
  clock: number;
  sections: Record<SectionName, StoredKeyPoint[]>;
  /** Per-section id high-water marks; never decrease, so ids are never reused. */
  highWater: HighWater;
  /** Tombstones of removed key points, newest stamp wins against a live entry's stamp. */
  removed: Record<string, Stamp>;
  /** Key points merged away: their counters count towards `into` while they are absent. */
  aliases: Record<string, { into: string; stamp: Stamp }>;
  /** Legacy seed-001 ids (`kpt_NNN`) this playbook carried when it was migrated. */
  legacyNames?: string[];
}

/** One replica's slot of the playbook's G-counters (key `pb:{id}:c:{replica}`). */
export interface CounterRecord {
  replica: string;
  counts: Record<string, { helpful: number; harmful: number }>;
}

/** What one content version was: who, what, when. */
export interface VersionMeta {
  version: number;
  at: string;
  actor: string;
  kind: 'save' | 'delta' | 'revert' | 'import' | 'migrate' | 'sync' | 'repair';
  /** Applied operations of a delta. */
  ops?: unknown[];
  /** Refused operations of a delta, with reasons. */
  rejected?: { op: unknown; reason: string }[];
  /** The version a revert restored. */
  revertedTo?: number;
  /** The schema a migration came from. */
  migratedFrom?: number;
  /** Key points in the version. */
  size: number;
}

/** The head record (key `pb:{id}:head`): current version and the bounded change log. */
export interface HeadRecord {
  version: number;
  log: VersionMeta[];
}

/** A retained content version (key `pb:{id}:v:{version}`). */
export interface VersionSnapshot {
  meta: VersionMeta;
  doc: ContentDoc;
}

/** One applyTags call as logged (key `pb:{id}:t:{replica}` holds the bounded list). */
export interface TagEvent {
  at: string;
  actor: string;
  /** Content version the tags were applied against. */
  contentVersion: number;
  /** Applied increments per name. */
  increments: Record<string, { helpful: number; harmful: number }>;
  /** How many tags were given, and how many were skipped. */
  given: number;
  skipped: number;
}

/** A replica's tag log. */
export interface TagLogRecord {
  events: TagEvent[];
}

/** A count, version or clock: a non-negative integer. */
export const Int = v.pipe(v.number(), v.integer(), v.minValue(0));
const StampSchema = v.tuple([Int, v.string()]);

/**
 * valibot schema of a stored key point.
 *
 * @example
 * ```ts
 * v.is(StoredKeyPointSchema, { name: 'pat-001', text: 'x', stamp: [1, 'replica-a'] }); // true
 * ```
 */
export const StoredKeyPointSchema = v.object({
  name: KeyPointNameSchema,
  text: v.string(),
  createdAt: v.optional(v.string()),
  updatedAt: v.optional(v.string()),
  source: v.optional(
    v.object({ session: v.optional(v.string()), traceRefs: v.optional(v.array(v.string())) }),
  ),
  stamp: StampSchema,
});

/** valibot schema of per-section id high-water marks. */
export const HighWaterSchema = v.object({ pat: Int, mis: Int, pref: Int, ctx: Int, oth: Int });

/**
 * The envelope of a content document; key points are checked one by one with {@link StoredKeyPointSchema}.
 *
 * @example
 * ```ts
 * v.safeParse(ContentDocEnvelopeSchema, await kv.get('pb:default:doc')).success;
 * ```
 */
export const ContentDocEnvelopeSchema = v.object({
  schema: v.literal(2),
  id: v.string(),
  version: Int,
  clock: Int,
  sections: v.object(
    Object.fromEntries(SECTION_NAMES.map((n) => [n, v.array(v.unknown())])) as Record<
      SectionName,
      v.ArraySchema<v.UnknownSchema, undefined>
    >,
  ),
  highWater: HighWaterSchema,
  removed: v.record(v.string(), StampSchema),
  aliases: v.record(v.string(), v.object({ into: v.string(), stamp: StampSchema })),
  legacyNames: v.optional(v.array(v.string())),
});

/** valibot schema of one key point's counts in a record. */
export const CountSchema = v.object({ helpful: Int, harmful: Int });

/**
 * valibot schema of a {@link CounterRecord}.
 *
 * @example
 * ```ts
 * v.is(CounterRecordSchema, { replica: 'a', counts: { 'pat-001': { helpful: 1, harmful: 0 } } }); // true
 * ```
 */
export const CounterRecordSchema = v.object({
  replica: v.string(),
  counts: v.record(v.string(), CountSchema),
});

const VersionMetaSchema = v.object({
  version: Int,
  at: v.string(),
  actor: v.string(),
  kind: v.picklist(['save', 'delta', 'revert', 'import', 'migrate', 'sync', 'repair']),
  ops: v.optional(v.array(v.unknown())),
  rejected: v.optional(v.array(v.object({ op: v.unknown(), reason: v.string() }))),
  revertedTo: v.optional(Int),
  migratedFrom: v.optional(Int),
  size: Int,
});

/**
 * valibot schema of a {@link HeadRecord}.
 *
 * @example
 * ```ts
 * v.is(HeadRecordSchema, { version: 0, log: [] }); // true
 * ```
 */
export const HeadRecordSchema = v.object({ version: Int, log: v.array(VersionMetaSchema) });

/**
 * valibot schema of a {@link VersionSnapshot} (its doc's key points are checked too).
 *
 * @example
 * ```ts
 * v.safeParse(VersionSnapshotSchema, await kv.get('pb:default:v:0000000001')).success;
 * ```
 */
export const VersionSnapshotSchema = v.object({
  meta: VersionMetaSchema,
  doc: v.object({
    ...ContentDocEnvelopeSchema.entries,
    sections: v.object(
      Object.fromEntries(SECTION_NAMES.map((n) => [n, v.array(StoredKeyPointSchema)])) as Record<
        SectionName,
        v.ArraySchema<typeof StoredKeyPointSchema, undefined>
      >,
    ),
  }),
});

/**
 * valibot schema of a {@link TagLogRecord}.
 *
 * @example
 * ```ts
 * v.is(TagLogRecordSchema, { events: [] }); // true
 * ```
 */
export const TagLogRecordSchema = v.object({
  events: v.array(
    v.object({
      at: v.string(),
      actor: v.string(),
      contentVersion: Int,
      increments: v.record(v.string(), CountSchema),
      given: Int,
      skipped: Int,
    }),
  ),
});

/**
 * Stored layout of playbooks (schema 2) and the migrations that bring older layouts forward.
 * See lib/store/README.md for the key layout.
 */
import * as v from 'valibot';
import {
  type HighWater,
  highWaterOf,
  isLegacyId,
  type Playbook,
  SECTION_NAMES,
  type SectionName,
} from '../playbook/index.js';

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

const Int = v.pipe(v.number(), v.integer(), v.minValue(0));
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
  name: v.pipe(v.string(), v.minLength(1)),
  text: v.string(),
  createdAt: v.optional(v.string()),
  updatedAt: v.optional(v.string()),
  source: v.optional(
    v.object({ session: v.optional(v.string()), traceRefs: v.optional(v.array(v.string())) }),
  ),
  stamp: StampSchema,
});

const HighWaterSchema = v.object({ pat: Int, mis: Int, pref: Int, ctx: Int, oth: Int });

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

const CountSchema = v.object({ helpful: Int, harmful: Int });

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

// ---------------------------------------------------------------------------------------------------
// Past layouts

/**
 * Schema 0: seed 001's plain `playbook.json` — `{sections: {NAME: [{name, text, helpful, harmful}]}}`,
 * often with legacy `kpt_NNN` names, sometimes missing sections or counters.
 *
 * @example
 * ```ts
 * v.is(PlaybookV0Schema, { sections: { OTHERS: [{ name: 'kpt_001', text: 'tip', helpful: 1, harmful: 0 }] } }); // true
 * ```
 */
export const PlaybookV0Schema = v.object({
  sections: v.record(
    v.string(),
    v.array(
      v.looseObject({
        name: v.pipe(v.string(), v.minLength(1)),
        text: v.string(),
        helpful: v.optional(Int),
        harmful: v.optional(Int),
      }),
    ),
  ),
});

/**
 * Schema 1: rearview's first layout — one document with inline counter totals and id marks.
 *
 * @example
 * ```ts
 * v.is(PlaybookV1Schema, JSON.parse(schemaOneJson));
 * ```
 */
export const PlaybookV1Schema = v.object({
  schema: v.literal(1),
  id: v.optional(v.string()),
  sections: v.object(
    Object.fromEntries(
      SECTION_NAMES.map((n) => [
        n,
        v.array(
          v.object({
            name: v.pipe(v.string(), v.minLength(1)),
            text: v.string(),
            helpful: Int,
            harmful: Int,
            createdAt: v.optional(v.string()),
            updatedAt: v.optional(v.string()),
            source: v.optional(
              v.object({ session: v.optional(v.string()), traceRefs: v.optional(v.array(v.string())) }),
            ),
          }),
        ),
      ]),
    ) as unknown as Record<SectionName, v.GenericSchema>,
  ),
  nextIds: HighWaterSchema,
  legacyNames: v.array(v.string()),
  updatedAt: v.optional(v.string()),
});

/** A schema-1 document. */
export type PlaybookV1 = v.InferOutput<typeof PlaybookV1Schema> & { sections: Playbook['sections'] };

/**
 * The schema of a stored or imported playbook document: 0 (seed 001 plain JSON), 1, 2, or undefined
 * when it is none of them.
 *
 * @example
 * ```ts
 * detectPlaybookSchema({ sections: { OTHERS: [] } }); // 0
 * ```
 */
export function detectPlaybookSchema(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const schema = (raw as { schema?: unknown }).schema;
  if (schema === undefined) return 'sections' in raw ? 0 : undefined;
  return typeof schema === 'number' ? schema : undefined;
}

/** Issues found while migrating. */
export interface MigrationOutcome {
  doc: ContentDoc;
  /** Counters the old layout carried, as the reserved {@link MIGRATED_REPLICA} slot. */
  counters: CounterRecord;
  /** The schema migrated from. */
  from: number;
  /** Things that were moved or dropped on the way (never silently). */
  notes: string[];
}

/**
 * Migrates schema 0 to schema 1: every section present (entries of unknown sections go to OTHERS,
 * noted), counters defaulted to 0, legacy `kpt_NNN` names kept as they are and recorded.
 *
 * @example
 * ```ts
 * const v1 = migrateV0ToV1({ sections: { OTHERS: [{ name: 'kpt_001', text: 'tip', helpful: 2, harmful: 0 }] } });
 * v1.legacyNames; // ['kpt_001']
 * ```
 */
export function migrateV0ToV1(raw: unknown, notes: string[] = []): PlaybookV1 {
  const v0 = v.parse(PlaybookV0Schema, raw);
  const sections = {} as Playbook['sections'];
  for (const n of SECTION_NAMES) sections[n] = [];
  const legacyNames: string[] = [];
  for (const [name, entries] of Object.entries(v0.sections)) {
    const target: SectionName = (SECTION_NAMES as readonly string[]).includes(name)
      ? (name as SectionName)
      : 'OTHERS';
    if (target !== name)
      notes.push(`section ${JSON.stringify(name)} is unknown: its key points moved to OTHERS`);
    for (const e of entries) {
      if (isLegacyId(e.name)) legacyNames.push(e.name);
      sections[target].push({
        name: e.name,
        text: e.text,
        helpful: e.helpful ?? 0,
        harmful: e.harmful ?? 0,
        ...(typeof e.createdAt === 'string' ? { createdAt: e.createdAt } : {}),
        ...(typeof e.updatedAt === 'string' ? { updatedAt: e.updatedAt } : {}),
      });
    }
  }
  const playbook = { sections };
  return { schema: 1, sections, nextIds: highWaterOf(playbook), legacyNames };
}

/**
 * Migrates schema 1 to schema 2: content into the document with stamps at clock 1, inline counter
 * totals into the reserved `~migrated` G-counter slot (so two devices migrating the same file merge
 * to the same totals, not twice them).
 *
 * @example
 * ```ts
 * const { doc, counters } = migrateV1ToV2(v1, 'team');
 * ```
 */
export function migrateV1ToV2(raw: unknown, id: string): { doc: ContentDoc; counters: CounterRecord } {
  const v1 = v.parse(PlaybookV1Schema, raw) as PlaybookV1;
  const stamp: Stamp = [1, MIGRATED_REPLICA];
  const sections = {} as ContentDoc['sections'];
  const counts: CounterRecord['counts'] = {};
  for (const n of SECTION_NAMES) {
    sections[n] = v1.sections[n].map((kp) => {
      if (kp.helpful || kp.harmful) counts[kp.name] = { helpful: kp.helpful, harmful: kp.harmful };
      const { helpful: _h, harmful: _x, ...content } = kp;
      return { ...content, stamp: [...stamp] as Stamp };
    });
  }
  const doc: ContentDoc = {
    schema: 2,
    id,
    version: 0,
    clock: 1,
    sections,
    highWater: highWaterOf(v1, v1.nextIds),
    removed: {},
    aliases: {},
    ...(v1.legacyNames.length ? { legacyNames: v1.legacyNames } : {}),
  };
  return { doc, counters: { replica: MIGRATED_REPLICA, counts } };
}

/**
 * Brings a playbook document of any past schema to the current one (0 → 1 → 2). Throws valibot's
 * `ValiError` when the input matches no known layout.
 *
 * @example
 * ```ts
 * const { doc, counters, from } = migratePlaybook(JSON.parse(legacyPlaybookJson), 'default');
 * ```
 */
export function migratePlaybook(raw: unknown, id: string): MigrationOutcome {
  const from = detectPlaybookSchema(raw);
  const notes: string[] = [];
  let current: unknown = raw;
  if (from === 0) current = migrateV0ToV1(current, notes);
  if (from === 0 || from === 1) {
    const { doc, counters } = migrateV1ToV2(current, id);
    return { doc, counters, from, notes };
  }
  throw new Error(`Unknown playbook schema ${String(from)}`);
}

/**
 * The stored layouts before schema 2 and the migrations that bring them forward (0 → 1 → 2). Old
 * files are read as they are; nothing here writes.
 */
import * as v from 'valibot';
import {
  highWaterOf,
  isLegacyId,
  KeyPointNameSchema,
  type Playbook,
  SECTION_NAMES,
  type SectionName,
} from '../playbook/index.js';
import {
  type ContentDoc,
  type CounterRecord,
  HighWaterSchema,
  Int,
  MIGRATED_REPLICA,
  type Stamp,
} from './playbook-schema.js';
import { dict } from './store-keys.js';

/**
 * Schema 0: the reference design's plain `playbook.json` — `{sections: {NAME: [{name, text, helpful, harmful}]}}`,
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
        name: KeyPointNameSchema,
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
            name: KeyPointNameSchema,
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
 * The schema of a stored or imported playbook document: 0 (the reference plain JSON), 1, 2, or undefined
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
  const counts = dict<CounterRecord['counts'][string]>();
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

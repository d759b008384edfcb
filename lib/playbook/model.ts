/**
 * The playbook data model (seed 001): five sections of key points, each with helpful/harmful
 * counters that only ever grow (INV-REFL-003). Plain JSON-able objects, valibot schemas, and the two
 * pure operations every layer builds on: {@link applyBulletTags} and {@link applyDelta}.
 *
 * @module
 */
import * as v from 'valibot';
import { cloneJson } from '../core/index.js';

/**
 * The five section names, in display order.
 *
 * @example
 * ```ts
 * for (const section of SECTION_NAMES) console.log(section, pb.sections[section].length);
 * ```
 */
export const SECTION_NAMES = [
  'PATTERNS & APPROACHES',
  'MISTAKES TO AVOID',
  'USER PREFERENCES',
  'PROJECT CONTEXT',
  'OTHERS',
] as const;

/** A playbook section name. */
export type SectionName = (typeof SECTION_NAMES)[number];

/**
 * The id prefix of each section's key points (`pat-001`, `mis-002`, …).
 *
 * @example
 * ```ts
 * SECTION_SLUGS['MISTAKES TO AVOID']; // 'mis'
 * ```
 */
export const SECTION_SLUGS = {
  'PATTERNS & APPROACHES': 'pat',
  'MISTAKES TO AVOID': 'mis',
  'USER PREFERENCES': 'pref',
  'PROJECT CONTEXT': 'ctx',
  OTHERS: 'oth',
} as const satisfies Record<SectionName, string>;

/** A section slug: `pat`, `mis`, `pref`, `ctx` or `oth`. */
export type SectionSlug = (typeof SECTION_SLUGS)[SectionName];

/** Per-section id high-water marks: the largest number ever allocated in each section. */
export type HighWater = Record<SectionSlug, number>;

const KEY_POINT_ID = /^(pat|mis|pref|ctx|oth)-(\d+)$/;
const LEGACY_ID = /^kpt_(\d+)$/;
/** rearview's ids, other ACE writers' (`str-00001`, `calc-00003`) and seed 001's legacy `kpt_NNN`. */
const KEY_POINT_NAME = /^(?:[a-z]+-\d+|kpt_\d+)$/;

/**
 * True when `name` can name a key point: `slug-NNN` in lowercase letters and digits (`pat-001`, or
 * another ACE writer's `str-00001`) or a legacy `kpt_NNN`. Names are written into prompts and
 * one-line formats, so nothing else (spaces, brackets, line breaks) may enter a playbook.
 *
 * @example
 * ```ts
 * isKeyPointName('pat-001'); // true
 * isKeyPointName('pat-001] ok\n# SYSTEM'); // false
 * ```
 */
export function isKeyPointName(name: unknown): name is string {
  return typeof name === 'string' && KEY_POINT_NAME.test(name);
}

/**
 * valibot schema of a key point name (see {@link isKeyPointName}); the issue names the bad value.
 *
 * @example
 * ```ts
 * v.is(KeyPointNameSchema, 'mis-012'); // true
 * ```
 */
export const KeyPointNameSchema = v.pipe(
  v.string(),
  v.check(
    (name: string) => KEY_POINT_NAME.test(name),
    (issue) =>
      `invalid key point name ${JSON.stringify(issue.input)}: expected an id such as pat-001 (or a legacy kpt_001)`,
  ),
);

/**
 * One key point. `name` is its id: `pat-001` (section slug + number) or a legacy `kpt_001` kept
 * as-is because transcripts may cite it.
 */
export interface KeyPoint {
  name: string;
  text: string;
  helpful: number;
  harmful: number;
  createdAt?: string;
  updatedAt?: string;
  source?: { session?: string; traceRefs?: string[] };
}

/** A playbook: what users see and what `PlaybookStore.load` returns. */
export interface Playbook {
  sections: Record<SectionName, KeyPoint[]>;
}

const Counter = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * valibot schema of a {@link KeyPoint}.
 *
 * @example
 * ```ts
 * v.parse(KeyPointSchema, { name: 'pat-001', text: 'Use types', helpful: 0, harmful: 0 });
 * ```
 */
export const KeyPointSchema = v.object({
  name: KeyPointNameSchema,
  text: v.string(),
  helpful: Counter,
  harmful: Counter,
  createdAt: v.optional(v.string()),
  updatedAt: v.optional(v.string()),
  source: v.optional(
    v.object({
      session: v.optional(v.string()),
      traceRefs: v.optional(v.array(v.string())),
    }),
  ),
});

/**
 * valibot schema of a {@link Playbook}: every section present, names unique across sections.
 *
 * @example
 * ```ts
 * const result = v.safeParse(PlaybookSchema, JSON.parse(text));
 * ```
 */
export const PlaybookSchema = v.pipe(
  v.object({
    sections: v.object(
      Object.fromEntries(SECTION_NAMES.map((n) => [n, v.array(KeyPointSchema)])) as Record<
        SectionName,
        v.ArraySchema<typeof KeyPointSchema, undefined>
      >,
    ),
  }),
  v.check((p) => uniqueNames(p as Playbook), 'key point names must be unique across sections'),
);

function uniqueNames(p: Playbook): boolean {
  // A Set, not an object: a name must never be confused with an inherited member.
  const seen = new Set<string>();
  for (const s of SECTION_NAMES) {
    for (const kp of p.sections[s]) {
      if (seen.has(kp.name)) return false;
      seen.add(kp.name);
    }
  }
  return true;
}

/**
 * A playbook with five empty sections.
 *
 * @example
 * ```ts
 * const pb = emptyPlaybook();
 * pb.sections['PATTERNS & APPROACHES'].push({ name: 'pat-001', text: 'Use types', helpful: 0, harmful: 0 });
 * ```
 */
export function emptyPlaybook(): Playbook {
  return {
    sections: {
      'PATTERNS & APPROACHES': [],
      'MISTAKES TO AVOID': [],
      'USER PREFERENCES': [],
      'PROJECT CONTEXT': [],
      OTHERS: [],
    },
  };
}

/**
 * The section slug and number of a key point id, or undefined for legacy (`kpt_NNN`) and other names.
 *
 * @example
 * ```ts
 * parseKeyPointId('mis-012'); // { slug: 'mis', number: 12 }
 * ```
 */
export function parseKeyPointId(name: string): { slug: SectionSlug; number: number } | undefined {
  const m = KEY_POINT_ID.exec(name);
  return m ? { slug: m[1] as SectionSlug, number: Number(m[2]) } : undefined;
}

/**
 * True for a legacy seed-001 id such as `kpt_001`.
 *
 * @example
 * ```ts
 * isLegacyId('kpt_007'); // true
 * ```
 */
export function isLegacyId(name: string): boolean {
  return LEGACY_ID.test(name);
}

/**
 * The id of key point `n` of a section: `pat-001`, `mis-042`, `oth-1000`.
 *
 * @example
 * ```ts
 * formatKeyPointId('PATTERNS & APPROACHES', 3); // 'pat-003'
 * ```
 */
export function formatKeyPointId(section: SectionName, n: number): string {
  return `${SECTION_SLUGS[section]}-${String(n).padStart(3, '0')}`;
}

/**
 * The high-water marks implied by the ids present in `playbook` (legacy ids do not count).
 *
 * @example
 * ```ts
 * highWaterOf(pb); // { pat: 3, mis: 0, pref: 0, ctx: 0, oth: 1 }
 * ```
 */
export function highWaterOf(playbook: Playbook, base?: Partial<HighWater>): HighWater {
  const hw: HighWater = { pat: 0, mis: 0, pref: 0, ctx: 0, oth: 0, ...base };
  for (const s of SECTION_NAMES) {
    for (const kp of playbook.sections[s]) {
      const id = parseKeyPointId(kp.name);
      if (id && id.number > hw[id.slug]) hw[id.slug] = id.number;
    }
  }
  return hw;
}

/** The three tags the reflector gives (seed 001, REQ-REFL-004). */
export type TagValue = 'helpful' | 'harmful' | 'neutral';

/** One reflector verdict on one key point. `tag` is kept a string: unknown values are skipped. */
export interface BulletTag {
  name: string;
  tag: string;
  rationale?: string;
}

/**
 * valibot schema of a {@link BulletTag}.
 *
 * @example
 * ```ts
 * v.parse(BulletTagSchema, { name: 'pat-001', tag: 'helpful', rationale: 'applied' });
 * ```
 */
export const BulletTagSchema = v.object({
  name: v.string(),
  tag: v.string(),
  rationale: v.optional(v.string()),
});

/** Options of {@link applyBulletTags}. */
export interface ApplyTagsOptions {
  /** Receives one message per skipped tag. Default: `console.warn` (looked up when called). */
  onWarning?: (message: string) => void;
}

/** What {@link tallyBulletTags} found: increments per name and the tags it skipped. */
export interface TagTally {
  /** Increments per key point name, in first-seen order. */
  increments: Map<string, { helpful: number; harmful: number }>;
  /** Tags that changed nothing and why (`neutral` tags are not listed). */
  skipped: { tag: BulletTag; reason: string }[];
}

/**
 * Counts what `tags` would do to the key points named in `known`, without touching anything:
 * `helpful`/`harmful` +1 each (repeated tags all count, INV-REFL-004), `neutral` nothing, unknown
 * names and unknown tag values skipped (REQ-REFL-007).
 *
 * @example
 * ```ts
 * tallyBulletTags(new Set(['pat-001']), [{ name: 'pat-001', tag: 'helpful' }]).increments.get('pat-001');
 * // { helpful: 1, harmful: 0 }
 * ```
 */
export function tallyBulletTags(known: ReadonlySet<string>, tags: readonly BulletTag[]): TagTally {
  const increments = new Map<string, { helpful: number; harmful: number }>();
  const skipped: TagTally['skipped'] = [];
  // Model output is untrusted: anything but an array is one skipped entry, never an exception.
  if (!Array.isArray(tags)) {
    skipped.push({ tag: tags as unknown as BulletTag, reason: 'bullet tags are not an array' });
    return { increments, skipped };
  }
  for (const tag of tags) {
    const name = (tag as { name?: unknown })?.name;
    const value = (tag as { tag?: unknown })?.tag;
    if (typeof name !== 'string' || !known.has(name)) {
      const what =
        typeof name === 'string' && !isKeyPointName(name) ? 'invalid key point name' : 'unknown key point';
      skipped.push({ tag, reason: `${what} ${JSON.stringify(name)}` });
      continue;
    }
    if (value === 'neutral') continue;
    if (value !== 'helpful' && value !== 'harmful') {
      skipped.push({ tag, reason: `unknown tag ${JSON.stringify(value)} for ${name}` });
      continue;
    }
    let inc = increments.get(name);
    if (!inc) {
      inc = { helpful: 0, harmful: 0 };
      increments.set(name, inc);
    }
    inc[value] += 1;
  }
  return { increments, skipped };
}

/**
 * Applies reflector tags to a playbook in place and returns the same object (seed 001, REQ-REFL-007):
 * `helpful`/`harmful` add 1 to that counter, `neutral` changes nothing, an unknown name or tag value
 * is skipped with a warning, and repeated tags all apply. Counters only ever grow (INV-REFL-003).
 *
 * @example
 * ```ts
 * applyBulletTags(pb, [{ name: 'pat-001', tag: 'helpful', rationale: 'Applied correctly' }]);
 * ```
 */
export function applyBulletTags(
  playbook: Playbook,
  tags: readonly BulletTag[],
  options: ApplyTagsOptions = {},
): Playbook {
  const byName = new Map<string, KeyPoint>();
  for (const s of SECTION_NAMES) for (const kp of playbook.sections[s] ?? []) byName.set(kp.name, kp);
  const { increments, skipped } = tallyBulletTags(new Set(byName.keys()), tags);
  for (const [name, inc] of increments) {
    const kp = byName.get(name)!;
    kp.helpful += inc.helpful;
    kp.harmful += inc.harmful;
  }
  if (skipped.length) {
    const warn = options.onWarning ?? ((m: string) => console.warn(m));
    for (const s of skipped) warn(`applyBulletTags: skipped ${s.reason}`);
  }
  return playbook;
}

/** Where a key point's current text came from: the session and the traces that produced it. */
export interface Provenance {
  session?: string;
  traceRefs?: string[];
}

/** Adds a key point to a section; its id is allocated unless `name` is given. */
export interface AddOperation {
  type: 'ADD';
  section: SectionName;
  text: string;
  name?: string;
  /** Provenance recorded on the new key point (`KeyPoint.source`). */
  source?: Provenance;
}
/** Replaces the text of a key point; its counters stay. */
export interface UpdateOperation {
  type: 'UPDATE';
  name: string;
  text: string;
  /** Provenance of the new text; replaces the key point's `source` when given. */
  source?: Provenance;
}
/** Merges two or more key points into one (`into`, default the first), summing their counters. */
export interface MergeOperation {
  type: 'MERGE';
  names: string[];
  text: string;
  into?: string;
  /** Provenance of the merged text; replaces the survivor's `source` when given. */
  source?: Provenance;
}
/** Removes a key point. Its id is never reused. */
export interface RemoveOperation {
  type: 'REMOVE';
  name: string;
}
/** One curator operation on a playbook. */
export type DeltaOperation = AddOperation | UpdateOperation | MergeOperation | RemoveOperation;

/**
 * valibot schema of a {@link Provenance}.
 *
 * @example
 * ```ts
 * v.parse(ProvenanceSchema, { session: 'sess-1', traceRefs: ['trace-9'] });
 * ```
 */
export const ProvenanceSchema = v.object({
  session: v.optional(v.string()),
  traceRefs: v.optional(v.array(v.string())),
});

/**
 * valibot schema of a {@link DeltaOperation}.
 *
 * @example
 * ```ts
 * v.parse(DeltaOperationSchema, { type: 'ADD', section: 'OTHERS', text: 'Note' });
 * ```
 */
export const DeltaOperationSchema = v.variant('type', [
  v.object({
    type: v.literal('ADD'),
    section: v.picklist(SECTION_NAMES),
    text: v.pipe(v.string(), v.minLength(1)),
    name: v.optional(v.string()),
    source: v.optional(ProvenanceSchema),
  }),
  v.object({
    type: v.literal('UPDATE'),
    name: KeyPointNameSchema,
    text: v.pipe(v.string(), v.minLength(1)),
    source: v.optional(ProvenanceSchema),
  }),
  v.object({
    type: v.literal('MERGE'),
    names: v.pipe(v.array(KeyPointNameSchema), v.minLength(2)),
    text: v.pipe(v.string(), v.minLength(1)),
    into: v.optional(KeyPointNameSchema),
    source: v.optional(ProvenanceSchema),
  }),
  v.object({ type: v.literal('REMOVE'), name: KeyPointNameSchema }),
]);

/** Options of {@link applyDelta}. */
export interface ApplyDeltaOptions {
  /** High-water marks from the stored document; ids at or below them are never allocated again. */
  highWater?: Partial<HighWater>;
  /** Timestamp for `createdAt`/`updatedAt`. Default: the current time, read when called. */
  now?: () => string;
}

/** One operation as applied: ADDs carry the name that was allocated, MERGEs their `into`. */
export type AppliedOperation =
  | (AddOperation & { name: string })
  | UpdateOperation
  | (MergeOperation & { into: string })
  | RemoveOperation;

/** What {@link applyDelta} did. */
export interface DeltaResult {
  /** A new playbook; the input is not modified. */
  playbook: Playbook;
  /** The operations applied, in order, with allocated names filled in. */
  applied: AppliedOperation[];
  /** The operations refused, with the reason. Nothing of a refused operation is applied. */
  rejected: { op: unknown; reason: string }[];
  /** High-water marks after the delta. */
  highWater: HighWater;
}

/**
 * Applies curator operations in order and returns a new playbook. Deterministic given `options.now`.
 * An operation whose target is missing is rejected, never redirected; ids are allocated per section
 * above the high-water mark, so a removed id is never reused. MERGE sums the counters into `into`.
 *
 * @example
 * ```ts
 * const { playbook, applied, rejected } = applyDelta(pb, [
 *   { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'Write the test first' },
 *   { type: 'MERGE', names: ['pat-001', 'pat-002'], text: 'Use types and tests' },
 * ]);
 * ```
 */
export function applyDelta(
  playbook: Playbook,
  operations: readonly unknown[],
  options: ApplyDeltaOptions = {},
): DeltaResult {
  const out = cloneJson(playbook) as Playbook;
  for (const s of SECTION_NAMES) out.sections[s] ??= [];
  const highWater = highWaterOf(out, options.highWater);
  const now = options.now ?? (() => new Date().toISOString());
  const applied: AppliedOperation[] = [];
  const rejected: DeltaResult['rejected'] = [];

  const find = (name: string): { section: SectionName; index: number } | undefined => {
    for (const section of SECTION_NAMES) {
      const index = out.sections[section].findIndex((kp) => kp.name === name);
      if (index >= 0) return { section, index };
    }
    return undefined;
  };

  for (const raw of operations) {
    const parsed = v.safeParse(DeltaOperationSchema, raw);
    if (!parsed.success) {
      rejected.push({ op: raw, reason: `invalid operation: ${describeIssues(parsed.issues)}` });
      continue;
    }
    const op = parsed.output as DeltaOperation;
    switch (op.type) {
      case 'ADD': {
        const slug = SECTION_SLUGS[op.section];
        let name: string;
        if (op.name !== undefined) {
          const id = parseKeyPointId(op.name);
          if (!id || id.slug !== slug) {
            rejected.push({ op: raw, reason: `name ${op.name} is not a ${slug}-NNN id` });
            continue;
          }
          if (find(op.name)) {
            rejected.push({ op: raw, reason: `key point ${op.name} already exists` });
            continue;
          }
          if (id.number <= highWater[slug]) {
            rejected.push({ op: raw, reason: `id ${op.name} was already allocated and is never reused` });
            continue;
          }
          name = op.name;
          highWater[slug] = id.number;
        } else {
          highWater[slug] += 1;
          name = formatKeyPointId(op.section, highWater[slug]);
        }
        const at = now();
        out.sections[op.section].push({
          name,
          text: op.text,
          helpful: 0,
          harmful: 0,
          createdAt: at,
          updatedAt: at,
          ...(op.source ? { source: cloneJson(op.source) } : {}),
        });
        applied.push({ ...op, name });
        break;
      }
      case 'UPDATE': {
        const at = find(op.name);
        if (!at) {
          rejected.push({ op: raw, reason: `key point ${op.name} not found` });
          continue;
        }
        const kp = out.sections[at.section][at.index]!;
        kp.text = op.text;
        kp.updatedAt = now();
        if (op.source) kp.source = cloneJson(op.source);
        applied.push(op);
        break;
      }
      case 'MERGE': {
        const into = op.into ?? op.names[0]!;
        if (new Set(op.names).size !== op.names.length) {
          rejected.push({ op: raw, reason: 'MERGE names must be distinct' });
          continue;
        }
        if (!op.names.includes(into)) {
          rejected.push({ op: raw, reason: `MERGE into ${into} is not one of its names` });
          continue;
        }
        const missing = op.names.filter((n) => !find(n));
        if (missing.length) {
          rejected.push({ op: raw, reason: `key points not found: ${missing.join(', ')}` });
          continue;
        }
        const target = find(into)!;
        const kp = out.sections[target.section][target.index]!;
        for (const n of op.names) {
          if (n === into) continue;
          const at = find(n)!;
          const other = out.sections[at.section][at.index]!;
          kp.helpful += other.helpful;
          kp.harmful += other.harmful;
          out.sections[at.section].splice(at.index, 1);
        }
        kp.text = op.text;
        kp.updatedAt = now();
        if (op.source) kp.source = cloneJson(op.source);
        applied.push({ ...op, into });
        break;
      }
      case 'REMOVE': {
        const at = find(op.name);
        if (!at) {
          rejected.push({ op: raw, reason: `key point ${op.name} not found` });
          continue;
        }
        out.sections[at.section].splice(at.index, 1);
        applied.push(op);
        break;
      }
    }
  }
  return { playbook: out, applied, rejected, highWater };
}

/**
 * Formats valibot issues as `path: message; …`.
 *
 * @example
 * ```ts
 * describeIssues(v.safeParse(PlaybookSchema, input).issues ?? []); // 'sections.OTHERS.0.text: Invalid type…'
 * ```
 */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ');
}

/**
 * The playbook data model: five sections of key points, each with helpful/harmful counters that only
 * ever grow, key point ids and their grammar, plain JSON-able objects. Their valibot schemas are in
 * `schema.ts` (so code that only builds playbooks loads no validator); the two pure operations every
 * layer builds on live beside it: tags in `tags.ts`, delta operations in `delta.ts`.
 *
 * @module
 */
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
/** rearview's ids, other ACE writers' (`str-00001`, `calc-00003`) and the reference design's legacy `kpt_NNN`. */
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

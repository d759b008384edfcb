/**
 * valibot schemas of the playbook data model (`model.ts`): a key point name, a key point, a whole
 * playbook, and how their issues read. Apart from the model so that code which only builds or reads
 * playbooks in memory (the lesson pipeline on a page's first load) does not load the validator.
 *
 * @module
 */
import * as v from 'valibot';
import { isKeyPointName, type KeyPoint, type Playbook, SECTION_NAMES, type SectionName } from './model.js';

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
    (name: string) => isKeyPointName(name),
    (issue) =>
      `invalid key point name ${JSON.stringify(issue.input)}: expected an id such as pat-001 (or a legacy kpt_001)`,
  ),
);

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

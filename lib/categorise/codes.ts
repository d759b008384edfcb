/**
 * The category codes `classify.ts`'s decisions return, shared by the rules that decide ahead of the
 * word-by-word reading (`lead.ts`, `stance.ts`): the category's index in snapshot order, and 5 for
 * "resolved or not worth keeping".
 */

/** @internal openHypotheses. */
export const HYPOTHESIS = 0;
/** @internal blockers. */
export const BLOCKER = 1;
/** @internal nextActions. */
export const NEXT = 2;
/** @internal unresolvedQuestions. */
export const QUESTION = 3;
/** @internal requiredEvidenceLinks. */
export const EVIDENCE = 4;
/** @internal Resolved or not worth keeping: no category. */
export const NONE = 5;
/** `classifyFlags`: no category, not resolved. */
export const NO_CATEGORY = -1;
/**
 * `classifyFlags`: resolved or done (so no category); the same code as {@link NONE}.
 *
 * @example
 * ```ts
 * if (classifyFlags(flags, n, raw) === RESOLVED_CODE) dropAsResolved();
 * ```
 */
export const RESOLVED_CODE = NONE;

/** The five list fields of a snapshot. */
export type SnapshotCategory =
  | 'openHypotheses'
  | 'blockers'
  | 'nextActions'
  | 'unresolvedQuestions'
  | 'requiredEvidenceLinks';

/**
 * @internal The snapshot category of a decision code (`HYPOTHESIS` … `EVIDENCE`); none for the others.
 *
 * @example
 * ```ts
 * CATEGORY_OF_CODE[NEXT]; // 'nextActions'
 * ```
 */
export const CATEGORY_OF_CODE: Readonly<Record<number, SnapshotCategory | undefined>> = {
  [HYPOTHESIS]: 'openHypotheses',
  [BLOCKER]: 'blockers',
  [NEXT]: 'nextActions',
  [QUESTION]: 'unresolvedQuestions',
  [EVIDENCE]: 'requiredEvidenceLinks',
};

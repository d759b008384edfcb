/**
 * Constants of the reduction and the reflected snapshot that the parameter specs (params.ts) need,
 * and the snapshot's serialization for token counts. Kept apart so that importing them (as a
 * settings UI or a token counter does) does not pull the reflection and reduction code in.
 */
import type { ActiveContextSnapshot, SnapshotCategory } from './types.js';

/**
 * Default of `minSnapshotTokens`: 400 tokens (the reference design's `MIN_SNAPSHOT_TOKENS`). A smaller
 * deterministic snapshot is kept as is, with reason `below_threshold`.
 *
 * @example
 * ```ts
 * await computeTrajectoryReduction(input, { llm, minSnapshotTokens: MIN_SNAPSHOT_TOKENS * 2 });
 * ```
 */
export const MIN_SNAPSHOT_TOKENS = 400;
/**
 * Default of `minSavingsTokens`: 100 tokens (the reference design's `MIN_SAVINGS_TOKENS`). A reflection saving
 * less is rejected with reason `insufficient_savings`.
 *
 * @example
 * ```ts
 * await computeTrajectoryReduction(input, { llm, minSavingsTokens: MIN_SAVINGS_TOKENS / 2 });
 * ```
 */
export const MIN_SAVINGS_TOKENS = 100;

/**
 * The field name of each snapshot category in the reflected snapshot's reply format, snake_case
 * (`openHypotheses` → `open_hypotheses`), for code that writes or reads such replies.
 *
 * @example
 * ```ts
 * REPLY_FIELDS.nextActions; // 'next_actions'
 * const reply = Object.fromEntries(CATEGORIES.map((c) => [REPLY_FIELDS[c], snapshot[c]]));
 * ```
 */
export const REPLY_FIELDS: Readonly<Record<SnapshotCategory, string>> = {
  openHypotheses: 'open_hypotheses',
  blockers: 'blockers',
  nextActions: 'next_actions',
  unresolvedQuestions: 'unresolved_questions',
  requiredEvidenceLinks: 'required_evidence_links',
};

/**
 * How a snapshot is serialized for token counts: compact JSON, fields in their fixed order.
 *
 * @example
 * ```ts
 * estimateTokens(snapshotJson(deterministicSnapshot(input))); // what the gates compare by default
 * ```
 */
export function snapshotJson(s: ActiveContextSnapshot): string {
  return JSON.stringify({
    currentObjective: s.currentObjective,
    openHypotheses: s.openHypotheses,
    blockers: s.blockers,
    nextActions: s.nextActions,
    unresolvedQuestions: s.unresolvedQuestions,
    requiredEvidenceLinks: s.requiredEvidenceLinks,
  });
}

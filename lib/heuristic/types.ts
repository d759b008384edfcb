/**
 * Shapes of `rearview/heuristic`: reflection insights and
 * the message shape the detector reads.
 */

/**
 * What kind of lesson an insight records. `approval` is "this worked" (the user approved what the
 * assistant just did), not a rule for the future: that is a `preference`.
 */
export type InsightCategory =
  | 'correction'
  | 'anti_pattern'
  | 'gotcha'
  | 'preference'
  | 'friction'
  | 'approval';

/** How sure the producer is: a coarse band (for heuristic insights, derived from `score`). */
export type InsightConfidence = 'high' | 'medium' | 'low';

/**
 * A lesson learned from a conversation or a trajectory.
 *
 * @example
 * ```ts
 * const insight: ReflectionInsight = {
 *   fact: 'User correction: No, not GraphQL. I said REST endpoint.',
 *   recommendation: 'Apply the user\'s correction.',
 *   category: 'correction',
 *   confidence: 'high',
 *   score: 0.9,
 *   tags: ['user_feedback', 'correction'],
 *   traceRefs: ['message:m3', 'message:m1', 'message:m2'],
 * };
 * ```
 */
export interface ReflectionInsight {
  /** What was learned. */
  fact: string;
  /** Actionable recommendation. */
  recommendation: string;
  category: InsightCategory;
  confidence: InsightConfidence;
  /**
   * How likely the insight is right, in [0, 1]: every heuristic insight has one (`confidence` is its
   * band: `high` ≥ 0.8, `medium` ≥ 0.6, else `low`). Model insights may leave it out.
   */
  score?: number;
  /** Tags for retrieval. */
  tags: string[];
  /**
   * Raw references back to the source: `message:{id}` for conversation turns,
   * `trajectory:{id}:event:{index}` for trajectory steps. Kept verbatim so a caller can replay the trace.
   */
  traceRefs: string[];
}

/**
 * Any chat message: rearview's `Message` from `rearview/transcript`, or a bare `{ role, content }`.
 * `content` may be a string or Anthropic-style blocks (`[{ type: 'text', text }]`); other shapes are skipped.
 *
 * @example
 * ```ts
 * const m: MessageLike = { role: 'user', content: 'No, use REST.' };
 * ```
 */
export interface MessageLike {
  role: string;
  content: unknown;
  /** Stable id, e.g. `Message.id`; when absent the message's index in the array (`m{index}`) is used. */
  id?: string;
  /**
   * Truthy when no person wrote the turn (`Message.synthetic` from `rearview/transcript`: a
   * continuation summary, a command expansion, hook output, an agent's task…): heuristic reflection
   * skips it, as if absent.
   */
  synthetic?: unknown;
}

/**
 * Convergence detection: low severity, minimal change, score plateau, and the
 * max-iterations safety stop. Pure functions; the loop calls them, and so can anyone replaying a
 * history.
 */
import type { Candidate, Critique, IterationRecord, StopReason } from './types.js';

/** Thresholds of {@link checkConvergence}. Every field is optional. */
export interface ConvergenceOptions {
  /** Stop when a candidate improves on the previous one by less than this (score plateau). Default 0.1. */
  convergenceThreshold?: number;
  /** Stop when a critique's severity is at most this (low severity). Default 0.1. */
  severityThreshold?: number;
  /**
   * Stop when a revision changes less than this fraction of the normalized content (minimal change).
   * Default 0.02. Whitespace-only edits always count as 0.
   */
  minChange?: number;
  /** When given, reaching this iteration stops the loop (not converged). */
  maxIterations?: number;
}

/**
 * Default {@link ConvergenceOptions.convergenceThreshold}: an improvement below 0.1 over the previous
 * candidate is a score plateau.
 *
 * @example
 * ```ts
 * improvementScore({ score: 0.6 }, { score: 0.65 }) < DEFAULT_CONVERGENCE_THRESHOLD; // true: plateau
 * ```
 */
export const DEFAULT_CONVERGENCE_THRESHOLD = 0.1;
/**
 * Default {@link ConvergenceOptions.severityThreshold}: a critique of severity 0.1 or less converges.
 *
 * @example
 * ```ts
 * const strict = { severityThreshold: DEFAULT_SEVERITY_THRESHOLD / 2 };
 * checkConvergence(undefined, { candidate, critique }, strict);
 * ```
 */
export const DEFAULT_SEVERITY_THRESHOLD = 0.1;
/**
 * Default {@link ConvergenceOptions.minChange}: a revision changing less than 2% of the normalized
 * content converges.
 *
 * @example
 * ```ts
 * contentChange(candidate.content, revision.content) < DEFAULT_MIN_CHANGE; // true: minimal change
 * ```
 */
export const DEFAULT_MIN_CHANGE = 0.02;

/** The outcome of {@link checkConvergence}. `reason` is set whenever the loop should stop. */
export interface ConvergenceCheck {
  converged: boolean;
  reason?: Extract<StopReason, 'low_severity' | 'minimal_change' | 'score_plateau' | 'max_iterations'>;
  /** {@link improvementScore} over the previous iteration, when there is one. */
  improvement?: number;
  /** {@link contentChange} from the candidate to its revision, when there is one. */
  change?: number;
}

/** Anything with a score or a severity: a candidate, a critique, or both merged. */
export interface Scored {
  score?: number | undefined;
  severity?: number | undefined;
}

/**
 * Content as compared for "minimal change": Unicode NFC, every run of whitespace collapsed to one
 * space, trimmed. Reformatting therefore never counts as progress.
 *
 * @example
 * ```ts
 * normalizeContent('  a\n\n  b\t'); // 'a b'
 * ```
 */
export function normalizeContent(content: string): string {
  return content.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/**
 * How much of the normalized content changed, in [0, 1]: 0 for identical (after
 * {@link normalizeContent}), 1 when nothing is shared. Measured as the length of the differing middle
 * (after the common prefix and suffix) over the longer text: linear time, exact for one contiguous
 * edit, an upper bound for scattered ones.
 *
 * @example
 * ```ts
 * contentChange('The answer is 4.', 'The answer is  4. '); // 0 (whitespace only)
 * contentChange('abcd', 'abXd');                           // 0.25
 * ```
 */
export function contentChange(before: string, after: string): number {
  const a = normalizeContent(before);
  const b = normalizeContent(after);
  if (a === b) return 0;
  const longest = Math.max(a.length, b.length);
  const shortest = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shortest && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)
  ) {
    suffix++;
  }
  return (longest - prefix - suffix) / longest;
}

/**
 * The improvement of `current` over `previous`: the score difference when both have a score, else
 * the severity decrease when both have a severity, else 0. Positive means better; negative, worse.
 *
 * @example
 * ```ts
 * improvementScore({ score: 0.5 }, { score: 0.8 });       // ≈ 0.3
 * improvementScore({ severity: 0.7 }, { severity: 0.2 }); // ≈ 0.5
 * ```
 */
export function improvementScore(previous: Scored, current: Scored): number {
  if (isNum(previous.score) && isNum(current.score)) return current.score - previous.score;
  if (isNum(previous.severity) && isNum(current.severity)) return previous.severity - current.severity;
  return 0;
}

/** The state of one iteration as {@link checkConvergence} reads it. */
export interface ConvergenceInput {
  iteration?: number;
  candidate: Candidate;
  critique: Critique;
  revision?: Candidate | undefined;
}

/**
 * Decides whether the loop should stop after `current`, in this order:
 * 1. `low_severity` — the critique's severity is at most `severityThreshold` (converged);
 * 2. `score_plateau` — with a previous iteration, the improvement is below `convergenceThreshold`
 *    (converged; a regression counts as a plateau);
 * 3. `minimal_change` — with a revision, its normalized content changed less than `minChange`
 *    (converged: revising again would not make progress);
 * 4. `max_iterations` — `current.iteration` reached `maxIterations` (not converged).
 *
 * Scores compared are the candidates' (the loop sets them from critiques), falling back to the
 * critiques' scores, then to severities.
 *
 * @example
 * ```ts
 * checkConvergence(undefined, { candidate, critique: { issues: [], severity: 0 } });
 * // { converged: true, reason: 'low_severity' }
 * ```
 */
export function checkConvergence(
  previous: ConvergenceInput | undefined,
  current: ConvergenceInput,
  options: ConvergenceOptions = {},
): ConvergenceCheck {
  const severityThreshold = options.severityThreshold ?? DEFAULT_SEVERITY_THRESHOLD;
  const convergenceThreshold = options.convergenceThreshold ?? DEFAULT_CONVERGENCE_THRESHOLD;
  const minChange = options.minChange ?? DEFAULT_MIN_CHANGE;
  const out: ConvergenceCheck = { converged: false };
  if (previous) out.improvement = improvementScore(scoredOf(previous), scoredOf(current));
  if (current.revision) out.change = contentChange(current.candidate.content, current.revision.content);

  if (current.critique.severity <= severityThreshold)
    return { ...out, converged: true, reason: 'low_severity' };
  if (out.improvement !== undefined && out.improvement < convergenceThreshold) {
    return { ...out, converged: true, reason: 'score_plateau' };
  }
  if (out.change !== undefined && out.change < minChange) {
    return { ...out, converged: true, reason: 'minimal_change' };
  }
  if (options.maxIterations !== undefined && (current.iteration ?? 0) >= options.maxIterations) {
    return { ...out, reason: 'max_iterations' };
  }
  return out;
}

/**
 * True when the last iteration of `history` met a convergence criterion (low severity, score plateau
 * or minimal change) against the one before it. Reaching `maxIterations` is a stop, not convergence.
 *
 * @example
 * ```ts
 * if (hasConverged(result.history)) console.log('settled');
 * ```
 */
export function hasConverged(history: readonly IterationRecord[], options: ConvergenceOptions = {}): boolean {
  const last = history.at(-1);
  if (!last) return false;
  return checkConvergence(history.at(-2), last, options).converged;
}

function scoredOf(state: ConvergenceInput): Scored {
  return {
    score: state.candidate.score ?? state.critique.score,
    severity: state.critique.severity,
  };
}

function isNum(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

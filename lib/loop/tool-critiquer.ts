/**
 * A critiquer backed by any function that finds issues: a validator, a test run, a schema check, a
 * linter. Its output is validated (never trusted) and turned into a {@link Critique}.
 */
import * as v from 'valibot';
import { describeError, isRearviewError, RearviewError } from '../core/index.js';
import type { Candidate, Critique, StepContext } from './types.js';

/** One problem a tool found: a message, or a message with a severity in [0, 1] and a location. */
export type ToolIssue = string | { message: string; severity?: number; path?: string };

/**
 * What a tool check may return: `true` (passed) / `false` (failed), a list of issues, or an object
 * with issues and optionally a score in [0, 1] and feedback.
 */
export type ToolOutcome =
  | boolean
  | readonly ToolIssue[]
  | { issues: readonly ToolIssue[]; score?: number; feedback?: string };

/**
 * The check {@link toolCritiquer} wraps: receives the candidate's content (and the candidate and step
 * context) and returns a {@link ToolOutcome}, synchronously or as a promise.
 */
export type ToolCheck = (
  content: string,
  candidate: Candidate,
  ctx: StepContext | undefined,
) => ToolOutcome | Promise<ToolOutcome>;

/** Options of {@link toolCritiquer}. Every field is optional. */
export interface ToolCritiquerOptions {
  /** Severity of an issue that does not give its own. Default 0.5. */
  issueSeverity?: number;
  /**
   * When the check throws (a failing assertion, a parse error), report the error as one issue of
   * severity 1 instead of failing the step. Default true. Aborts always propagate.
   */
  errorsAsIssues?: boolean;
  /** Prefix of every issue, e.g. `tsc` or `tests`. */
  name?: string;
}

const issueSchema = v.union([
  v.string(),
  v.object({
    message: v.string(),
    severity: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    path: v.optional(v.string()),
  }),
]);

/**
 * valibot schema of a tool's outcome ({@link ToolOutcome}); {@link toolCritiquer} rejects anything else
 * with a `RearviewError` of code `component_invalid`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 *
 * v.is(ToolOutcomeSchema, [{ message: 'missing semicolon', severity: 0.2 }]); // true
 * v.is(ToolOutcomeSchema, { issues: [], score: 2 }); // false: score must be in [0, 1]
 * ```
 */
export const ToolOutcomeSchema = v.union([
  v.boolean(),
  v.array(issueSchema),
  v.object({
    issues: v.array(issueSchema),
    score: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    feedback: v.optional(v.string()),
  }),
]);

/**
 * Combined severity of issues with severities s₁…sₙ: 1 − ∏(1 − sᵢ), the chance at least one
 * matters. 0 for none; each further issue raises it, so fixing one always shows as progress.
 *
 * @example
 * ```ts
 * combinedSeverity([0.5, 0.5]); // 0.75
 * ```
 */
export function combinedSeverity(severities: readonly number[]): number {
  let keep = 1;
  for (const s of severities) keep *= 1 - Math.min(1, Math.max(0, s));
  return 1 - keep;
}

/**
 * Wraps a check into a critiquer. Severity is {@link combinedSeverity} of the issues' severities
 * (default `issueSeverity` each); score is the tool's, else `1 − severity`; feedback lists the issues.
 *
 * @example
 * ```ts
 * const jsonCritiquer = toolCritiquer((content) => {
 *   try { JSON.parse(content); return []; } catch (e) { return [`not valid JSON: ${e.message}`]; }
 * }, { name: 'json' });
 * ```
 */
export function toolCritiquer(
  check: ToolCheck,
  options: ToolCritiquerOptions = {},
): { critique(prompt: string, candidate: Candidate, ctx?: StepContext): Promise<Critique> } {
  const issueSeverity = options.issueSeverity ?? 0.5;
  if (!(issueSeverity >= 0 && issueSeverity <= 1)) {
    throw new RearviewError('config_invalid', 'toolCritiquer: issueSeverity must be in [0, 1]');
  }
  const errorsAsIssues = options.errorsAsIssues ?? true;
  const prefix = options.name ? `[${options.name}] ` : '';
  return {
    async critique(_prompt, candidate, ctx) {
      let raw: unknown;
      try {
        raw = await check(candidate.content, candidate, ctx);
      } catch (err) {
        if (!errorsAsIssues || ctx?.signal?.aborted || isAbort(err)) throw err;
        raw = [{ message: `check failed: ${describeError(err)}`, severity: 1 }];
      }
      const parsed = v.safeParse(ToolOutcomeSchema, raw);
      if (!parsed.success) {
        throw new RearviewError(
          'component_invalid',
          `toolCritiquer: the check returned ${describeValue(raw)}; expected a boolean, an issue list or { issues }`,
        );
      }
      const outcome = parsed.output;
      const list =
        typeof outcome === 'boolean'
          ? outcome
            ? []
            : [{ message: 'check failed' }]
          : Array.isArray(outcome)
            ? outcome
            : (outcome as { issues: v.InferOutput<typeof issueSchema>[] }).issues;
      const issues = list.map((i) => (typeof i === 'string' ? { message: i } : i));
      const severity = combinedSeverity(issues.map((i) => i.severity ?? issueSeverity));
      const texts = issues.map((i) => `${prefix}${i.path ? `${i.path}: ` : ''}${i.message}`);
      const extra =
        typeof outcome === 'object' && !Array.isArray(outcome)
          ? (outcome as { score?: number; feedback?: string })
          : {};
      return {
        issues: texts,
        severity,
        score: extra.score ?? 1 - severity,
        ...(extra.feedback !== undefined
          ? { feedback: extra.feedback }
          : texts.length
            ? { feedback: `Fix these problems:\n${texts.map((t) => `- ${t}`).join('\n')}` }
            : {}),
        metadata: { tool: options.name ?? 'tool', issueCount: texts.length },
      };
    },
  };
}

function isAbort(err: unknown): boolean {
  if (isRearviewError(err)) return err.code === 'aborted' || err.code === 'llm_aborted';
  try {
    return (err as { name?: unknown })?.name === 'AbortError';
  } catch {
    return false;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array with invalid items';
  return typeof value === 'object' ? 'an object without a valid issues list' : `a ${typeof value}`;
}

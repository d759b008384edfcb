/**
 * `reflectFromTrajectories`: the reference design's `reflect_from_trajectories` on the trajectories
 * `rearview/transcript` reads (SWE-agent, mini-swe-agent, Claude Code), one lesson per failure class
 * rather than one insight per failed step.
 */

import type { ReflectionInsight } from '../heuristic/index.js';
import { type CallStep, type FailureClass, groupFailures, namesChange } from './failures.js';
import { judgeFailure } from './judge.js';
import { failureLesson } from './lesson.js';

/** The parts of a `Trajectory` (from `rearview/transcript`) that reflection reads. */
export interface TrajectoryLike {
  id: string;
  steps: readonly CallStep[];
  outcome?: { failed: boolean };
  /** The folder the run worked in (`CallRun.root`): its errors are classed with the folder read whole. */
  root?: string;
}

/**
 * Options of {@link reflectFromTrajectories}.
 *
 * @example
 * ```ts
 * reflectFromTrajectories([run], { includeUnknownOutcome: true });
 * reflectFromTrajectories(runs, { allOutcomes: true }); // what worked, from solved runs too
 * ```
 */
export interface TrajectoryReflectOptions {
  /**
   * Also read trajectories whose outcome is unknown (no `outcome`: a Claude Code session parsed
   * without `resolved`). Default false, as in the reference design: only failed runs teach anti-patterns.
   */
  includeUnknownOutcome?: boolean;
  /**
   * Read every trajectory, solved ones included: a solved run is where a failed call's fix is most
   * often found. Default false (the reference design's rule). Implies `includeUnknownOutcome`.
   */
  allOutcomes?: boolean;
}

/**
 * A failure class as an insight: the lesson as the recommendation, every occurrence referenced.
 *
 * @example
 * ```ts
 * groupFailures([stepsFromMessages(messages)]).map(failureInsight);
 * ```
 */
export function failureInsight(c: FailureClass): ReflectionInsight {
  const n = c.occurrences.length;
  const fixed = namesChange(c.fix);
  // A fix the judge refuses as a rule (a one-off value, a permission prompt, a check turned off, an unreadable error, a
  // failing test) stays evidence: the playbook policy proposes no key point for it.
  const oneOff = fixed && judgeFailure(c.errorClass, c.fix!) !== undefined;
  const edits = fixed ? (c.fix!.edits ?? 0) : 0;
  const refs = c.occurrences.map((o) => o.ref);
  if (c.fix && !refs.includes(c.fix.ref)) refs.push(c.fix.ref);
  return {
    // When and how often is evidence; the recommendation is the rule (failureRule) when a change worked.
    fact: `Tool \`${c.tool}\` failed ${n === 1 ? 'once' : `${n} times`}${c.runs > 1 ? ` in ${c.runs} runs` : ''} with "${c.errorClass}"${fixed ? ` (a changed call worked at step ${c.runs > 1 ? `${c.fix!.step} of ${c.fix!.run}` : c.fix!.step}${edits ? `, after ${edits === 1 ? 'a file edit' : `${edits} file edits`}` : ''})` : ''}`,
    recommendation: failureLesson(c),
    category: 'anti_pattern',
    // Files edited in between may be what made the call work: the change is then less sure.
    confidence: fixed && !oneOff && !edits ? 'high' : 'medium',
    tags: [
      'tool_failure',
      `tool:${c.tool}`,
      fixed
        ? 'fix_found'
        : c.fix?.kind === 'unseen'
          ? 'input_unseen'
          : c.fix?.kind === 'other-job'
            ? 'other_job'
            : c.fix
              ? 'retried'
              : 'no_fix',
      ...(n > 1 ? ['recurring'] : []),
      ...(oneOff ? ['one_off'] : []),
    ],
    traceRefs: refs,
  };
}

/**
 * One `anti_pattern` insight per failure class (tool and {@link errorClass} of the error text) over
 * the failed calls of every failed trajectory (a step with `error`: a non-zero return code in
 * mini-swe-agent, an `is_error` tool result in Claude Code). Its `recommendation` is the lesson: the
 * fix that worked later (arguments added, dropped or changed, another tool) with its step, or what
 * failed and how often when nothing later worked. `traceRefs` name every occurrence
 * (`trajectory:{id}:event:{index}`, or the step's own `ref`), then the call that worked. Tags:
 * `tool_failure`, `tool:{name}`, then `fix_found` (another argument or tool worked), `retried` (the
 * same command worked later with no change the comparison names), `input_unseen` (a later call worked, but the
 * transcript does not show the failed call's input: no key point), `other_job` (later calls on the
 * target worked, but each did another job: another subcommand, file or message, or `--help`) or
 * `no_fix`, `recurring` when it failed more
 * than once, and `one_off` when a fix was found but {@link judgeFailure} refuses it as a standing
 * rule (it changed a value for that task, answered a permission prompt or turned a check off, or the error is unreadable
 * or a failing test); a `one_off` lesson has `medium` confidence and proposes no key point, and so has
 * a fix after which files were edited before the call worked (`FailureFix.edits`: the edits may be
 * what made it work; the lesson still proposes its key point).
 * Successful trajectories yield nothing unless `allOutcomes`. Never throws.
 *
 * @example
 * ```ts
 * const run = parseTrajectory(text, { resolved: false });
 * reflectFromTrajectories([run]);
 * // [{ category: 'anti_pattern', recommendation: 'When `Read` fails with "…": pass `offset`/`limit`.', … }]
 * ```
 */
export function reflectFromTrajectories(
  trajectories: readonly TrajectoryLike[],
  options: TrajectoryReflectOptions = {},
): ReflectionInsight[] {
  if (!Array.isArray(trajectories)) return [];
  const all = options?.allOutcomes === true;
  const runs = trajectories.filter((t) => {
    if (t === null || typeof t !== 'object' || !Array.isArray(t.steps)) return false;
    const outcome = t.outcome;
    if (all) return true;
    return outcome !== null && typeof outcome === 'object'
      ? outcome.failed === true
      : options?.includeUnknownOutcome === true;
  });
  return groupFailures(runs).map(failureInsight);
}

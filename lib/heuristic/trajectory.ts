/**
 * `reflectFromTrajectories`: seed 004's `reflect_from_trajectories` on the trajectories
 * `rearview/transcript` reads (SWE-agent, mini-swe-agent, Claude Code).
 */
import { truncateUtf8 } from '../core/index.js';
import type { ReflectionInsight } from './types.js';

/** The parts of a `Trajectory` (from `rearview/transcript`) that reflection reads. */
export interface TrajectoryLike {
  id: string;
  steps: readonly { index?: number; tool?: string; error?: string }[];
  outcome?: { failed: boolean };
}

/**
 * Options of {@link reflectFromTrajectories}.
 *
 * @example
 * ```ts
 * reflectFromTrajectories([run], { includeUnknownOutcome: true });
 * ```
 */
export interface TrajectoryReflectOptions {
  /**
   * Also read trajectories whose outcome is unknown (no `outcome`: a Claude Code session parsed
   * without `resolved`). Default false, as in the seed: only failed runs teach anti-patterns.
   */
  includeUnknownOutcome?: boolean;
}

/**
 * One `anti_pattern` insight per failed tool call (a step with `error`: a non-zero return code in
 * mini-swe-agent, an `is_error` tool result in Claude Code) of every failed trajectory, pointing at the
 * raw step as `trajectory:{id}:event:{index}`. Successful trajectories yield nothing. Never throws.
 *
 * @example
 * ```ts
 * const run = parseTrajectory(text, { resolved: false });
 * reflectFromTrajectories([run]); // [{ category: 'anti_pattern', traceRefs: ['trajectory:…:event:3'], … }]
 * ```
 */
export function reflectFromTrajectories(
  trajectories: readonly TrajectoryLike[],
  options: TrajectoryReflectOptions = {},
): ReflectionInsight[] {
  const out: ReflectionInsight[] = [];
  if (!Array.isArray(trajectories)) return out;
  for (const t of trajectories) {
    if (t === null || typeof t !== 'object' || !Array.isArray(t.steps)) continue;
    const outcome = t.outcome;
    const failed =
      outcome !== null && typeof outcome === 'object'
        ? outcome.failed === true
        : options?.includeUnknownOutcome === true;
    if (!failed) continue;
    const id = String(t.id);
    const steps: TrajectoryLike['steps'] = t.steps;
    for (let position = 0; position < steps.length; position++) {
      const step = steps[position];
      if (step === null || typeof step !== 'object' || typeof step.error !== 'string') continue;
      const index = typeof step.index === 'number' ? step.index : position;
      const tool = typeof step.tool === 'string' && step.tool !== '' ? step.tool : '<unknown>';
      const ref = `trajectory:${id}:event:${index}`;
      const err = step.error;
      out.push({
        fact: err
          ? `Tool \`${tool}\` failed in trajectory ${id}: ${truncateUtf8(err, 200)}`
          : `Tool \`${tool}\` failed in trajectory ${id}`,
        recommendation: `Inspect raw trace (${ref}) before retrying \`${tool}\`.`,
        category: 'anti_pattern',
        confidence: 'high',
        tags: ['tool_failure', `tool:${tool}`],
        traceRefs: [ref],
      });
    }
  }
  return out;
}

/**
 * What a session has learned as a whole: its observed agent runs, the failure lessons of its tool calls
 * and runs, every insight and proposal, and the lesson pipeline on one input without a store
 * (`lessonsOf`). Reads the state `observeMessages` (observe.ts) gathers.
 */
import { reflectFromTrajectories, stepsFromMessages, type TrajectoryLike } from '../failures/index.js';
import type { ReflectionInsight } from '../heuristic/index.js';
import { dedupeProposals, proposeKeyPoint } from '../playbook/index.js';
import {
  newSessionState,
  newTracker,
  type ObserveConfig,
  observeMessages,
  type SessionState,
} from './observe.js';
import type { LessonsInput, LessonsResult, ProposedKeyPoint } from './types.js';

/** Adds an agent run (a parsed SWE-agent or mini-swe-agent trajectory) to the session's evidence. */
export function observeTrajectory(session: SessionState, trajectory: TrajectoryLike): void {
  if (trajectory !== null && typeof trajectory === 'object' && Array.isArray(trajectory.steps)) {
    session.trajectories.push(trajectory);
  }
}

/**
 * The failure lessons of the session so far: the tool calls of the conversation and of every observed
 * trajectory, grouped by tool and error class (`reflectFromTrajectories`, whatever the outcome: a
 * solved run is where fixes are found). `root`, the folder the conversation's agent worked in, is read
 * as one path in the conversation's error text.
 */
export function failureInsights(session: SessionState, root?: string): ReflectionInsight[] {
  const runs: TrajectoryLike[] = [];
  const calls = stepsFromMessages(session.history, undefined, root);
  if (calls.steps.length) runs.push(calls);
  runs.push(...session.trajectories);
  return runs.length ? reflectFromTrajectories(runs, { allOutcomes: true }) : [];
}

/**
 * Every insight of the session: the user turns', then the failure lessons. `failures` is
 * {@link failureInsights} of the session, when the caller has it already (it reads the whole history).
 */
export function sessionInsights(
  session: SessionState,
  failures: readonly ReflectionInsight[] = failureInsights(session),
): ReflectionInsight[] {
  return [...session.insights, ...failures];
}

/** Every proposal of the session before deduplication: the user turns', then the failure lessons'. */
export function rawProposals(
  session: SessionState,
  failures: readonly ReflectionInsight[] = failureInsights(session),
): ProposedKeyPoint[] {
  const out = session.proposed.slice();
  for (const insight of failures) {
    const p = proposeKeyPoint(insight, '');
    if (p) out.push(p);
  }
  return out;
}

/** The session's proposals, one per lesson (the playbook's near-duplicate search). */
export function sessionProposals(
  session: SessionState,
  failures: readonly ReflectionInsight[] = failureInsights(session),
): ProposedKeyPoint[] {
  return dedupeProposals(rawProposals(session, failures)).kept;
}

/**
 * The whole lesson pipeline on one input, without a store: the user turns of `messages` through the
 * heuristics and the policy, the failed tool calls of `messages` and `trajectories` grouped into
 * failure lessons, one proposal per lesson, and the evidence on cited key points — exactly what a
 * `createRearview` session observing the same input proposes.
 */
export function lessonsOf(input: LessonsInput, config: ObserveConfig): LessonsResult {
  const session = newSessionState('lessons');
  if (Array.isArray(input?.messages)) observeMessages(newTracker(), session, input.messages, config);
  for (const t of Array.isArray(input?.trajectories) ? input.trajectories : []) observeTrajectory(session, t);
  const failures = failureInsights(session, input?.root);
  return {
    insights: sessionInsights(session, failures),
    proposed: sessionProposals(session, failures),
    tags: session.tags.slice(),
  };
}

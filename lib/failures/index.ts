/**
 * `rearview/failures`: lessons from failed tool calls in agent trajectories, without a model call.
 * Failures are grouped by tool and error class (the error text with paths, numbers, ids and quoted
 * values normalised away), across a trajectory and across trajectories, and paired with the change
 * that made a later call succeed; `reflectFromTrajectories` turns each class into one insight with
 * trace references to every occurrence. Its own entry, so that `heuristicReflect` users do not carry it.
 *
 * @module
 */
export { type FixPart, fixText } from './change.js';
export { callTarget, commandHead, commandOf, errorClass } from './error-class.js';
export {
  type CallRun,
  type CallStep,
  type FailureClass,
  type FailureFix,
  fixedFailures,
  groupFailures,
} from './failures.js';
export { judgeFailure } from './judge.js';
export { failureLesson } from './lesson.js';
export { searchFoundNothing } from './no-match.js';
export { failureRule, type RuleSource } from './rule.js';
export { stepsFromMessages, type ToolMessageLike } from './steps.js';
export {
  failureInsight,
  reflectFromTrajectories,
  type TrajectoryLike,
  type TrajectoryReflectOptions,
} from './trajectory.js';

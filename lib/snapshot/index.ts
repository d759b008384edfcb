/**
 * `rearview/snapshot`: the active-context snapshot an agent carries across iterations —
 * deterministic (`deterministicSnapshot`, with a memo for snapshots taken again), or reflected by a
 * model behind token gates (`computeTrajectoryReduction`) — and the tuning specs the playground and
 * CLI read. Sentences are categorised by `rearview/categorise`; step compression for agents that keep
 * one growing context is `rearview/compress`.
 *
 * @module
 */

export { entriesFromMessages, entriesFromSteps, snapshotInputFrom } from './adapters.js';
export { listedText } from './bare-link.js';
export {
  CATEGORIES,
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  MAX_CATEGORY_ITEMS,
  MAX_TEXT_LENGTH,
  NEAR_DUPLICATE_THRESHOLD,
} from './deterministic.js';
export { inferRoot } from './infer-root.js';
export {
  createSnapshotMemo,
  SnapshotMemo,
  type SnapshotMemoOptions,
  type WarmSnapshotMemoOptions,
  warmSnapshotMemo,
} from './memo.js';
export { objectiveFromText } from './objective.js';
export type { NoteCategoriser, SnapshotOptions, TrajectoryReductionOptions } from './options.js';
export {
  clampParam,
  PARAM_DEFAULTS,
  PARAM_NAMES,
  PARAM_SPECS,
  type ParamName,
  type ParamSpec,
  type ParamValues,
  parseParam,
  pickParams,
} from './params.js';
export { isPlanMessage, type PlanStep, planSteps } from './plan.js';
export {
  computeRetirements,
  computeTrajectoryReduction,
  MIN_SAVINGS_TOKENS,
  MIN_SNAPSHOT_TOKENS,
  REPLY_FIELDS,
  snapshotJson,
} from './reduction.js';
export {
  indexSources,
  type ParsedReflection,
  type ParseOutcome,
  parseReflection,
  type ReflectedItem,
  type Rejection,
  reflectedSnapshotPrompt,
  type SourceIndex,
  validateReflection,
} from './reflect.js';
export { placeKey, samePlaces } from './same-place.js';
export { readSnapshotSource, type SnapshotSource } from './source.js';
export type {
  ActiveContextSnapshot,
  DroppedItem,
  MemoryEntry,
  ReflectionSkippedReason,
  RetiredTrajectoryRecord,
  SnapshotCategory,
  SnapshotInput,
  SnapshotTask,
  SnapshotTrace,
  TracedItem,
  TrajectoryReduction,
  TrajectoryReductionDiagnostics,
} from './types.js';

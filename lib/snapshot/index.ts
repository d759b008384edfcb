/**
 * `rearview/snapshot`: trajectory reduction. The active-context snapshot an agent carries across
 * iterations — deterministic, or reflected by a model behind token gates — and step compression
 * for agents that keep one growing context: AgentDiet with a model, or a deterministic compactor.
 *
 * @module
 */

export { entriesFromMessages, entriesFromSteps, objectiveFromText, snapshotInputFrom } from './adapters.js';
export { type PrefixRetention, prefixRetention } from './cache.js';
export { classify, scopeCategory, taskCategory } from './classify.js';
export {
  type CompactDiagnostics,
  type CompactedStep,
  type CompactionMarker,
  type CompactionRule,
  type CompactOptions,
  type CompactResult,
  compactTrajectory,
  renderStep,
  viewedFile,
} from './compact.js';
export { isErrorLine } from './compact-rules.js';
export {
  CATEGORIES,
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  MAX_CATEGORY_ITEMS,
  MAX_TEXT_LENGTH,
  NEAR_DUPLICATE_THRESHOLD,
} from './deterministic.js';
export {
  buildCompressionPrompt,
  REFLECTION_MARKER,
  type ReduceOptions,
  type ReduceResult,
  type ReduceStatus,
  type ReduceStepDiagnostics,
  reduceTrajectory,
} from './diet.js';
export {
  createSnapshotMemo,
  SnapshotMemo,
  type SnapshotMemoOptions,
  type WarmSnapshotMemoOptions,
  warmSnapshotMemo,
} from './memo.js';
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
  SNAKE,
} from './params.js';
export {
  type PatchFile,
  type PatchProtection,
  parsePatch,
  patchProtection,
  viewLineNumber,
} from './patch.js';
export {
  observationTokens,
  PRUNE_CATEGORIES,
  type PruneCategory,
  type PruneDiagnostics,
  type PrunedStep,
  type PruneOptions,
  type PruneResult,
  type PruneStepReport,
  pruneTrajectory,
} from './prune.js';
export {
  computeRetirements,
  computeTrajectoryReduction,
  MIN_SAVINGS_TOKENS,
  MIN_SNAPSHOT_TOKENS,
  snapshotJson,
} from './reduction.js';
export {
  buildReflectionPrompt,
  indexSources,
  type ParsedReflection,
  type ParseOutcome,
  parseReflection,
  type ReflectedItem,
  type Rejection,
  type SourceIndex,
  validateReflection,
} from './reflect.js';
export { readSnapshotSource, type SnapshotSource } from './source.js';
export { clip, comparableKey, findLinks } from './text.js';
export type {
  ActiveContextSnapshot,
  DroppedItem,
  MemoryEntry,
  ReflectionSkippedReason,
  RetiredTrajectoryRecord,
  SnapshotCategory,
  SnapshotInput,
  SnapshotOptions,
  SnapshotTask,
  SnapshotTrace,
  TracedItem,
  TrajectoryReduction,
  TrajectoryReductionDiagnostics,
  TrajectoryReductionOptions,
} from './types.js';

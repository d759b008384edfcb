/**
 * `rearview/compress`: step compression for agents that keep one growing context — AgentDiet with a
 * model (`reduceTrajectory`), a deterministic compactor (`compactTrajectory`) and a pruner that keeps
 * what later steps still need (`pruneTrajectory`), with the patch reading and the prompt-cache
 * measurement (`prefixRetention`) they share.
 *
 * @module
 */

export { type PrefixRetention, prefixRetention } from './cache.js';
export {
  type CompactDiagnostics,
  type CompactedStep,
  type CompactionMarker,
  type CompactOptions,
  type CompactResult,
  compactTrajectory,
  renderStep,
  viewedFile,
} from './compact.js';
export { type CompactionRule, isErrorLine } from './compact-rules.js';
export { DIET_A, DIET_B, DIET_THETA } from './defaults.js';
export {
  compressionPrompt,
  REFLECTION_MARKER,
  type ReduceOptions,
  type ReduceResult,
  type ReduceStatus,
  type ReduceStepDiagnostics,
  reduceTrajectory,
} from './diet.js';
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
export { editedFile } from './prune-rules.js';

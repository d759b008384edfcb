/**
 * `rearview/heuristic`: reflection without a model call — user corrections, preferences and friction
 * from conversations, failed tool calls from trajectories — plus the prompt, reply parser and merge for
 * reflecting with a model. `heuristicReflect` alone bundles to a few KB: the model half is only pulled
 * in by `llmReflect`, `reflectionPrompt` and `parseReflectionResponse`.
 *
 * @module
 */

export {
  type LlmReflectOptions,
  llmReflect,
  mergeInsights,
  type PromptOptions,
  parseReflectionResponse,
  reflectionPrompt,
} from './llm.js';
export { DEFAULT_MARKERS, type MarkerSet, SEED_MARKERS } from './markers.js';
export { type FactMetadata, type InsightProvenance, insightMetadata } from './metadata.js';
export {
  classifyTurn,
  extractRecommendation,
  type HeuristicOptions,
  heuristicReflect,
  type TurnSignals,
} from './reflect.js';
export { type CompiledMarkers, compileMarkers } from './scanner.js';
export { reflectFromTrajectories, type TrajectoryLike, type TrajectoryReflectOptions } from './trajectory.js';
export type { InsightCategory, InsightConfidence, MessageLike, ReflectionInsight } from './types.js';

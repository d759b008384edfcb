/**
 * `rearview/heuristic`: reflection without a model call — user corrections, preferences, friction and
 * approval in conversations, each with a score — plus the prompt, reply parser and merge for reflecting
 * with a model. Failed tool calls in trajectories are `rearview/failures`. `heuristicReflect` alone bundles to a few KB: the model half is only pulled
 * in by `llmReflect`, `reflectionPrompt` and `parseReflectionResponse`.
 *
 * @module
 */

export type { EscalationOptions } from './escalate.js';
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
  loadLanguageMarkers,
  type TurnEvidence,
  type TurnScorer,
  type TurnSignals,
} from './reflect.js';
export { type CompiledMarkers, compileMarkers } from './scanner.js';
export { confidenceOf, DEFAULT_ESCALATION_BAND, DEFAULT_MIN_SCORE, type TurnScores } from './score.js';
export type { InsightCategory, InsightConfidence, MessageLike, ReflectionInsight } from './types.js';

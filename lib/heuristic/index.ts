/**
 * `rearview/heuristic`: reflection without a model call — user corrections, preferences, friction and
 * approval in conversations, each with a score. Reflection with a model (`llmReflect`, its prompt,
 * reply parser and merge) is `rearview/llm-reflect`; failed tool calls in trajectories are
 * `rearview/failures`.
 *
 * @module
 */

export { loadLanguageMarkerSet, loadLanguageMarkers } from './load-languages.js';
export { DEFAULT_MARKERS, type MarkerSet } from './markers.js';
export { extractRecommendation } from './recommend.js';
export {
  askScorer,
  classifyTurn,
  type HeuristicOptions,
  heuristicReflect,
  type ScoredTurn,
  scoreTurns,
  type TurnEvidence,
  type TurnScorer,
  type TurnSignals,
  turnInsights,
} from './reflect.js';
export { type CompiledMarkers, compileMarkers } from './scanner.js';
export {
  confidenceOf,
  DEFAULT_ESCALATION_BAND,
  DEFAULT_MIN_SCORE,
  opensSession,
  type TurnScores,
} from './score.js';
export type { InsightCategory, InsightConfidence, MessageLike, ReflectionInsight } from './types.js';

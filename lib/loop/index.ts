/**
 * `rearview/loop`: the reflection loop (generate, critique, revise until it converges) and reflexion
 * memory (remember each mistake and its correction, retrieve them for similar prompts later), with
 * the one reflexion-memory record schema, {@link ReflexionEntrySchema}.
 *
 * @module
 */

// One Jaccard for the whole library (core); re-exported here because this entry always offered it.
export { jaccard } from '../core/index.js';
export {
  type ConvergenceCheck,
  type ConvergenceInput,
  type ConvergenceOptions,
  checkConvergence,
  contentChange,
  DEFAULT_CONVERGENCE_THRESHOLD,
  DEFAULT_MIN_CHANGE,
  DEFAULT_SEVERITY_THRESHOLD,
  hasConverged,
  improvementScore,
  normalizeContent,
  type Scored,
} from './convergence.js';
export { formatLessons, keywords } from './keywords.js';
export {
  CRITIQUER_SYSTEM,
  CritiqueReplySchema,
  GENERATOR_SYSTEM,
  type LlmComponentOptions,
  type LlmJsonComponentOptions,
  llmCritiquer,
  llmGenerator,
  llmReviser,
  meteredComplete,
  REVISER_SYSTEM,
  RevisionReplySchema,
} from './llm-components.js';
export {
  createUsageMeter,
  type LessonSource,
  type LoopMemory,
  pickBest,
  type ReflectionLoopOptions,
  runReflectionLoop,
} from './loop.js';
export {
  DEFAULT_MAX_ENTRIES,
  DEFAULT_SIMILARITY_THRESHOLD,
  type EmbeddingSimilarity,
  type LoadReport,
  ReflexionMemory,
  type ReflexionMemoryOptions,
  type RetrieveOptions,
} from './memory.js';
export {
  normalizePrompt,
  promptHash,
  type ReflexionEntry,
  ReflexionEntrySchema,
  type ReflexionInput,
  type ReflexionMatch,
  StoredEntrySchema,
} from './reflexion-entry.js';
export {
  combinedSeverity,
  type ToolCheck,
  type ToolCritiquerOptions,
  type ToolIssue,
  type ToolOutcome,
  ToolOutcomeSchema,
  toolCritiquer,
} from './tool-critiquer.js';
export {
  type Candidate,
  type CandidateInput,
  CONVERGED_REASONS,
  type Critique,
  type CritiqueFn,
  type Critiquer,
  type CritiquerLike,
  type GenerateFn,
  type Generator,
  type GeneratorLike,
  type IterationRecord,
  type LoopBudget,
  type LoopResult,
  type MemoryLesson,
  type ReviseFn,
  type Reviser,
  type ReviserLike,
  type StepContext,
  type StopReason,
  type UsageMeter,
  type UsageTotals,
} from './types.js';

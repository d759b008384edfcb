/**
 * `rearview/post-turn`: deterministic, gated post-turn reflection. A
 * validated config, a rule-based summariser and an LLM backend replaying `rearview/llm` fixtures, a
 * bit-exact deterministic embedding, time and write budgets, memory entries in a `rearview/kv`
 * MemoryEntryStore, and `t3_reflection.jsonl` records; byte-identical in every runtime. Off by
 * default, invisible when off. See lib/post-turn/README.md.
 *
 * @module
 */

export type {
  ReflectionBundle,
  ReflectionMetrics,
  ReflectionResult,
  ReflectionSkip,
  ReflectOptions,
} from './bundle.js';
export {
  defaultReflectionConfig,
  fromSeedConfig,
  type ReflectionBackend,
  type ReflectionConfig,
  type ReflectionConfigInput,
  ReflectionConfigSchema,
  type SafeReflectionConfigResult,
  safeValidateReflectionConfig,
  validateReflectionConfig,
} from './config.js';
export { deterministicEmbedding, EMBEDDING_DIM } from './embedding.js';
export {
  coerceReflectionFlag,
  planRequestsReflection,
  reflectionGate,
  sanitizePlanReflection,
} from './gate.js';
export {
  type FetchLike,
  FixtureMissingError,
  type GenerateOptions,
  loadReflectionFixtures,
  parseReflectionFixtures,
  type ReflectionFixture,
  type ReflectionLlmAdapter,
  type ReflectionPrompt,
  type ReflectionPromptInput,
  reflectionFixtureAdapter,
  reflectionFixturesToJsonl,
  reflectionPromptHash,
  reflectionPromptJson,
  turnSummaryPrompt,
} from './llm-fixtures.js';
export {
  compareReflectionLogRecords,
  type LineWriter,
  REFLECTION_LOG_FILE,
  REFLECTION_LOG_PREFIX,
  REFLECTION_LOG_STAGE_ORD,
  type ReflectionLogRecord,
  type ReflectionLogSink,
  type ReflectionMicrobench,
  readReflectionLog,
  reflectionLogKey,
  reflectionLogLine,
  reflectionMicrobench,
  writeReflectionLog,
} from './log.js';
export {
  type ReflectionMemoryEntry,
  ReflectionMemoryEntrySchema,
  type ReflectionMemoryStoreOptions,
  reflectionMemoryStore,
} from './memory.js';
export { rulebasedSummary } from './rulebased.js';
export { reflect, reflectBatch } from './step.js';
export { countWhitespaceTokens, normalizeText, splitWhitespace, truncateTokens } from './text.js';

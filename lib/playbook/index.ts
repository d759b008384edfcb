/**
 * `rearview/playbook`: ACE playbooks — sections, key points with grow-only helpful/harmful
 * counters, citation extraction, prompt formatting, the Reflector (tags by evidence) and the Curator
 * (delta operations), near-duplicate merging, a hard token budget, relevance selection, ACE text and
 * JSON import/export, and the insight → key-point policy. Persistence lives in `rearview/store`; the
 * one-call `reflectSession` in `rearview/session`.
 *
 * @module
 */

// cloneJson moved to rearview/core; re-exported so that existing imports keep working.
export { cloneJson, namesPath } from '../core/index.js';
export {
  type BudgetOptions,
  type BudgetResult,
  type Eviction,
  enforceBudget,
  recentlyChanged,
} from './budget.js';
export { CITATION_PATTERN, type CitableMessage, extractCitedIds } from './citations.js';
export {
  buildCuratorPrompt,
  type CuratorDiagnostic,
  type CuratorOptions,
  type CuratorResult,
  normalizeCuratorOperations,
  runCurator,
} from './curator.js';
export {
  DEDUP_THRESHOLD,
  type DedupOptions,
  type DedupResult,
  type DuplicateGroup,
  deduplicate,
  EMBEDDING_THRESHOLD,
  type EmbeddingDedupOptions,
  findDuplicates,
  findDuplicatesAllPairs,
  findDuplicatesWithEmbeddings,
  mergeOperations,
} from './dedup.js';
export {
  type AddOperation,
  type AppliedOperation,
  type ApplyDeltaOptions,
  applyDelta,
  type DeltaOperation,
  DeltaOperationSchema,
  type DeltaResult,
  type MergeOperation,
  type Provenance,
  ProvenanceSchema,
  type RemoveOperation,
  type UpdateOperation,
} from './delta.js';
export { type FormatOptions, formatKeyPointLine, formatKeyPoints, formatPlaybook } from './format.js';
export {
  extractInstruction,
  extractInstructions,
  type InstructionOptions,
  isStandingRule,
  MAX_INSTRUCTION_CHARS,
  MAX_INSTRUCTIONS,
} from './instruction.js';
export {
  type AceParseResult,
  type AceTextOptions,
  parseAceText,
  playbookFromJson,
  playbookToJson,
  toAceText,
} from './io.js';
export { judgeKeyPoint } from './judge.js';
export {
  dedupeProposals,
  type ProposalDedup,
  proposeKeyPoints,
  type TurnMessageLike,
  turnContexts,
} from './lessons.js';
export { type FactMetadata, type InsightProvenance, insightMetadata } from './metadata.js';
export {
  emptyPlaybook,
  formatKeyPointId,
  type HighWater,
  highWaterOf,
  isKeyPointName,
  isLegacyId,
  type KeyPoint,
  type Playbook,
  parseKeyPointId,
  SECTION_NAMES,
  SECTION_SLUGS,
  type SectionName,
  type SectionSlug,
} from './model.js';
export {
  DEFAULT_MODEL_TIMEOUT_MS,
  type ModelCallOptions,
  type PlaybookDiagnostic,
  scrubMessage,
} from './model-call.js';
export { noteAgentLines, ownWords, type SaidLines, saidLines } from './pasted.js';
export {
  type InsightLike,
  insightProposals,
  isApproval,
  type KeyPointProposal,
  type ProposeOptions,
  proposeKeyPoint,
  type TurnContext,
  type TurnVerdict,
  turnVerdict,
} from './policy.js';
export { redactOperations, redactorFor, redactPlaybookTexts, redactReflection } from './redaction.js';
export {
  formatTranscript,
  type ParsedReflectorReply,
  parseReflectorReply,
  type ReflectableMessage,
  type ReflectorDiagnostic,
  type ReflectorOptions,
  type ReflectorResult,
  reflectorPrompt,
  runReflector,
} from './reflector.js';
export {
  MAX_KEY_POINT_BYTES,
  type SanitizeOptions,
  sanitizeKeyPointText,
  sanitizeProvenance,
} from './sanitize.js';
export { describeIssues, KeyPointNameSchema, KeyPointSchema, PlaybookSchema } from './schema.js';
export { compareForEviction, compareNames, keyPointConfidence, WILSON_Z, wilsonLowerBound } from './score.js';
export { type Selection, type SelectOptions, selectForPrompt } from './select.js';
export {
  repairSpelling,
  type SpellingOptions,
  type SpellingRepair,
  wordCounts,
  wordList,
} from './spelling.js';
export {
  STANDING_CUT,
  STANDING_WEIGHTS,
  saysStanding,
  standingCues,
  standingScore,
} from './standing.js';
export {
  type ApplyTagsOptions,
  applyKeyPointTags,
  type KeyPointTag,
  KeyPointTagSchema,
  type TagTally,
  type TagValue,
  tallyKeyPointTags,
} from './tags.js';
export { CURATOR_TEMPLATE, fillTemplate, PLAYBOOK_TEMPLATE, REFLECTOR_TEMPLATE } from './templates.js';
export {
  isStandingTurn,
  isWellFormedKeyPoint,
  type KeyPointVerdict,
  keyPointVerdict,
  writeKeyPoint,
  writeKeyPoints,
} from './writer.js';

/**
 * `rearview/learn`: from a folder of agent sessions to a reviewed AGENTS.md / CLAUDE.md. Streams the
 * sessions one at a time through the transcript readers, the heuristics and the failure classes,
 * aggregates the same instruction across sessions into one rule with its evidence, leaves out what an
 * existing file already says (and reports what it contradicts), ranks by evidence and recency, fits a
 * token budget and redacts everything. No model call unless one is given. Outputs are a markdown
 * section, a unified diff and JSON; nothing here writes a file.
 *
 * @module
 */

export { LEARNED_HEADING, ruleLine, toJson, toMarkdown, toUnifiedDiff } from './format.js';
export { learn } from './learn.js';
export { estimateRefine, refineRules } from './model.js';
export { judgeFailure, judgeRule } from './quality.js';
export { dropPrivate, LearnSourceError } from './source.js';
export type {
  AlreadyThere,
  Contradiction,
  Evidence,
  ExistingLine,
  LearnedRule,
  LearnLanguages,
  LearnLlm,
  LearnOptions,
  LearnProgress,
  LearnResult,
  LearnSource,
  LlmCost,
  RuleKind,
  SkippedSource,
} from './types.js';

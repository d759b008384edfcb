/**
 * The options of `deterministicSnapshot` and `computeTrajectoryReduction`, apart from the data shapes
 * (types.ts): they name the memo, so keeping them out of types.ts keeps the memo's own imports
 * (which read types.ts) free of a circle.
 */
import type { SnapshotCategory } from '../categorise/index.js';
import type { TokenCounter } from '../core/index.js';
import type { LlmClient } from '../llm/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { SnapshotMemo } from './memo.js';
import type { MemoryEntry } from './types.js';

/**
 * Caps of {@link deterministicSnapshot}.
 *
 * @example
 * ```ts
 * deterministicSnapshot(input, { maxCategoryItems: 10 });
 * ```
 */
export interface SnapshotOptions {
  /** Items per category. Default {@link MAX_CATEGORY_ITEMS} (25). */
  maxCategoryItems?: number;
  /** Characters per item (UTF-16 units, never splitting a surrogate pair). Default {@link MAX_TEXT_LENGTH} (260). */
  maxTextLength?: number;
  /** Jaccard similarity of content words from which two items of a category are consolidated. Default 0.6. */
  nearDuplicateThreshold?: number;
  /**
   * Keeps the analysis of every text for the next snapshot given the same memo, so that one of
   * entries mostly seen before reads only the new texts; the output is the same. From
   * `createSnapshotMemo()`.
   */
  memo?: SnapshotMemo;
  /**
   * Categorises an entry's text in place of the built-in rules (entries whose scope forces a category
   * keep it): a category, or `undefined` for text not worth keeping. Given the text and the entry's
   * `role` (who wrote it, when known); called once per distinct text and role (per memo, when one is
   * given). `notesReader` of `rearview/categorise-model` is one. Default: the rules of
   * `rearview/categorise`.
   */
  categorise?: NoteCategoriser;
}

/**
 * A categoriser of entry texts for {@link SnapshotOptions.categorise}: a pure function of the text
 * and of who wrote it (`role` of {@link MemoryEntry}: `user`, `assistant`, `tool`, or `undefined` when
 * the entry does not say).
 *
 * @example
 * ```ts
 * const { notesReader } = await import('rearview/categorise-model');
 * const categorise: NoteCategoriser = notesReader;
 * deterministicSnapshot(input, { categorise });
 * ```
 */
export type NoteCategoriser = (text: string, role?: MemoryEntry['role']) => SnapshotCategory | undefined;

/**
 * Options of {@link computeTrajectoryReduction}. Token counts drive both gates: they use
 * `countTokens` when given, else `estimateTokens`.
 *
 * @example
 * ```ts
 * await computeTrajectoryReduction(input, { llm: anthropicClient({ apiKey }), minSnapshotTokens: 400 });
 * ```
 */
export interface TrajectoryReductionOptions extends SnapshotOptions {
  /** The reflection model. Without one the deterministic snapshot is returned (`no_llm`). */
  llm?: LlmClient;
  /**
   * Redact secrets and personal data from the request (placeholders in the reply are restored before
   * validation). Default `true`; `false` sends text as given; an object tunes `rearview/redact`.
   */
  redact?: boolean | RedactOptions;
  /** Skip reflection when the deterministic snapshot has fewer tokens. Default 400. */
  minSnapshotTokens?: number;
  /** Adopt the reflection only when it saves at least this many tokens. Default 100. */
  minSavingsTokens?: number;
  /** Exact token counter for the gates (default {@link estimateTokens}). */
  countTokens?: TokenCounter;
  /** Clock for the latency figure, in ms. Default `performance.now()` (or `Date.now()`). */
  now?: () => number;
  /** Model override for the request (else the client's). */
  model?: string;
  /** Output token budget of the reflection. Default 2048. */
  maxTokens?: number;
  /** Sampling temperature. Default 0. */
  temperature?: number;
  /**
   * Abandon the call after this many ms (`timeout`), even when the client ignores its signal.
   * Default (or 0 or less): no limit beyond the client's.
   */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * `createSnapshotMemo`: what a snapshot keeps for the next one (analysis.ts says what an analysis
 * is). Its own module, so that a bundle that never makes a memo does not carry it.
 */
import { ValidationError } from '../core/index.js';
import type { Analysis, TermsRef } from './analysis.js';
import { Vocabulary } from './vocab.js';

/**
 * Options of {@link createSnapshotMemo}.
 *
 * @example
 * ```ts
 * const memo = createSnapshotMemo({ maxTexts: 20_000 });
 * ```
 */
export interface SnapshotMemoOptions {
  /**
   * Distinct texts (entry texts, links and task titles) kept at most: a snapshot that leaves more
   * drops everything once it is done (the memory goes at once), and the next one reads every text
   * again. Default 50,000 (about 19 MB besides the texts themselves with 66-character notes, measured
   * in Node).
   */
  maxTexts?: number;
}

/** Default of {@link SnapshotMemoOptions.maxTexts}. */
const MAX_TEXTS = 50_000;

/**
 * What `deterministicSnapshot` keeps between calls when it is given `{ memo }`: every distinct text
 * it has read, with its words, classification, links and terms, and the vocabulary they index. A
 * snapshot of entries it has mostly seen (a chat's memory after one more turn, the same entries with
 * another threshold) reads only the new texts. The output is byte-identical to a snapshot without the
 * memo. Not shared between threads; one memo can serve any number of snapshots, one at a time (each
 * is synchronous).
 *
 * @example
 * ```ts
 * const memo = createSnapshotMemo();
 * deterministicSnapshot(input, { memo }); // reads every text
 * deterministicSnapshot({ ...input, entries: [...input.entries, next] }, { memo }); // reads `next`
 * memo.size; // distinct texts kept
 * ```
 */
export class SnapshotMemo {
  /** @internal The vocabulary every kept analysis indexes. */
  vocab = new Vocabulary();
  /** @internal Analyses by raw entry text. */
  analyses = new Map<string, Analysis>();
  /** @internal Content terms of link texts and task titles. */
  terms = new Map<string, TermsRef>();
  /** @internal The current build's generation (see {@link Analysis.gen}). */
  gen = 0;
  /** See {@link SnapshotMemoOptions.maxTexts}. */
  readonly maxTexts: number;

  constructor(options: SnapshotMemoOptions = {}) {
    const max = options.maxTexts ?? MAX_TEXTS;
    if (
      typeof max !== 'number' ||
      !(max >= 0) ||
      (max !== Number.POSITIVE_INFINITY && !Number.isInteger(max))
    )
      throw new ValidationError(
        [{ path: 'maxTexts', message: `must be a non-negative integer or Infinity, got ${String(max)}` }],
        { subject: 'Snapshot memo options' },
      );
    this.maxTexts = max;
  }

  /** Distinct texts kept. */
  get size(): number {
    return this.analyses.size + this.terms.size;
  }

  /** Drops everything kept. */
  clear(): void {
    this.vocab = new Vocabulary();
    this.analyses.clear();
    this.terms.clear();
  }

  /** @internal Starts a build: over `maxTexts` (a build that threw), starts over; returns its generation. */
  begin(): number {
    if (this.size > this.maxTexts) this.clear();
    return ++this.gen;
  }

  /**
   * @internal Ends a build: over `maxTexts`, drops everything now rather than at the next build; and
   * after text made to flood the vocabulary's tables (`PROBE_LIMIT`), so that later snapshots do not
   * stay on the slower Map path.
   */
  end(): void {
    if (this.size > this.maxTexts || this.vocab.flooded) this.clear();
  }
}

/**
 * A memo for `deterministicSnapshot(input, { memo })` and `computeTrajectoryReduction`: see
 * {@link SnapshotMemo}. Throws a `ValidationError` (`validation_failed`) when `maxTexts` is not a
 * non-negative integer or `Infinity`.
 *
 * @example
 * ```ts
 * const memo = createSnapshotMemo();
 * for (const turn of turns) render(deterministicSnapshot(inputAfter(turn), { memo }));
 * ```
 */
// @__NO_SIDE_EFFECTS__
export function createSnapshotMemo(options: SnapshotMemoOptions = {}): SnapshotMemo {
  return new SnapshotMemo(options);
}

/**
 * `createSnapshotMemo`: what a snapshot keeps for the next one (analysis.ts says what an analysis
 * is). Its own module, so that a bundle that never makes a memo does not carry it.
 */

import { Vocabulary } from '../categorise/index.js';
import { ValidationError } from '../core/index.js';
import { type Analysis, analyze, read, type TermsRef } from './analysis.js';
import type { SnapshotInput } from './types.js';

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

/**
 * Options of {@link warmSnapshotMemo}.
 *
 * @example
 * ```ts
 * warmSnapshotMemo(memo, input, { limit: 2_000 });
 * ```
 */
export interface WarmSnapshotMemoOptions {
  /**
   * Entry texts to read at most in this call. Default: all of them. A first reading costs about
   * 4.5 µs per 66-character note (10,000 real notes: 45-48 ms in Node on the bench machine), so 2,000
   * keep a call near 10 ms.
   */
  limit?: number;
}

/**
 * Reads into `memo` up to `limit` entry texts of `input` that it has not read yet, and returns how
 * many entries are still unread: a first reading of a large memory split over several frames (or idle
 * callbacks), after which `deterministicSnapshot(input, { memo })` reads only what came since. The
 * snapshot is the same whether or not, and however far, the memo was warmed. Returns 0 as soon as the
 * memo holds `maxTexts` texts (the snapshot reads the rest itself), and after text made to flood its
 * tables, which empties it. Throws a `ValidationError` when `memo` is not from
 * {@link createSnapshotMemo}, `input.entries` is not an array, or `limit` is not a non-negative
 * integer or `Infinity`.
 *
 * @example
 * ```ts
 * const memo = createSnapshotMemo();
 * const step = () => {
 *   if (warmSnapshotMemo(memo, input, { limit: 2_000 }) > 0) requestAnimationFrame(step);
 *   else render(deterministicSnapshot(input, { memo })); // ~2 ms for 10,000 notes
 * };
 * requestAnimationFrame(step);
 * ```
 */
export function warmSnapshotMemo(
  memo: SnapshotMemo,
  input: SnapshotInput,
  options: WarmSnapshotMemoOptions = {},
): number {
  const bad = (path: string, message: string) =>
    new ValidationError([{ path, message }], { subject: 'warmSnapshotMemo arguments' });
  if (!(memo instanceof SnapshotMemo)) throw bad('memo', 'must be a memo from createSnapshotMemo()');
  const entries = input?.entries ?? [];
  if (!Array.isArray(entries)) throw bad('input.entries', 'must be an array');
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (
    typeof limit !== 'number' ||
    !(limit >= 0) ||
    (limit !== Number.POSITIVE_INFINITY && !Number.isInteger(limit))
  )
    throw bad('limit', `must be a non-negative integer or Infinity, got ${String(limit)}`);
  const { analyses, vocab } = memo;
  let budget = limit;
  let left = 0;
  for (let i = 0; i < entries.length; i++) {
    if (memo.size >= memo.maxTexts) return 0;
    const v = entries[i]?.value;
    const raw = typeof v === 'string' ? v : String(v ?? '');
    if (analyses.has(raw)) continue;
    if (budget <= 0) {
      left++;
      continue;
    }
    budget--;
    // As the snapshot would: the analysis, and the words of text it had to squash.
    const a = analyze(raw, vocab, memo.gen);
    if (a.n < 0 && a.text !== '') read(a, vocab);
    analyses.set(raw, a);
    if (vocab.flooded) {
      memo.clear();
      return 0;
    }
  }
  return left;
}

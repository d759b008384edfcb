/**
 * The reader: a learned scorer for all four categories a person's turn can carry (correction,
 * preference, approval, friction), for `heuristicReflect`'s `scorer` option. One logistic regression
 * per category over hashed features (`readerFeatures`), trained by `eval/heuristic/reader-train.ts`;
 * integer weights and a score table per category, so a turn gets the same scores in every runtime.
 * Scores are calibrated probabilities (a Platt fit on authors the model was not trained on);
 * `READER_MIN_SCORE` holds each category's threshold, chosen for precision on such authors.
 */
import {
  DEFAULT_MIN_SCORE,
  type TurnEvidence,
  type TurnScorer,
  type TurnScores,
} from '../heuristic/index.js';
import { ownsMistake } from './acknowledge.js';
import { readerHashes } from './reader-hash.js';
import { BIAS, MIN_SCORES, RECALL_MIN_SCORES, TABLES, WEIGHTS } from './reader-weights.js';

const KINDS = ['correction', 'preference', 'approval', 'friction'] as const;
const LIMIT = 160;

/**
 * The weights by bucket in an open-addressing table (linear probing; the buckets are FNV bits already,
 * so their low bits spread), four integers per slot so that a probe reads one cache line: the bucket
 * + 1 (0 is an empty slot), the bucket's four weights packed as signed bytes (`decode` checks that
 * they fit), and the mark of the last turn that counted the bucket (a bucket that several features
 * share counts once, without a set per turn); the fourth pads the slot to 16 bytes. Separate arrays of
 * keys, rows, marks and weights cost up to four cache misses per weighted bucket.
 */
interface Decoded {
  slots: Int32Array;
  tables: Float64Array[];
}
let decoded: Decoded | undefined;
/** A category's score: its table at the clamped integer logit. */
const at = (table: Float64Array, z: number): number => table[Math.max(-LIMIT, Math.min(LIMIT, z)) + LIMIT]!;
let turnId = 0;

function decode(): Decoded {
  if (decoded) return decoded;
  const entries = WEIGHTS === '' ? [] : WEIGHTS.split(' ');
  let size = 16;
  // At most half full: a bucket without a weight (most of them) is told in one or two probes.
  while (size < entries.length * 2) size *= 2;
  const slots = new Int32Array(size * 4);
  let bucket = 0;
  for (const entry of entries) {
    const parts = entry.split(':');
    bucket += Number.parseInt(parts[0]!, 36);
    let packed = 0;
    for (let c = 0; c < 4; c++) {
      const w = Number.parseInt(parts[c + 1]!, 36);
      if (!(w >= -128 && w <= 127)) throw new RangeError(`reader weight ${w} does not fit a signed byte`);
      packed |= (w & 0xff) << (8 * c);
    }
    let slot = bucket & (size - 1);
    while (slots[slot * 4] !== 0 && slots[slot * 4] !== bucket + 1) slot = (slot + 1) & (size - 1);
    // A bucket listed twice keeps its last weights, as a map would.
    slots[slot * 4] = bucket + 1;
    slots[slot * 4 + 1] = packed;
  }
  const tables = TABLES.split(';').map((t) =>
    Float64Array.from(t.split(','), (v) => Number.parseInt(v, 36) / 100),
  );
  decoded = { slots, tables };
  return decoded;
}

/**
 * The per-category thresholds of the reader's scores: each is the score at the lowest logit whose
 * precision on authors outside the training folds reached its target (corrections 0.88, preferences
 * and friction 0.83, approvals 0.85). A category whose target no threshold reached holds 1.01: the
 * reader never reports it. Pass it as `heuristicReflect`'s `minScore`.
 *
 * @example
 * ```ts
 * heuristicReflect(messages, { scorer: readerModel, minScore: READER_MIN_SCORE });
 * ```
 */
export const READER_MIN_SCORE: Readonly<Record<(typeof KINDS)[number], number>> = Object.freeze({
  correction: MIN_SCORES[0]!,
  preference: MIN_SCORES[1]!,
  approval: MIN_SCORES[2]!,
  friction: MIN_SCORES[3]!,
});

/**
 * Lower thresholds of the reader's scores, for more recall: each category's score at the lowest logit
 * whose precision on authors outside the training folds reached 0.80 (the same fit as
 * {@link READER_MIN_SCORE}, a lower target). On the `strangers` authors, leave-authors-out, corrections
 * go from precision 0.87 / recall 0.23 to about 0.78 / 0.36 (eval/heuristic/reader-train.ts).
 *
 * @example
 * ```ts
 * heuristicReflect(messages, { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE });
 * ```
 */
export const READER_RECALL_MIN_SCORE: Readonly<Record<(typeof KINDS)[number], number>> = Object.freeze({
  correction: RECALL_MIN_SCORES[0]!,
  preference: RECALL_MIN_SCORES[1]!,
  approval: RECALL_MIN_SCORES[2]!,
  friction: RECALL_MIN_SCORES[3]!,
});

/**
 * The reader's four calibrated scores of one turn, each in [0, 1].
 *
 * @example
 * ```ts
 * const signals = { correction: false, challenge: false, preference: false, approval: false, friction: false };
 * readerScores({ text: 'No, that is still broken.', signals, interrupted: false, repeat: false, undo: false, first: false, reply: 'Fixed it.' });
 * // { correction: 0.9…, preference: 0.0…, approval: 0.0…, friction: 0.… }
 * ```
 */
export function readerScores(turn: TurnEvidence): TurnScores {
  const { slots, tables } = decode();
  const mask = (slots.length >> 2) - 1;
  // A new mark per turn (int32, wrapping): when it comes round to 0 the marks start from a clean slate.
  turnId = (turnId + 1) | 0;
  if (turnId === 0) {
    for (let i = 2; i < slots.length; i += 4) slots[i] = 0;
    turnId = 1;
  }
  let z0 = BIAS[0]!;
  let z1 = BIAS[1]!;
  let z2 = BIAS[2]!;
  let z3 = BIAS[3]!;
  const hashes = readerHashes(turn);
  for (let i = 0; i < hashes.length; i++) {
    const key = hashes[i]! + 1;
    let slot = ((key - 1) & mask) << 2;
    let k = slots[slot]!;
    while (k !== 0 && k !== key) {
      slot = (slot + 4) & (slots.length - 1);
      k = slots[slot]!;
    }
    if (k === 0 || slots[slot + 2] === turnId) continue;
    slots[slot + 2] = turnId;
    const packed = slots[slot + 1]!;
    z0 += (packed << 24) >> 24;
    z1 += (packed << 16) >> 24;
    z2 += (packed << 8) >> 24;
    z3 += packed >> 24;
  }
  return {
    correction: at(tables[0]!, z0),
    preference: at(tables[1]!, z1),
    approval: at(tables[2]!, z2),
    friction: at(tables[3]!, z3),
  };
}

/**
 * A correction the markers report (their score at least `DEFAULT_MIN_SCORE`, as `heuristicReflect`
 * reports it) reaches the reader's lower correction threshold when the reader's own score is at least
 * this (eval/heuristic/reader-either.ts).
 */
const MARKED_FLOOR = 0.5;

/**
 * A `TurnScorer` for `heuristicReflect`: the reader decides all four categories (aider's bare
 * `/undo` keeps the higher of the reader's and the markers' correction score: it is a correction by
 * definition). A turn the markers read as a correction and the reader scores at least 0.5 scores at
 * least {@link READER_RECALL_MIN_SCORE}'s correction threshold: reported at the lower thresholds, not
 * at the main ones. Out of fold on authors outside the training folds, corrections at the lower
 * thresholds go from 0.836 / 0.264 to 0.825 / 0.299 (precision / recall; on 23 authors never
 * trained on, 0.891 / 0.394 → 0.873 / 0.417: eval/heuristic/reader-either.ts). Its `acknowledges`
 * ({@link ownsMistake}) lets `observe` (`rearview/session`) score a turn again when the agent's reply
 * after it owns a mistake: one of the reader's features. Use it with `minScore: READER_MIN_SCORE`.
 *
 * @example
 * ```ts
 * const { readerModel, READER_MIN_SCORE } = await import('rearview/heuristic-model');
 * const insights = heuristicReflect(messages, { scorer: readerModel, minScore: READER_MIN_SCORE });
 * ```
 */
export const readerModel: TurnScorer = Object.assign(
  (turn: TurnEvidence, scores: TurnScores): TurnScores => {
    const s = readerScores(turn);
    if (turn.undo) return { ...s, correction: Math.max(s.correction, scores.correction) };
    const floor = RECALL_MIN_SCORES[0]!;
    return scores.correction >= DEFAULT_MIN_SCORE && s.correction >= MARKED_FLOOR && s.correction < floor
      ? { ...s, correction: floor }
      : s;
  },
  { acknowledges: ownsMistake },
);

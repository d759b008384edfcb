/**
 * The reader: a learned scorer for all four categories a person's turn can carry (correction,
 * preference, approval, friction), for `heuristicReflect`'s `scorer` option. One logistic regression
 * per category over hashed features (`readerFeatures`), trained by `eval/heuristic/reader-train.ts`;
 * integer weights and a score table per category, so a turn gets the same scores in every runtime.
 * Scores are calibrated probabilities (a Platt fit on authors the model was not trained on);
 * `READER_MIN_SCORE` holds each category's threshold, chosen for precision on such authors.
 */
import type { TurnEvidence, TurnScores } from '../heuristic/index.js';
import { readerHashes } from './reader-hash.js';
import { BIAS, MIN_SCORES, TABLES, WEIGHTS } from './reader-weights.js';

const KINDS = ['correction', 'preference', 'approval', 'friction'] as const;
const LIMIT = 160;

/**
 * The weights by bucket in an open-addressing table (linear probing; the buckets are FNV bits already,
 * so their low bits spread): `keys` holds bucket + 1 (0 is an empty slot), `rows[slot]` the bucket's
 * row in `weights` (four integers per row). `seen[row]` marks a row counted for the current turn, so a
 * bucket that several features share counts once without a set per turn.
 */
interface Decoded {
  keys: Int32Array;
  rows: Int32Array;
  weights: Int32Array;
  seen: Uint32Array;
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
  // A quarter full: a bucket without a weight (most of them) is told in one or two probes.
  while (size < entries.length * 4) size *= 2;
  const keys = new Int32Array(size);
  const rows = new Int32Array(size);
  const weights = new Int32Array(entries.length * 4);
  let bucket = 0;
  entries.forEach((entry, row) => {
    const parts = entry.split(':');
    bucket += Number.parseInt(parts[0]!, 36);
    for (let c = 0; c < 4; c++) weights[row * 4 + c] = Number.parseInt(parts[c + 1]!, 36);
    let slot = bucket & (size - 1);
    while (keys[slot] !== 0 && keys[slot] !== bucket + 1) slot = (slot + 1) & (size - 1);
    // A bucket listed twice keeps its last row, as a map would.
    keys[slot] = bucket + 1;
    rows[slot] = row;
  });
  const tables = TABLES.split(';').map((t) =>
    Float64Array.from(t.split(','), (v) => Number.parseInt(v, 36) / 100),
  );
  decoded = { keys, rows, weights, seen: new Uint32Array(entries.length), tables };
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
  const { keys, rows, weights, seen, tables } = decode();
  const mask = keys.length - 1;
  // A new mark per turn; after 2^32 turns the marks start again from a clean slate.
  turnId = (turnId + 1) >>> 0;
  if (turnId === 0) {
    seen.fill(0);
    turnId = 1;
  }
  let z0 = BIAS[0]!;
  let z1 = BIAS[1]!;
  let z2 = BIAS[2]!;
  let z3 = BIAS[3]!;
  const hashes = readerHashes(turn);
  for (let i = 0; i < hashes.length; i++) {
    const key = hashes[i]! + 1;
    let slot = (key - 1) & mask;
    while (keys[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & mask;
    if (keys[slot] === 0) continue;
    const row = rows[slot]!;
    if (seen[row] === turnId) continue;
    seen[row] = turnId;
    z0 += weights[row * 4]!;
    z1 += weights[row * 4 + 1]!;
    z2 += weights[row * 4 + 2]!;
    z3 += weights[row * 4 + 3]!;
  }
  return {
    correction: at(tables[0]!, z0),
    preference: at(tables[1]!, z1),
    approval: at(tables[2]!, z2),
    friction: at(tables[3]!, z3),
  };
}

/**
 * A `TurnScorer` for `heuristicReflect`: the reader decides all four categories (aider's bare
 * `/undo` keeps the higher of the reader's and the markers' correction score: it is a correction by
 * definition). Use it with `minScore: READER_MIN_SCORE`.
 *
 * @example
 * ```ts
 * const { readerModel, READER_MIN_SCORE } = await import('rearview/heuristic-model');
 * const insights = heuristicReflect(messages, { scorer: readerModel, minScore: READER_MIN_SCORE });
 * ```
 */
export function readerModel(turn: TurnEvidence, scores: TurnScores): TurnScores {
  const s = readerScores(turn);
  return turn.undo ? { ...s, correction: Math.max(s.correction, scores.correction) } : s;
}

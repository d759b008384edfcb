/**
 * The reader: a learned scorer for all four categories a person's turn can carry (correction,
 * preference, approval, friction), for `heuristicReflect`'s `scorer` option. One logistic regression
 * per category over hashed features (`readerFeatures`), trained by `eval/heuristic/reader-train.ts`;
 * integer weights and a score table per category, so a turn gets the same scores in every runtime.
 * Scores are calibrated probabilities (a Platt fit on authors the model was not trained on);
 * `READER_MIN_SCORE` holds each category's threshold, chosen for precision on such authors.
 */
import type { TurnEvidence, TurnScores } from '../heuristic/index.js';
import { readerBuckets } from './reader-features.js';
import { BIAS, MIN_SCORES, TABLES, WEIGHTS } from './reader-weights.js';

const KINDS = ['correction', 'preference', 'approval', 'friction'] as const;
const LIMIT = 160;

interface Decoded {
  weights: Map<number, Int32Array>;
  tables: Float64Array[];
}
let decoded: Decoded | undefined;

function decode(): Decoded {
  if (decoded) return decoded;
  const weights = new Map<number, Int32Array>();
  let bucket = 0;
  if (WEIGHTS !== '')
    for (const entry of WEIGHTS.split(' ')) {
      const parts = entry.split(':');
      bucket += Number.parseInt(parts[0]!, 36);
      weights.set(
        bucket,
        Int32Array.from(parts.slice(1), (p) => Number.parseInt(p, 36)),
      );
    }
  const tables = TABLES.split(';').map((t) =>
    Float64Array.from(t.split(','), (v) => Number.parseInt(v, 36) / 100),
  );
  decoded = { weights, tables };
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
  const { weights, tables } = decode();
  const z = [...BIAS];
  for (const b of readerBuckets(turn)) {
    const w = weights.get(b);
    if (w) for (let c = 0; c < 4; c++) z[c]! += w[c]!;
  }
  const at = (c: number) => tables[c]![Math.max(-LIMIT, Math.min(LIMIT, z[c]!)) + LIMIT]!;
  return { correction: at(0), preference: at(1), approval: at(2), friction: at(3) };
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

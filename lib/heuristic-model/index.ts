/**
 * `rearview/heuristic-model`: learned scorers for `heuristicReflect`'s `scorer` option: `readerModel`
 * (all four categories, calibrated scores, thresholds per category in `READER_MIN_SCORE`; see
 * `reader.ts`) and `correctionModel`, a scorer for user corrections alone. A logistic regression over non-topical features of the turn (a closed list of function and
 * discourse words, punctuation, length, position, pasted-output shape, the marker detector's signals
 * and the transcript's context), trained by `eval/heuristic/learned.ts` on the labelled turns and
 * shipped as data. Pure JS, integer arithmetic and a score table: the same score in every runtime.
 * Import it lazily (`await import('rearview/heuristic-model')`) to keep it out of a bundle that does
 * not use it; `loadRearview` of `rearview/session` does that for you. `readerModel` at
 * `READER_RECALL_MIN_SCORE` is the default reader of people's turns in `rearview reflect`,
 * `rearview learn`, the playground and `loadRearview`.
 *
 * @module
 */
import type { TurnEvidence, TurnScorer, TurnScores } from '../heuristic/index.js';
import { baseFeatures, shapeFeatures } from './features.js';
import { LIMIT, TABLE, WEIGHTS } from './weights.js';

export { acknowledgedBy, ownsMistake } from './acknowledge.js';
export { turnFeatures } from './features.js';
export { READER_MIN_SCORE, READER_RECALL_MIN_SCORE, readerModel, readerScores } from './reader.js';
export { hashFeature, readerBuckets, readerFeatures } from './reader-features.js';

/** The weights of single features, and of pairs by their first then second member (`x:a&b`). */
interface Model {
  single: Map<string, number>;
  pairs: Map<string, Map<string, number>>;
}
let weights: Model | undefined;

function model(): Model {
  if (!weights) {
    weights = { single: new Map(), pairs: new Map() };
    for (const pair of WEIGHTS.split(' ')) {
      const eq = pair.lastIndexOf('=');
      const name = pair.slice(0, eq);
      const w = Number(pair.slice(eq + 1));
      // Shape features hold no `&` (words are letters, digits and `_`): the first one splits a pair.
      const amp = name.startsWith('x:') ? name.indexOf('&') : -1;
      if (amp < 0) weights.single.set(name, w);
      else {
        const a = name.slice(2, amp);
        let row = weights.pairs.get(a);
        if (!row) {
          row = new Map();
          weights.pairs.set(a, row);
        }
        row.set(name.slice(amp + 1), w);
      }
    }
  }
  return weights;
}

/**
 * The model's correction score of one turn, in [0, 1]. Scores are placed so that `DEFAULT_MIN_SCORE`
 * is the threshold chosen for precision on authors the model was not trained on.
 *
 * @example
 * ```ts
 * correctionScore({ text: '/undo', signals, interrupted: false, repeat: false, undo: true, first: false, reply: undefined });
 * ```
 */
export function correctionScore(turn: TurnEvidence): number {
  const { single, pairs } = model();
  const base = baseFeatures(turn);
  let z = 0;
  for (const f of base) z += single.get(f) ?? 0;
  // The pairs' weights, looked up by member instead of building each `x:a&b` name: the same sum as
  // over `turnFeatures(turn)`, without a hundred string joins per turn.
  const shape = shapeFeatures(base);
  for (let i = 0; i < shape.length; i++) {
    const row = pairs.get(shape[i]!);
    if (row) for (let j = i + 1; j < shape.length; j++) z += row.get(shape[j]!) ?? 0;
  }
  // Integer logit, clamped, then a table: no floating-point function whose last bit may differ by engine.
  return TABLE[Math.max(-LIMIT, Math.min(LIMIT, z)) + LIMIT]!;
}

/**
 * A {@link TurnScorer} for `heuristicReflect`: the learned model decides corrections (aider's bare
 * `/undo` gets the higher of the model's and the markers' score); preferences, approvals and friction
 * keep the marker detector's.
 *
 * @example
 * ```ts
 * const { correctionModel } = await import('rearview/heuristic-model');
 * const insights = heuristicReflect(messages, { scorer: correctionModel });
 * ```
 */
export const correctionModel: TurnScorer = (turn: TurnEvidence, scores: TurnScores): TurnScores => {
  const learned = correctionScore(turn);
  // A bare `/undo` is a correction by definition, and too rare in the training turns (18) for the
  // model to learn it: it gets the higher of the two scores.
  return { ...scores, correction: turn.undo ? Math.max(learned, scores.correction) : learned };
};

/**
 * `rearview/heuristic-model`: a learned scorer for user corrections, for `heuristicReflect`'s `scorer`
 * option. A logistic regression over non-topical features of the turn (a closed list of function and
 * discourse words, punctuation, length, position, pasted-output shape, the marker detector's signals
 * and the transcript's context), trained by `eval/heuristic/learned.ts` on the labelled turns and
 * shipped as data. Pure JS, integer arithmetic and a score table: the same score in every runtime.
 * Import it lazily (`await import('rearview/heuristic-model')`) to keep it out of a bundle that does
 * not use it.
 *
 * @module
 */
import type { TurnEvidence, TurnScorer, TurnScores } from '../heuristic/index.js';
import { turnFeatures } from './features.js';
import { LIMIT, TABLE, WEIGHTS } from './weights.js';

export { turnFeatures } from './features.js';

let weights: Map<string, number> | undefined;

function model(): Map<string, number> {
  if (!weights) {
    weights = new Map();
    for (const pair of WEIGHTS.split(' ')) {
      const eq = pair.lastIndexOf('=');
      weights.set(pair.slice(0, eq), Number(pair.slice(eq + 1)));
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
  const w = model();
  let z = 0;
  for (const f of turnFeatures(turn)) z += w.get(f) ?? 0;
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

/**
 * Probe: is the gap between the recall the folds' threshold gives (0.40 at
 * P 0.90, all families) and the oracle cut (P 0.868 at R 0.5) a threshold-*choice* problem?
 *
 * Written down before the first run, with what each variant should show if its idea is right:
 *
 * 1. `average`: ship the mean of the inner models instead of a model retrained on every training
 *    author. The threshold is chosen on inner models' out-of-fold logits; a model trained on all the
 *    authors fits larger weights (more data against the same L2), so its logits sit on a wider scale
 *    and the threshold lands at a different point of its ranking. If that is the gap, recall at the
 *    chosen threshold rises towards the oracle's (R ≥ 0.45) with precision still ≥ 0.85.
 * 2. `repeats 3`: the threshold from out-of-fold logits pooled over three inner author splits (three
 *    salts): a less noisy precision curve. If noise is the gap, recall rises with precision ≥ 0.85.
 * 3. both.
 *
 * Neither changes the features, the training or the folds; the outer test authors are never seen.
 * Whatever wins is a choice made on these folds' figures, and is reported as such.
 *
 * `npx tsx eval/heuristic/probe-threshold.ts` (one JSON line per variant).
 */
import { loadLabelledSets } from './data';
import { evaluate } from './learned';

const rows = loadLabelledSets();
const variants: [string, Parameters<typeof evaluate>[1]][] = [
  ['full retrain, one inner split (shipped until stop 28)', { innerRepeats: 1 }],
  ['average of the inner models', { ship: 'average', innerRepeats: 1 }],
  ['threshold from 3 inner splits (shipped since)', { innerRepeats: 3 }],
  ['average of the inner models of 3 splits', { ship: 'average', innerRepeats: 3 }],
];
for (const [name, options] of variants) {
  const rep = evaluate(rows, options);
  console.log(
    JSON.stringify({
      variant: name,
      all: [rep.all.precision, rep.all.recall],
      aider: [rep.headlineAider.precision, rep.headlineAider.recall],
      console: [rep.byFamily.console.precision, rep.byFamily.console.recall],
      precisionAtRecall: rep.precisionAtRecall,
    }),
  );
}

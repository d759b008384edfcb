/**
 * Probe: the learned correction scorer with and without the shipped feature pairs,
 * and the variants tried after the pairs shipped and dropped. Reproduces the figures of
 * eval/heuristic/LABELLING.md "Pairs of shape features". Same five author folds as `learned.ts`;
 * precision / recall at each fold's chosen threshold, and the oracle precision at recall
 * (`precisionAtRecall`, read from the test turns: a bound, not a result).
 *
 * `npx tsx eval/heuristic/probe-pairs.ts` (about ten minutes; one JSON line per variant).
 */
import type { TurnEvidence } from '../../lib/heuristic/index';
import { baseFeatures, turnFeatures } from '../../lib/heuristic-model/features';
import { loadLabelledSets } from './data';
import { evaluate } from './learned';

/** Negation and retry words of the closed vocabulary, crossed with the shape features (dropped). */
const NEG = new Set(
  'no not wrong still again doesnt didnt dont isnt nothing never instead but why undo revert nope same broke error'
    .split(' ')
    .map((w) => `w:${w}`),
);
const SHAPE = /^(m|c|ctx|p|f|len|paste|oov):/;
const negCross = (e: TurnEvidence) => {
  const f = turnFeatures(e);
  const shape = f.filter((x) => SHAPE.test(x));
  for (const a of f.filter((x) => NEG.has(x))) for (const b of shape) f.push(`y:${a}&${b}`);
  return f;
};
const spent = new Set(['final', 'more', 'aider-final']);

const rows = loadLabelledSets();
const variants: [string, Parameters<typeof evaluate>[1]][] = [
  ['no pairs (the model before stop 27)', { features: baseFeatures }],
  ['pairs (shipped)', {}],
  ['pairs + negation words x shape', { features: negCross }],
  ['pairs, L2 0.0025', { l2: 0.0025 }],
  ['pairs, L2 0.01', { l2: 0.01 }],
  ['pairs, L2 0.02', { l2: 0.02 }],
  ['pairs, inner target 0.86', { target: 0.86 }],
  ['pairs, spent sets as extra training turns', { trainExtra: spent }],
  ['pairs, spent sets train, the pool calibrates', { trainExtra: spent, calibrateExtra: false }],
];
for (const [name, options] of variants) {
  // One inner split, the threshold policy these documented figures were printed with.
  const rep = evaluate(rows, { innerRepeats: 1, ...options });
  console.log(
    JSON.stringify({
      variant: name,
      all: [rep.all.precision, rep.all.recall],
      aider: [rep.headlineAider.precision, rep.headlineAider.recall],
      precisionAtRecall: rep.precisionAtRecall,
    }),
  );
}

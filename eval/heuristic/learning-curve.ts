/**
 * Would more labelled turns lift the learned correction model on unseen authors?
 *
 * `npx tsx eval/heuristic/learning-curve.ts` prints, as JSON:
 * - `curve`: the leave-authors-out evaluation of `learned.ts` with each fold trained on a fraction
 *   (40, 60, 80, 100%) of its training authors (four author draws per fraction, averaged), the test
 *   turns unchanged; precision at recall from the pooled raw logits (`precisionAtRecallRaw`: a fold
 *   that found no threshold still ranks its turns);
 * - `wholePool`: the same evaluation with the spent held-out sets (`final`, `more`, `aider-final`, all
 *   scored once already) moved into the folds: 1,985 turns instead of 1,236, a direct test of "more
 *   data".
 */
import { fnv1a32 } from '../../lib/core/index';
import { authorOf, loadLabelledSets } from './data';
import { evaluate } from './learned';

const rows = loadLabelledSets();
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const curve: Record<string, Record<string, number>> = {};
for (const frac of [0.4, 0.6, 0.8, 1]) {
  const draws = frac === 1 ? ['a'] : ['a', 'b', 'c', 'd'];
  const sum: Record<string, number> = {};
  for (const seed of draws) {
    // One inner split, the threshold policy the documented figures used.
    const rep = evaluate(rows, {
      innerRepeats: 1,
      trainOn: (r) => (fnv1a32(`${seed}#${authorOf(r)}:${r.source}`) % 1000) / 1000 < frac,
    });
    const at = rep.precisionAtRecallRaw.all;
    const add = (k: string, v: number | null) => {
      sum[k] = (sum[k] ?? 0) + (v ?? 0) / draws.length;
    };
    add('P@R0.3', at['R0.3'] ?? null);
    add('P@R0.4', at['R0.4'] ?? null);
    add('P@R0.5', at['R0.5'] ?? null);
    add('precision', rep.all.precision);
    add('recall', rep.all.recall);
  }
  curve[`${frac * 100}%`] = Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, r3(v)]));
}
const whole = evaluate(rows, { heldOut: new Set(), innerRepeats: 1 });
console.log(
  JSON.stringify(
    {
      curve,
      wholePool: {
        turns: whole.pool,
        authors: whole.authors,
        all: whole.all,
        aider: whole.headlineAider,
        precisionAtRecall: whole.precisionAtRecall,
        precisionAtRecallRaw: whole.precisionAtRecallRaw,
      },
    },
    null,
    1,
  ),
);

/**
 * Draws the `more` set (see LABELLING.md): further ShareGPT turns only (each conversation is a
 * different author), in none of the other labelled sets in this folder (neither the same message nor the
 * same text), the two ShareGPT strata of `sample-fresh.ts`, seeded shuffle (mulberry32). Writes unlabelled
 * rows to stdout; labels were added by a reader who saw only the rules, the earlier labels and the turns
 * (and, where needed, the assistant message before a turn), never the detector.
 *
 * `npx tsx eval/heuristic/sample-more.ts [seed] [first n] [split] [followup] [uniform] > rows.jsonl`
 * (the more set: `4007 5685 more 300 100`, the defaults). Rows of the set being drawn (`split`) are not
 * excluded, so the draw is the same before and after its file exists.
 */
import { join } from 'node:path';
import { mulberry32 } from '../../tools/shared/random';
import { drawer, sharegptTurns } from './candidates';
import { loadLabelledSets } from './data';

const data = join(import.meta.dirname, '../../../shared/data');

const [seed = '4007', firstN = '5685', split = 'more', nFollowup = '300', nUniform = '100'] =
  process.argv.slice(2);
const seen = loadLabelledSets().filter((r) => (r.split as string) !== split);

const shareTurns = sharegptTurns(data);
const draw = drawer(seen, mulberry32(Number(seed)));
const followups = draw(
  shareTurns.filter((c) => !c.firstUserTurn && c.text.length < 400),
  Number(nFollowup),
  'sharegpt-followup',
);
const uniform = draw(shareTurns, Number(nUniform), 'sharegpt-uniform');
for (const [stratum, got, wanted] of [
  ['sharegpt-followup', followups.length, Number(nFollowup)],
  ['sharegpt-uniform', uniform.length, Number(nUniform)],
] as const)
  if (got < wanted) console.error(`${stratum}: only ${got} of ${wanted} turns remain`);
let n = Number(firstN);
for (const { firstUserTurn: _f, ...r } of [...followups, ...uniform]) {
  console.log(JSON.stringify({ n: n++, ...r, split }));
}

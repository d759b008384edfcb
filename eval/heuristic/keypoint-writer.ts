/**
 * `npx tsx eval/heuristic/keypoint-writer.ts`: the two decisions of issue 38's "instructions worth
 * keeping", measured on the tuning rows labelled correction or preference (distinct readings): the
 * `strangers` split and the older sets' tuning splits (`tune`, `test`, `fresh`, `aider`), whose
 * standing labels are in `sets/standing/`:
 *
 * 1. standing or one-off (`isStandingTurn` of `rearview/playbook`): a logistic regression over its
 *    transparent cues (`standingCues`), L2, a fixed number of gradient steps, weights rounded to
 *    integers; 5 folds grouped by author, the cut chosen on each fold's training authors (best F0.5:
 *    precision first, a wrong key point costs more than a missing one). Prints the fold figures, then
 *    the weights fitted on every tuning author. The weights shipped in lib/playbook/standing.ts were
 *    fitted on the `strangers` rows alone; refitted on both sets they propose more key points on
 *    turns that hold no standing rule (`--every-turn`), so they were kept (sets/standing/README.md).
 * 2. the key-point writer (`writeKeyPoint`): the sentence it proposes for each row, compared with the
 *    reader's own wording (`instruction`) by content-word overlap (F1 over lower-cased words of three
 *    letters or more, stop words left out), and the end-to-end figures of the shipped pipeline.
 *
 * `--final` scores `strangers-final` with what is shipped (no fitting), `--old-final` the older sets'
 * held-out splits (`final`, `aider-final`, `more`, `last`); `--every-turn` reads every turn, a turn
 * labelled neither correction nor preference as not standing (the writer runs on whatever the
 * detector flags). `--show` prints every
 * proposed sentence beside the reader's wording (strangers split only). `--show-all` prints the key
 * points the writer proposes over every turn of the split, with the turn's labels and its first words
 * (to the terminal only: the turns are third-party text).
 */
import { fnv1a32 } from '../../lib/core/index';
import {
  extractInstruction,
  isStandingTurn,
  isWellFormedKeyPoint,
  saysStanding,
  standingCues,
  writeKeyPoint,
  writeKeyPoints,
} from '../../lib/playbook/index';
import {
  distinctTexts,
  type Example,
  OLD_HELD,
  OLD_TUNE,
  oldExamples,
  strangerExamples,
} from './reader-data';

const FINAL = process.argv.includes('--final');
const SHOW = process.argv.includes('--show');
const FOLDS = 5;

const OLD_FINAL = process.argv.includes('--old-final');
/**
 * `--every-turn`: every distinct turn counts, a turn labelled neither correction nor preference as
 * not standing. The key-point writer runs on whatever the detector flags, so a task statement with
 * "always" in it costs precision there; the default reads corrections and preferences only.
 */
const EVERY_TURN = process.argv.includes('--every-turn');
const asRow = (e: Example): Example => (e.standing === null ? { ...e, standing: false } : e);
const old = distinctTexts(
  oldExamples().filter((e) => e.evidence !== undefined && (EVERY_TURN || e.standing !== null)),
).map(asRow);
const every = strangerExamples().examples.filter((e) => !e.duplicate && e.evidence !== undefined);
const all = every.filter((e) => EVERY_TURN || e.standing !== null).map(asRow);
const splitName = FINAL
  ? 'strangers-final'
  : OLD_FINAL
    ? "the older sets' held-out splits"
    : "strangers + the older sets' tuning splits";
const rows = FINAL
  ? all.filter((e) => e.split === 'strangers-final')
  : OLD_FINAL
    ? old.filter((e) => OLD_HELD.has(e.split))
    : [...all.filter((e) => e.split === 'strangers'), ...old.filter((e) => OLD_TUNE.has(e.split))];
const text = (e: Example) => e.evidence!.text;

function fitWeights(data: Example[]): number[] {
  const X = data.map((e) => [1, ...standingCues(text(e))]);
  const y = data.map((e) => (e.standing ? 1 : 0));
  const w = new Array<number>(X[0]!.length).fill(0);
  for (let step = 0; step < 3000; step++) {
    const g = w.map((wi, j) => (j === 0 ? 0 : 0.002 * wi * data.length));
    for (let i = 0; i < X.length; i++) {
      const z = X[i]!.reduce((s, x, j) => s + x * w[j]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let j = 0; j < w.length; j++) g[j]! += (p - y[i]!) * X[i]![j]!;
    }
    for (let j = 0; j < w.length; j++) w[j]! -= (0.5 * g[j]!) / data.length;
  }
  // Integers: four per logit unit, so that the largest weights stay readable.
  return w.map((x) => Math.round(x * 4));
}

const score = (w: number[], e: Example) =>
  standingCues(text(e)).reduce((s, x, j) => s + x * w[j + 1]!, w[0]!);
// A rule that says it stands ("Always…", "from now on") is standing whatever the weights (saysStanding).
const explicit = (e: Example) => {
  const k = extractInstruction(text(e), { rulesOnly: true, accept: isWellFormedKeyPoint });
  return k !== undefined && saysStanding(k);
};
const decide = (w: number[], cut: number, e: Example) => score(w, e) >= cut || explicit(e);

function prf(said: Example[], pos: number) {
  const right = said.filter((e) => e.standing).length;
  const p = right / Math.max(1, said.length);
  const r = right / Math.max(1, pos);
  return { p, r, right, said: said.length };
}

function bestCut(w: number[], data: Example[]): number {
  const pos = data.filter((e) => e.standing).length;
  let best = { f: -1, cut: 0 };
  for (let cut = -40; cut <= 40; cut++) {
    const { p, r } = prf(
      data.filter((e) => decide(w, cut, e)),
      pos,
    );
    const f = p + r > 0 ? (1.25 * p * r) / (0.25 * p + r) : 0;
    if (f > best.f) best = { f, cut };
  }
  return best.cut;
}

const STOP = new Set(
  'the and for not you your with that this from are was were will when into only than then them they have has use its but all any can should must also just our out over each after before'.split(
    ' ',
  ),
);
const words = (s: string) =>
  new Set((s.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter((w) => !STOP.has(w)));
function overlap(a: string, b: string): number {
  const A = words(a);
  const B = words(b);
  let both = 0;
  for (const w of A) if (B.has(w)) both++;
  return A.size + B.size ? (2 * both) / (A.size + B.size) : 0;
}

const f = (x: number) => x.toFixed(3);
const pos = rows.filter((e) => e.standing).length;
console.log(
  `${rows.length} corrections/preferences (${splitName}, distinct), ${pos} standing, ${new Set(rows.map((e) => e.author)).size} authors`,
);

if (!FINAL && !OLD_FINAL) {
  const oof = new Map<string, boolean>();
  for (let k = 0; k < FOLDS; k++) {
    const inK = (e: Example) => fnv1a32(`fold#${e.author}`) % FOLDS === k;
    const train = rows.filter((e) => !inK(e));
    const test = rows.filter(inK);
    const w = fitWeights(train);
    const cut = bestCut(w, train);
    const said = test.filter((e) => decide(w, cut, e));
    for (const e of test) oof.set(e.id, decide(w, cut, e));
    const m = prf(said, test.filter((e) => e.standing).length);
    console.log(
      `fold ${k}: ${test.length} rows, ${test.filter((e) => e.standing).length} standing; weights ${w.join(' ')} cut ${cut}: precision ${f(m.p)} recall ${f(m.r)} (${m.right}/${m.said})`,
    );
  }
  const m = prf(
    rows.filter((e) => oof.get(e.id)),
    pos,
  );
  console.log(
    `pooled out-of-fold decision: precision ${f(m.p)}, recall ${f(m.r)} (${m.right} of ${m.said} said)`,
  );
  // The decision of each fold with the writer behind it: what a key point would have been proposed for.
  const written = (e: Example) => {
    const k = extractInstruction(text(e), { rulesOnly: true, accept: isWellFormedKeyPoint });
    return k !== undefined && isWellFormedKeyPoint(k);
  };
  const e2e = prf(
    rows.filter((e) => oof.get(e.id) && written(e)),
    pos,
  );
  console.log(
    `pooled out-of-fold decision + writer: precision ${f(e2e.p)}, recall ${f(e2e.r)} (${e2e.right} of ${e2e.said} with a key point)`,
  );
  const w = fitWeights(rows);
  console.log(`fitted on every tuning author: weights [${w.join(', ')}], cut ${bestCut(w, rows)}`);
}

// The shipped decision alone (isStandingTurn), before the writer.
const dec = prf(
  rows.filter((e) => isStandingTurn(text(e))),
  pos,
);
console.log(
  `shipped isStandingTurn: precision ${f(dec.p)}, recall ${f(dec.r)} (${dec.right} of ${dec.said} said standing)`,
);
// Before this change: any sentence `extractInstruction(…, { rulesOnly: true })` found was kept.
const before = prf(
  rows.filter((e) => extractInstruction(text(e), { rulesOnly: true }) !== undefined),
  pos,
);
console.log(
  `extractInstruction rulesOnly alone (no decision, no grammar check): precision ${f(before.p)}, recall ${f(before.r)} (${before.right} of ${before.said})`,
);
// The shipped pipeline: the decision, then the writer (no key point when either says no).
const out = rows.map((e) => ({ e, k: writeKeyPoint(text(e)) }));
const said = out.filter((o) => o.k !== undefined);
const m = prf(
  said.map((o) => o.e),
  pos,
);
console.log(
  `shipped writeKeyPoint: a key point for ${m.said} rows, ${m.right} of them standing: precision ${f(m.p)}, recall ${f(m.r)}`,
);
const withRef = said.filter((o) => o.e.standing && o.e.instruction);
const ov = withRef.map((o) => overlap(o.k!, o.e.instruction!));
// A turn proposes one key point per standing instruction (`writeKeyPoints`); the reader wrote one
// sentence for the turn, so the turn's key points together are compared with it too.
const turnKeyPoints = withRef.map((o) => writeKeyPoints(text(o.e)));
const ovAll = withRef.map((o, i) => overlap(turnKeyPoints[i]!.join(' '), o.e.instruction!));
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
console.log(
  `content-word overlap (F1) with the reader's instruction, over ${withRef.length} standing rows with a key point: first key point ${f(mean(ov))}, all of the turn's ${f(mean(ovAll))} (${turnKeyPoints.reduce((n, k) => n + k.length, 0)} key points)`,
);
const ref = rows.filter((e) => e.standing && e.instruction);
console.log(
  `reader instructions of the ${ref.length} standing rows: ${ref.filter((e) => /^[\p{Lu}]/u.test(e.instruction!)).length} start upper-case (sanity); rows whose turn is not English: ${ref.filter((e) => e.lang !== 'en').length}`,
);
// As if the detector had flagged every turn of the split (labelled none, approval and friction too):
// how many key points the writer alone proposes, and how many sit on a turn with a standing rule.
const turns = OLD_FINAL ? [] : every.filter((e) => e.split === (FINAL ? 'strangers-final' : 'strangers'));
const anyK = turns.filter((e) => writeKeyPoint(text(e)) !== undefined);
console.log(
  `writer over all ${turns.length} distinct turns of the split: ${anyK.length} key points, ${anyK.filter((e) => e.standing).length} on turns the reader marked standing, ${anyK.filter((e) => e.standing === null).length} on turns labelled neither correction nor preference`,
);
if (SHOW && !FINAL && !OLD_FINAL) {
  for (const o of said)
    console.log(`${o.e.standing ? 'STANDING' : 'one-off '} | ${o.k} | ${o.e.instruction ?? ''}`);
}
if (process.argv.includes('--show-all'))
  for (const e of anyK)
    console.log(
      `${e.standing ? 'S' : e.standing === null ? '-' : 'o'} ${e.labels.join(',') || 'none'} | ${writeKeyPoint(text(e))} || ${text(e).slice(0, 160).replace(/\s+/g, ' ')}`,
    );

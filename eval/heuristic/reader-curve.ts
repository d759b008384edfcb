/**
 * `npx tsx eval/heuristic/reader-curve.ts`: the reader's precision-recall curve on authors it never
 * saw, threshold-free: each pool turn's logit from a model trained without its author (the 5 author
 * folds of reader-train.ts), then, per category on the `strangers` rows, the average precision and the
 * best recall at precision 0.80 / 0.85 / 0.90. It says how far the learned reader is from issue 38's
 * targets whatever threshold is chosen (the shipped threshold is chosen on inner folds, so it can only
 * do worse). Never reads `strangers-final`. `READER_CURVE_FRACTION` (0–1) trains each fold on that share
 * of its authors, for the learning curve; `READER_CURVE_TRAIN=strangers` on the strangers rows only.
 */
import { fnv1a32 } from '../../lib/core/index';
import { rankingCurve } from './curve';
import { CATEGORIES } from './data';
import { type Example, syntheticExamples } from './reader-data';
import { loadPool, logits, memoFeats, train } from './reader-train';

const FOLDS = 5;
const foldOf = (author: string) => fnv1a32(`fold#${author}`) % FOLDS;
const pool = loadPool().pool;
// READER_CURVE_TRAIN=strangers trains on the strangers rows only (no ShareGPT, console or aider turns).
const trainOn = (e: Example) => process.env.READER_CURVE_TRAIN !== 'strangers' || e.id.startsWith('s:');
// READER_CURVE_FRACTION=0.5 keeps that share of each fold's training authors (the learning curve).
const fraction = Number(process.env.READER_CURVE_FRACTION ?? 1);
// READER_CURVE_SYNTH=a.jsonl,b.jsonl adds invented turns to every fold's training rows (never scored).
const synthetic = process.env.READER_CURVE_SYNTH
  ? syntheticExamples(process.env.READER_CURVE_SYNTH.split(',')).filter((e) => e.evidence !== undefined)
  : [];
if (synthetic.length) console.error(`${synthetic.length} synthetic turns added to training`);
const kept = (e: Example) => fnv1a32(`curve#${e.author}`) % 100 < fraction * 100;
const feats = memoFeats();
const z = new Map<Example, number[]>();
for (let k = 0; k < FOLDS; k++) {
  const m = train(
    [...pool.filter((e) => foldOf(e.author) !== k && trainOn(e) && kept(e)), ...synthetic],
    feats,
  );
  for (const e of pool.filter((x) => foldOf(x.author) === k)) z.set(e, logits(m, feats(e)));
}

/** Average precision, and the best recall whose precision reaches each target. */
function curve(rows: readonly Example[], c: number) {
  const cat = CATEGORIES[c]!;
  const { positives, ap, recallAt } = rankingCurve(
    rows.map((e) => ({ s: z.get(e)![c]!, y: e.labels.includes(cat) })),
    ['0.80', '0.85', '0.90'],
  );
  return { cat, positives, rows: rows.length, ap: Number(ap.toFixed(3)), recallAtPrecision: recallAt };
}

const strangers = pool.filter((e) => e.id.startsWith('s:'));
const older = pool.filter((e) => !e.id.startsWith('s:'));
for (const [name, rows] of [
  ['strangers rows', strangers],
  ['older sets', older],
] as const) {
  console.log(`## ${name}`);
  for (let c = 0; c < CATEGORIES.length; c++) console.log(JSON.stringify(curve(rows, c)));
}

/**
 * `npx tsx eval/snapshot/notes-reader-strangers2.ts [--final]` (issue 39): with 1,199 blind-labelled
 * sentences of strangers' prose (`strangers-notes`, 438, and `strangers-notes-2`, 761, the same 64
 * authors), does a reader trained on strangers' prose beat today's rules on strangers it never saw?
 *
 * Design, fixed before any figure:
 * - Pool: every entry of both sets whose author is in the `strangers` split (42 authors). Five folds by
 *   `fnv1a32('notes-reader-strangers2#' + author) % 5`: each fold is predicted by models trained on the
 *   older labelled sets (notes-reader-data.ts, outside their kept-apart groups) plus the other four
 *   folds' strangers, repeated 0, 1 or 3 times. Every figure is on authors the model never saw.
 * - Kept apart: `strangers-notes-2` entries of the 22 `strangers-final` authors (264; labelled in this
 *   round, never read by any rule or model). `--final` trains the setting the pooled fold accuracy chose
 *   on the older sets plus the whole pool and scores them, once.
 * - Baselines in the same run: today's rules and the keyword reader.
 * - Learning curve: the chosen setting with 25, 50 and 100% of each fold's training authors.
 *
 * Results (2 December 2026; machine shared, load ~10; 4-18 min):
 * - Before the rules for other languages (lib/categorise/languages.ts), pool out of fold (n 784, hard
 *   248): today's rules 66.8 / 39.1; keyword 57.7 / 29.0; best model `all` L2 0.01 x3 69.1 / 46.0;
 *   `words` at best 65.6; with `--libs`: `all+wink` 68.9, `all+compromise` 69.1 (no gain). Learning
 *   curve 67.7 / 69.3 / 69.1 at 25 / 50 / 100%.
 * - The languages table was then written from the pool's misses (44 of its 114 missed next actions were
 *   Chinese, Spanish, Russian or Vietnamese), so the pool's figures below are tuned for the rules.
 * - After it, pool: today 71.3 / 39.1; best model `all` L2 0.01 x1 73.1 / 46.4; learning curve 72.7 /
 *   73.1 / 73.1. Chosen: `all` L2 0.01 x1.
 * - Kept apart, scored once (n 264, hard 64; 22 authors): today 76.5 / 34.4 (75.8 before the languages
 *   table, 21 entries with foreign letters 66.7 → 76.2); model 76.1 / 32.8; keyword 62.5 / 23.4.
 *   Precision, today: hypotheses 100 (4/4), blockers 45.0, next actions 84.5, questions 100 (1/1),
 *   evidence 75.0, none 74.6.
 * Verdict: 1,199 strangers' labels lift the model by 1-2 points over the rules where it is scored out of
 * fold, and not at all where it is kept apart; the curve is flat from half the labels. More labels of
 * this kind will not reach 88%: the misses are blockers read as nothing (13 of 25 kept apart) and
 * done-reports read as problems or steps, which the labels' own readers disagree on most.
 */
import { type NoteFeatureSet, noteFeatures } from '../../lib/categorise-model/index.js';
import { fnv1a32 } from '../../lib/core/index.js';
import { type GroupedEntry, groupOf, labelledDraw, loadGrouped } from './notes-reader-data.js';
import { compromiseFeatures, winkFeatures } from './notes-reader-libs.js';
import { type IntModel, predict } from './notes-reader-model.js';
import { type Row, summarise, table } from './notes-reader-report.js';
import { fitRows, rowOf } from './notes-reader-ship.js';
import { keywordCategorizer, LABELS, type Label, snapshotCategorizer } from './score.js';
import { NOTES2_ENTRIES } from './sets/strangers-notes-2/sample.js';

type Entry = GroupedEntry & { author: string; split: string };

const FINAL = process.argv.includes('--final');
/** `--libs` adds a language library's tags to every own feature (notes-reader-libs.ts), measured after the first run. */
const LIBS = process.argv.includes('--libs');
type FeatureSet = NoteFeatureSet | 'all+wink' | 'all+compromise';
const SETS: readonly FeatureSet[] = [
  'rules',
  'words',
  'all',
  ...(LIBS ? (['all+wink', 'all+compromise'] as const) : []),
];
const LIB: Record<string, (text: string) => string[]> = {
  wink: winkFeatures,
  compromise: compromiseFeatures,
};
const L2S = [0.01, 0.03, 0.1, 0.3];
const EPOCHS = 10;
const REPEATS = [0, 1, 3];

function notes2(): Entry[] {
  return labelledDraw('strangers-notes-2', NOTES2_ENTRIES).map((e) => ({
    ...e,
    set: 'strangers-notes-2',
    group: groupOf(e),
    keptApart: e.split === 'strangers-final',
  }));
}

const all = loadGrouped();
const older = all.filter((e) => !e.keptApart);
const first = all.filter((e) => e.set === 'strangers-notes') as Entry[];
const second = notes2();
const pool = [...first, ...second].filter((e) => e.split === 'strangers');
const apart = second.filter((e) => e.split === 'strangers-final');
const foldOf = (e: Entry) => fnv1a32(`notes-reader-strangers2#${e.author}`) % 5;
const pct = (x: number) => (x * 100).toFixed(1);

const featureCache = new Map<FeatureSet, Map<string, Int32Array>>();
function featuresOf(text: string, fs: FeatureSet): string[] {
  const plus = fs.indexOf('+');
  return plus < 0
    ? noteFeatures(text, fs as NoteFeatureSet)
    : noteFeatures(text, 'all').concat(LIB[fs.slice(plus + 1)]!(text));
}

function row(e: GroupedEntry, fs: FeatureSet): Int32Array {
  const m = featureCache.get(fs) ?? new Map<string, Int32Array>();
  featureCache.set(fs, m);
  const r = m.get(e.text) ?? rowOf(featuresOf(e.text, fs));
  m.set(e.text, r);
  return r;
}

function fitModel(trainSet: readonly GroupedEntry[], fs: FeatureSet, l2: number): IntModel {
  return fitRows(trainSet, (e) => row(e, fs), l2, EPOCHS);
}

const trainingOf = (fold: number, repeat: number, share = 1): GroupedEntry[] => {
  const others = pool.filter((e) => foldOf(e) !== fold && fnv1a32(`curve#${e.author}`) % 100 < share * 100);
  return [...older, ...Array.from({ length: repeat }, () => others).flat()];
};

/** Out-of-fold predictions over the pool for one setting. */
function outOfFold(fs: FeatureSet, l2: number, repeat: number, share = 1): Label[] {
  const pred = new Array<Label>(pool.length);
  const fixed = repeat === 0 ? fitModel(older, fs, l2) : undefined;
  for (let f = 0; f < 5; f++) {
    const m = fixed ?? fitModel(trainingOf(f, repeat, share), fs, l2);
    pool.forEach((e, i) => {
      if (foldOf(e) === f) pred[i] = LABELS[predict(m, row(e, fs))]!;
    });
  }
  return pred;
}

const rowsOf = (es: readonly Entry[], pred: readonly Label[]): Row[] =>
  es.map((e, i) => ({ label: e.label, pred: pred[i]!, hard: e.hard, group: e.kind }));

console.log(
  `strangers' notes, round 2: pool ${pool.length} entries of ${new Set(pool.map((e) => e.author)).size} authors ` +
    `(${first.filter((e) => e.split === 'strangers').length} first set, ${second.filter((e) => e.split === 'strangers').length} second); ` +
    `older sets ${older.length}; kept apart ${apart.length} of ${new Set(apart.map((e) => e.author)).size} authors`,
);

const summaries: Record<string, ReturnType<typeof summarise>> = {
  today: summarise(
    rowsOf(
      pool,
      pool.map((e) => snapshotCategorizer(e.text)),
    ),
  ),
  keyword: summarise(
    rowsOf(
      pool,
      pool.map((e) => keywordCategorizer(e.text)),
    ),
  ),
};
let best = { name: '', fs: 'rules' as FeatureSet, l2: 0, repeat: 0, acc: -1 };
for (const fs of SETS)
  for (const l2 of L2S)
    for (const repeat of REPEATS) {
      const name = `${fs} l2 ${l2} x${repeat}`;
      const s = summarise(rowsOf(pool, outOfFold(fs, l2, repeat)));
      summaries[name] = s;
      console.log(`  ${name}: ${pct(s.accuracy)} / hard ${pct(s.hardAccuracy)}`);
      if (s.accuracy > best.acc) best = { name, fs, l2, repeat, acc: s.accuracy };
    }
const kinds = [...new Set(pool.map((e) => e.kind))].sort();
const shown = [
  'today',
  'keyword',
  ...SETS.flatMap((fs) => REPEATS.map((r) => `${fs} l2 ${best.fs === fs ? best.l2 : 0.3} x${r}`)),
];
console.log(`\n## pool, out of fold (by source kind)\n`);
console.log(
  table(Object.fromEntries(shown.filter((n) => summaries[n]).map((n) => [n, summaries[n]!])), kinds),
);
console.log(`\nchosen by pooled fold accuracy: ${best.name} (${pct(best.acc)}%)`);

console.log('\n## learning curve (chosen setting; share of each fold’s training authors)');
for (const share of [0.25, 0.5, 1]) {
  const s = summarise(rowsOf(pool, outOfFold(best.fs, best.l2, Math.max(1, best.repeat), share)));
  console.log(`  ${share * 100}%: ${pct(s.accuracy)} / hard ${pct(s.hardAccuracy)}`);
}

if (FINAL) {
  const m = fitModel(
    [...older, ...Array.from({ length: Math.max(1, best.repeat) }, () => pool).flat()],
    best.fs,
    best.l2,
  );
  const finals: Record<string, ReturnType<typeof summarise>> = {
    today: summarise(
      rowsOf(
        apart,
        apart.map((e) => snapshotCategorizer(e.text)),
      ),
    ),
    keyword: summarise(
      rowsOf(
        apart,
        apart.map((e) => keywordCategorizer(e.text)),
      ),
    ),
    [`model ${best.name}`]: summarise(
      rowsOf(
        apart,
        apart.map((e) => LABELS[predict(m, row(e, best.fs))]!),
      ),
    ),
  };
  console.log(`\n## kept apart, scored once (n ${apart.length})\n`);
  console.log(table(finals, [...new Set(apart.map((e) => e.kind))].sort()));
}

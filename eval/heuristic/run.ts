/**
 * `npm run eval:heuristic` (`npx tsx eval/heuristic/run.ts`): precision, recall and F1 per category of
 * (a) the seed's substring markers and (b) rearview's detector on the labelled real user turns in
 * labelled-turns*.jsonl (see LABELLING.md). The headline is the `final` set: labelled blind by a reader
 * who never saw the detector, and never used for tuning. `fresh`, `test` and `tune` were tuned on (in
 * that order of spending) and are secondary, `all` is every set. Prints one JSON document; `--table`
 * adds a text table on stderr, `--errors` lists the detector's misses and false alarms on the sets it
 * was tuned on (never on `final`).
 */
import { readdirSync } from 'node:fs';
import { classifyTurn } from '../../lib/heuristic/index';
import { agreement } from './agreement';
import { readRows } from './rows';
import { seedClassify } from './seed-naive';

export type Category = 'correction' | 'preference' | 'friction';
export const CATEGORIES: Category[] = ['correction', 'preference', 'friction'];
type Split = 'final' | 'fresh' | 'test' | 'tune' | 'all';

export interface Row {
  n: number;
  source: string;
  split: 'tune' | 'test' | 'fresh' | 'final';
  labels: Category[];
  text: string;
}

interface Scores {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function score(rows: Row[], predict: (r: Row) => Record<Category, boolean>, cat: Category): Scores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const r of rows) {
    const truth = r.labels.includes(cat);
    const said = predict(r)[cat];
    if (said && truth) tp++;
    else if (said) fp++;
    else if (truth) fn++;
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { tp, fp, fn, precision: round(precision), recall: round(recall), f1: round(f1), support: tp + fn };
}

/** The first set (460 turns, splits `tune` and `test`). */
export function loadRows(): Row[] {
  return readRows('labelled-turns.jsonl');
}

/** Every labelled set in this folder. */
export function loadLabelledSets(): Row[] {
  const dir = import.meta.dirname ?? new URL('.', import.meta.url).pathname;
  return readdirSync(dir)
    .filter((f) => /^labelled-turns.*\.jsonl$/.test(f))
    .sort()
    .flatMap((f) => readRows<Row>(f));
}

/** The fresh held-out set (240 turns, split `fresh`), labelled blind after the detector was built. */
export function loadFreshRows(): Row[] {
  return readRows('labelled-turns-fresh.jsonl');
}

export function evaluate(rows: Row[] = loadLabelledSets()) {
  const detectors = {
    seed: (r: Row) => seedClassify(r.text),
    rearview: (r: Row) => classifyTurn(r.text),
  };
  const splits: Record<Split, Row[]> = {
    final: rows.filter((r) => r.split === 'final'),
    fresh: rows.filter((r) => r.split === 'fresh'),
    test: rows.filter((r) => r.split === 'test'),
    tune: rows.filter((r) => r.split === 'tune'),
    all: rows,
  };
  const results: Record<string, Record<string, Record<string, Scores>>> = {};
  for (const [split, subset] of Object.entries(splits)) {
    results[split] = {};
    for (const [name, predict] of Object.entries(detectors)) {
      results[split]![name] = Object.fromEntries(CATEGORIES.map((c) => [c, score(subset, predict, c)]));
    }
  }
  const test = results.final!.rearview!;
  const targets = {
    correctionF1AtLeast0_8: test.correction!.f1 >= 0.8,
    precisionAtLeast0_85: CATEGORIES.every((c) => test[c]!.precision >= 0.85),
  };
  return {
    turns: rows.length,
    counts: Object.fromEntries(
      Object.entries(splits).map(([s, subset]) => [
        s,
        Object.fromEntries([
          ['turns', subset.length],
          ...CATEGORIES.map((c) => [c, subset.filter((r) => r.labels.includes(c)).length]),
        ]),
      ]),
    ),
    results,
    targets,
  };
}

function table(report: ReturnType<typeof evaluate>): string {
  const lines = ['split  detector  category    P      R      F1     (tp/fp/fn)'];
  for (const [split, byDetector] of Object.entries(report.results)) {
    for (const [name, byCat] of Object.entries(byDetector)) {
      for (const [cat, s] of Object.entries(byCat)) {
        lines.push(
          `${split.padEnd(6)} ${name.padEnd(9)} ${cat.padEnd(11)} ${s.precision.toFixed(3)}  ${s.recall.toFixed(3)}  ${s.f1.toFixed(3)}  (${s.tp}/${s.fp}/${s.fn})`,
        );
      }
    }
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = loadLabelledSets();
  const report = evaluate(rows);
  // How far two human readers agree on 200 of the same turns: the ceiling for the figures above.
  console.log(JSON.stringify({ ...report, humanAgreement: agreement() }, null, 2));
  if (process.argv.includes('--table')) console.error(table(report));
  if (process.argv.includes('--errors')) {
    for (const r of rows.filter((x) => x.split !== 'final')) {
      const got = classifyTurn(r.text);
      for (const c of CATEGORIES) {
        const truth = r.labels.includes(c);
        if (got[c] !== truth) {
          console.error(`${truth ? 'MISS' : 'FALSE'} ${c} #${r.n}: ${JSON.stringify(r.text.slice(0, 160))}`);
        }
      }
    }
  }
}

/**
 * `npm run eval:heuristic` (`npx tsx eval/heuristic/run.ts`): how rearview's detector and the seed's
 * substring markers do on labelled real user turns (sets/<name>/turns.jsonl, see LABELLING.md), per
 * category, in one run:
 *
 * - `crossAuthor`: grouped k-fold by author (leave-authors-out). In each fold `minScore` is chosen on
 *   the other folds' authors (the smallest threshold with precision ≥ 0.85 in every category), and the
 *   fold's own authors are scored with it; the figures pool those held-out predictions. The headline
 *   is its `aider` part: the aider authors were never used to choose a marker (the markers were fitted
 *   on the console and ShareGPT sets before the aider set existed), and in each fold not for the
 *   threshold either.
 * - `byFamily`: the same held-out predictions per source family (console, ShareGPT, aider), beside the
 *   seed's markers.
 * - `byLanguage`: recall per language on the aider set (default markers and with `withLanguages`).
 * - `escalation`: the fraction of turns whose score falls in the uncertain band `llmReflect`
 *   (`rearview/llm-reflect`) would send to the model.
 * - `splits`: the older per-split figures at the default `minScore`.
 *
 * The held-out sets (`final`, `aider-final`, `more`, `last`) are in no fold. `aider-final` is scored
 * only with `--final` and `last` only with `--last` (once each, at the end; LABELLING.md records when). `--table` prints a text summary on stderr.
 */
import { fnv1a32 } from '../../lib/core/index';
import {
  classifyTurn,
  compileMarkers,
  DEFAULT_ESCALATION_BAND,
  DEFAULT_MARKERS,
  DEFAULT_MIN_SCORE,
  type MessageLike,
  scoreTurns,
  type TurnScores,
} from '../../lib/heuristic/index';
import { withLanguages } from '../../lib/heuristic/languages';
import { SCORES, signalKinds, turnScores } from '../../lib/heuristic/score';
import { seedClassify } from '../../tools/shared/seed-naive';
import { agreement } from './agreement';
import {
  authorOf,
  CATEGORIES,
  type Category,
  contextOf,
  type Family,
  familyOf,
  HELD_OUT,
  loadLabelledSets,
  type Row,
} from './data';

export { CATEGORIES, type Category, loadLabelledSets, type Row } from './data';

export interface Scores {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
/** Thresholds tried for `minScore` (the detector's scores take only a few values). */
export const GRID = [0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
export const TARGET_PRECISION = 0.85;
const FOLDS = 5;

export type Predict = (r: Row) => Record<Category, boolean>;

export function score(rows: readonly Row[], predict: Predict, cat: Category): Scores {
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

const allCategories = (rows: readonly Row[], predict: Predict) =>
  Object.fromEntries(CATEGORIES.map((c) => [c, score(rows, predict, c)])) as Record<Category, Scores>;

const defaultCompiled = compileMarkers(DEFAULT_MARKERS);
const languageCompiled = compileMarkers(withLanguages(DEFAULT_MARKERS));

/** What the detector reads in a row's turn: its signal bits and context bits, in its conversation. */
export interface Signals {
  bits: number;
  context: number;
}

/** The row's turn read in its conversation, as `heuristicReflect` reads it. */
export function signalsOf(r: Row, languages = false): Signals {
  const messages: MessageLike[] = contextOf(r);
  let last: Signals = { bits: 0, context: 0 };
  const markers = languages ? languageCompiled : defaultCompiled;
  scoreTurns(messages, { markers }, (turn) => {
    last =
      turn.index === messages.length - 1
        ? { bits: turn.bits, context: turn.context }
        : { bits: 0, context: 0 };
  });
  return last;
}

/** The a-priori score of each kind of evidence, used for a kind no training turn shows. */
const PRIOR = [0.9, 0.95, 0.65, 0.85, 0.7, 0.95, 0.85, 0.85, 0.4, 0.8, 0.9, 0.5, 0.85];

/** Per kind of evidence, its precision on `rows`, shrunk towards a prior worth two turns, two decimals. */
export function calibrate(rows: readonly Row[], signals: (r: Row) => Signals): number[] {
  const n = PRIOR.map(() => 0);
  const tp = PRIOR.map(() => 0);
  for (const r of rows) {
    const { bits, context } = signals(r);
    signalKinds(bits, context).forEach((k, ci) => {
      if (k < 0) return;
      n[k]!++;
      if (r.labels.includes(CATEGORIES[ci]!)) tp[k]!++;
    });
  }
  // Shrunk towards a prior worth two turns: 0.5 for a kind of its own, the calibrated score of the same
  // evidence without the context for a kind that adds context (few turns carry an interruption), or
  // that narrows it (a preference stating a rule in a short turn).
  const out = PRIOR.map(() => 0);
  for (const k of [0, 2, 4, 5, 6, 7, 8, 9, 11, 1, 3, 10, 12]) {
    const prior = k === 1 ? out[0]! : k === 3 ? out[2]! : k === 10 ? out[9]! : k === 12 ? out[6]! : 0.5;
    out[k] = n[k] === 0 ? PRIOR[k]! : Math.round(((tp[k]! + 2 * prior) / (n[k]! + 2)) * 100) / 100;
  }
  return out;
}

const at = (s: TurnScores, t: number): Record<Category, boolean> => ({
  correction: s.correction > 0 && s.correction >= t,
  preference: s.preference > 0 && s.preference >= t,
  approval: s.approval > 0 && s.approval >= t,
  friction: s.friction > 0 && s.friction >= t,
});

/** The seed's markers: its preference list holds its approvals, which count as `approval` here. */
export function seedPredict(r: Row): Record<Category, boolean> {
  const s = seedClassify(r.text);
  const approval = classifyTurn(r.text, { ...EMPTY, positive: SEED_POSITIVE }).approval;
  return { correction: s.correction, preference: s.preference && !approval, approval, friction: s.friction };
}
const EMPTY = { correction: [], challenge: [], preference: [], positive: [], friction: [] };
const SEED_POSITIVE = ['good job', 'yes exactly', 'perfect', "that's right", 'keep doing'];

/** The smallest threshold whose predictions on `rows` have precision ≥ the target in every category. */
export function chooseMinScore(rows: readonly Row[], scoresFor: (r: Row) => TurnScores): number {
  for (const t of GRID) {
    const predict = (r: Row) => at(scoresFor(r), t);
    if (CATEGORIES.every((c) => score(rows, predict, c).precision >= TARGET_PRECISION)) return t;
  }
  return GRID[GRID.length - 1]!;
}

const foldOf = (author: string) => fnv1a32(`fold#${author}`) % FOLDS;

export function evaluate(
  rows: Row[] = loadLabelledSets(),
  options: { final?: boolean; last?: boolean } = {},
) {
  const memoised = (languages: boolean) => {
    const memo = new Map<Row, Signals>();
    return (r: Row): Signals => {
      const known = memo.get(r);
      if (known) return known;
      const s = signalsOf(r, languages);
      memo.set(r, s);
      return s;
    };
  };
  const signals = memoised(false);
  const signalsLang = memoised(true);
  const withTable = (table: readonly number[], sig: (r: Row) => Signals) => (r: Row) => {
    const { bits, context } = sig(r);
    return turnScores(bits, context, table);
  };
  /** The shipped detector: `SCORES` and `DEFAULT_MIN_SCORE`. */
  const scored = withTable(SCORES, signals);
  const pool = rows.filter((r) => !HELD_OUT.has(r.split));

  // Leave-authors-out: each fold's scores and threshold are chosen without its authors.
  const heldOut = new Map<Row, Record<Category, boolean>>();
  const heldOutLang = new Map<Row, Record<Category, boolean>>();
  const folds = [];
  for (let k = 0; k < FOLDS; k++) {
    const test = pool.filter((r) => foldOf(authorOf(r)) === k);
    const train = pool.filter((r) => foldOf(authorOf(r)) !== k);
    const table = calibrate(train, signals);
    const t = chooseMinScore(train, withTable(table, signals));
    for (const r of test) {
      heldOut.set(r, at(withTable(table, signals)(r), t));
      heldOutLang.set(r, at(withTable(table, signalsLang)(r), t));
    }
    folds.push({
      fold: k,
      minScore: t,
      scores: table,
      testAuthors: new Set(test.map(authorOf)).size,
      testTurns: test.length,
    });
  }
  const shipped = (r: Row) => at(scored(r), DEFAULT_MIN_SCORE);
  const crossPredict: Predict = (r) => heldOut.get(r) ?? shipped(r);
  const crossLang: Predict = (r) =>
    heldOutLang.get(r) ?? at(withTable(SCORES, signalsLang)(r), DEFAULT_MIN_SCORE);
  const family = (f: Family) => pool.filter((r) => familyOf(r) === f);
  const aider = family('aider');
  const crossAuthor = {
    headline: {
      rows: aider.length,
      authors: new Set(aider.map(authorOf)).size,
      rearview: allCategories(aider, crossPredict),
      withLanguages: allCategories(aider, crossLang),
      seed: allCategories(aider, seedPredict),
    },
    allFamilies: {
      rows: pool.length,
      authors: new Set(pool.map(authorOf)).size,
      rearview: allCategories(pool, crossPredict),
      seed: allCategories(pool, seedPredict),
    },
    folds,
  };
  const byFamily = Object.fromEntries(
    (['console', 'sharegpt', 'aider'] as Family[]).map((f) => [
      f,
      {
        rows: family(f).length,
        rearview: allCategories(family(f), crossPredict),
        seed: allCategories(family(f), seedPredict),
      },
    ]),
  );
  // What the library ships: the scores and threshold calibrated on every author of the pool.
  const calibrated = calibrate(pool, signals);
  const chosen = chooseMinScore(pool, withTable(calibrated, signals));

  // Per language, on the aider rows (held-out predictions; `--final` adds the held-out authors).
  const aiderRows = rows.filter((r) => r.split === 'aider' || (options.final && r.split === 'aider-final'));
  const byLanguage: Record<string, unknown> = {};
  for (const lang of [...new Set(aiderRows.map((r) => r.lang ?? 'en'))].sort()) {
    const subset = aiderRows.filter((r) => (r.lang ?? 'en') === lang);
    byLanguage[lang] = {
      turns: subset.length,
      corrections: subset.filter((r) => r.labels.includes('correction')).length,
      default: score(subset, crossPredict, 'correction'),
      withLanguages: score(subset, crossLang, 'correction'),
      seed: score(subset, seedPredict, 'correction'),
    };
  }

  // Escalation: turns with some score in the uncertain band, over every labelled turn read here.
  const readable = rows.filter(
    (r) => (options.final || r.split !== 'aider-final') && (options.last || r.split !== 'last'),
  );
  const [lo, hi] = DEFAULT_ESCALATION_BAND;
  const escalated = readable.filter((r) => {
    const s = scored(r);
    return CATEGORIES.some((c) => s[c] >= lo && s[c] < hi);
  }).length;

  const splits: Record<string, unknown> = {};
  for (const split of [
    'final',
    'fresh',
    'test',
    'tune',
    'aider',
    'more',
    ...(options.final ? ['aider-final'] : []),
    ...(options.last ? ['last'] : []),
  ]) {
    const subset = rows.filter((r) => r.split === split);
    splits[split] = {
      turns: subset.length,
      rearview: allCategories(subset, (r) => at(scored(r), DEFAULT_MIN_SCORE)),
      seed: allCategories(subset, seedPredict),
    };
  }
  const headline = crossAuthor.headline.rearview;
  return {
    turns: rows.length,
    shipped: { scores: SCORES, minScore: DEFAULT_MIN_SCORE },
    calibratedOnPool: { scores: calibrated, minScore: chosen },
    counts: Object.fromEntries(
      Object.entries(splits).map(([s]) => [
        s,
        Object.fromEntries([
          ['turns', rows.filter((r) => r.split === s).length],
          ...CATEGORIES.map((c) => [c, rows.filter((r) => r.split === s && r.labels.includes(c)).length]),
        ]),
      ]),
    ),
    crossAuthor,
    byFamily,
    byLanguage,
    escalation: {
      band: DEFAULT_ESCALATION_BAND,
      turns: readable.length,
      escalated,
      fraction: round(escalated / readable.length),
    },
    splits,
    targets: {
      correctionPrecisionAtLeast0_85: headline.correction.precision >= 0.85,
      correctionRecallAtLeast0_5: headline.correction.recall >= 0.5,
      precisionAtLeast0_85: CATEGORIES.every(
        (c) => headline[c].support === 0 || headline[c].precision >= 0.85,
      ),
    },
  };
}

function line(name: string, s: Record<Category, Scores>): string[] {
  return CATEGORIES.map(
    (c) =>
      `${name.padEnd(28)} ${c.padEnd(11)} ${s[c].precision.toFixed(3)}  ${s[c].recall.toFixed(3)}  ${s[c].f1.toFixed(3)}  (${s[c].tp}/${s[c].fp}/${s[c].fn})`,
  );
}

function table(report: ReturnType<typeof evaluate>): string {
  const out = ['set / detector               category    P      R      F1     (tp/fp/fn)'];
  const { headline, allFamilies } = report.crossAuthor;
  out.push(
    ...line('cross-author aider rearview', headline.rearview),
    ...line('cross-author aider seed', headline.seed),
  );
  out.push(
    ...line('cross-author all rearview', allFamilies.rearview),
    ...line('cross-author all seed', allFamilies.seed),
  );
  for (const [f, v] of Object.entries(report.byFamily)) {
    out.push(...line(`${f} rearview`, v.rearview), ...line(`${f} seed`, v.seed));
  }
  for (const [s, v] of Object.entries(report.splits) as [
    string,
    { rearview: Record<Category, Scores>; seed: Record<Category, Scores> },
  ][]) {
    out.push(...line(`split ${s} rearview`, v.rearview), ...line(`split ${s} seed`, v.seed));
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = loadLabelledSets();
  const report = evaluate(rows, {
    final: process.argv.includes('--final'),
    last: process.argv.includes('--last'),
  });
  // The learned correction model (`rearview/heuristic-model`), leave-authors-out in the same folds.
  // Loaded after this module has finished evaluating: learned.ts imports it (no top-level await cycle).
  void import('./learned').then(({ evaluate: evaluateLearned }) => {
    const learned = evaluateLearned(rows, {
      final: process.argv.includes('--final'),
      last: process.argv.includes('--last'),
    });
    // How far two human readers agree on 200 of the same turns: the ceiling for the figures above.
    console.log(JSON.stringify({ ...report, learned, humanAgreement: agreement() }, null, 2));
    if (process.argv.includes('--table')) {
      const lines = [
        table(report),
        'learned correction model (rearview/heuristic-model), leave-authors-out:',
      ];
      for (const [name, c] of Object.entries(learned.table))
        lines.push(
          `${name.padEnd(40)} ${c.precision.toFixed(3)}  ${c.recall.toFixed(3)}  ${c.f1.toFixed(3)}  (${c.tp}/${c.fp}/${c.fn})`,
        );
      console.error(lines.join('\n'));
    }
  });
}

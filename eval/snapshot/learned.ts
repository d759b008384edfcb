/**
 * `npx tsx eval/snapshot/learned.ts`: does a small learned component over non-topical
 * features beat the snapshot's hand-written rules on sources it was not fitted to? An experiment,
 * nothing here ships.
 *
 * Data: sets 1–4 of eval/snapshot/, 1,370 labelled entries: sets 1–2 (sets/1/ +
 * sets/2/, 850, six source kinds) and the report-kind sets 3 and 4 (sets/3/, sets/4/,
 * 260 each, loadReportLabels(3/4)), which add to the three report kinds (mini-swe-agent, console-agent,
 * console-summary). An entry's kind is its source kind whatever its set. Set 5 and later are never
 * loaded. Only aggregates are printed; no entry of a report kind is ever listed.
 *
 * Two groupings, both with nested CV; rules, model and hybrid scored per fold and pooled, with
 * accuracy, hard accuracy (n), per-category precision/recall, and the entries only the challenger /
 * only the rules get right (+b/−c) with a two-sided exact sign test:
 * 1. Leave-one-kind-out: train on five kinds (all their sets), predict the sixth; inner selection by
 *    leave-one-kind-out over the five training kinds. The report-kind pool is also split by set.
 * 2. Leave-one-set-out over the report kinds: hold out the report part of sets 1–2, set 3 or set 4;
 *    train on everything else (tune kinds + the other sets' report entries); inner selection by
 *    holding out each of the two other sets' report parts in turn.
 * Also: the model trained on the tune kinds only (inner: leave-one-tune-kind-out), on the report kinds.
 *
 * Features (learned-features.ts, all named, none hashed): the rules' category one-hot and `resolved`
 * bit; the cue-set bits of lib/snapshot/cues.ts; presence of each word of a closed list (cues.ts
 * `SETS` + `CODES` + 48 function words); first/second token (closed-list word or shape class);
 * `-ed`/`-ing`/`-s` endings of the first words; punctuation (end `?` `:` `!` `.`, backticks, share of
 * text in backticks and in paths, URL, file:line, non-ASCII letters); word-count bins.
 * Model (learned-model.ts): softmax regression, L2, full-batch Nesterov steps from zero: deterministic.
 * Hybrid: the rules' answer, unless the model's top class beats the rules' class by a probability
 * margin > t. Settings: for each outer fold every grid point is scored by the inner folds only
 * (criterion: mean inner accuracy, ties to the earlier grid entry), the best is refit on the whole
 * training part; model and hybrid choose separately (the hybrid also chooses t). Grid unchanged from
 * the first run: feature sets {minimal: rule pos punct len; compact: + cue suffix; full: + word;
 * noRule: full without rule}, L2 {0.001, 0.003, 0.01, 0.03}, steps {25, 75, 200}, t {0, 0.1 … 0.9, never}.
 *
 * Runs and verdicts: eval/snapshot/LEARNED.md.
 *
 * Flags: `--tune-only` prints the tune-kind folds only; `--json` prints only the JSON blob;
 * `--sets-5-7` adds the spent sets 5-7; `--pairs` adds the `pairs` feature set to the grid.
 */
import { argmax, hybrid, MARGINS, signTest } from './learned-common.js';
import { featuresOf, GROUPS, type Group } from './learned-features.js';
import { probs, type Rows, train } from './learned-model.js';
import {
  type GroupResult,
  learnedReport,
  type Scored,
  type Setting,
  scoreOf as scored,
} from './learned-report.js';
import {
  rulesFingerprint as fingerprintRules,
  LABELS,
  type Label,
  type LabelledEntry,
  loadLabelled,
  loadLabelledMore,
  loadReportLabels,
  SPLIT,
} from './score.js';

const args = new Set(process.argv.slice(2));
const TUNE_ONLY = args.has('--tune-only');
// `--sets-5-7`: also the spent sets 5-7 (set 8, untouched, is never loaded).
const SETS_5_7 = args.has('--sets-5-7');
const K = LABELS.length;

const FEATURE_SETS: Record<string, readonly Group[]> = {
  minimal: ['rule', 'pos', 'punct', 'len'],
  compact: ['rule', 'cue', 'pos', 'suffix', 'punct', 'len'],
  full: GROUPS,
  noRule: GROUPS.filter((g) => g !== 'rule'),
  // `--pairs`: the minimal set plus every pair of its features, as the heuristic scorer's pairs.
  ...(args.has('--pairs') ? { pairs: ['rule', 'pos', 'punct', 'len'] as const } : {}),
};
const L2S = [0.001, 0.003, 0.01, 0.03];
const STEPS = [25, 75, 200];

const t0 = Date.now();
// Sets 1-2, 3 and 4. Set 5 and later are never loaded here.
const entries: (LabelledEntry & { set: string })[] = [
  ...[...loadLabelled(), ...loadLabelledMore()].map((e) => ({ ...e, set: '1-2' })),
  ...loadReportLabels(3).map((e) => ({ ...e, set: '3' })),
  ...loadReportLabels(4).map((e) => ({ ...e, set: '4' })),
  ...(SETS_5_7 ? [loadReportLabels(5), loadReportLabels(6), loadReportLabels(7)] : []).flatMap((set, k) =>
    set.map((e) => ({ ...e, set: String(k + 5) })),
  ),
];
const SETS = SETS_5_7 ? ['1-2', '3', '4', '5', '6', '7'] : ['1-2', '3', '4'];
const TUNE = [...new Set(entries.map((e) => e.kind))].filter((k) => SPLIT[k] === 'tune');
const REPORT = [...new Set(entries.map((e) => e.kind))].filter((k) => SPLIT[k] !== 'tune');
const KINDS = [...TUNE, ...REPORT];
const y = entries.map((e) => LABELS.indexOf(e.label));
const feats = entries.map((e) => featuresOf(e.text));
const ruleIdx = feats.map((f) => LABELS.indexOf(f.rule[0]!.slice('rule:'.length) as Label));

/** The pool's cells: one per (kind, set) pair present. Every training set is a union of cells. */
const cellOf = (e: { kind: string; set: string }) => `${e.kind}@${e.set}`;
const byCell = new Map<string, number[]>();
entries.forEach((e, i) => {
  const c = cellOf(e);
  if (!byCell.has(c)) byCell.set(c, []);
  byCell.get(c)!.push(i);
});
const CELLS = [...byCell.keys()];
const cellsWhere = (f: (kind: string, set: string) => boolean) =>
  CELLS.filter((c) => {
    const [kind, set] = c.split('@') as [string, string];
    return f(kind, set);
  });
const indicesOf = (cells: readonly string[]) => cells.flatMap((c) => byCell.get(c)!);

/** Per feature set: its names (index 0 is the bias) and every entry's row. */
const encoded = new Map<string, { names: string[]; rows: Rows }>();
for (const [name, groups] of Object.entries(FEATURE_SETS)) {
  const index = new Map<string, number>([['bias', 0]]);
  const rows = feats.map((f) => {
    const ids = [0];
    const xs = groups.flatMap((g) => f[g]);
    if (name === 'pairs') {
      const base = [...new Set(xs)].sort();
      for (let i = 0; i < base.length; i++)
        for (let j = i + 1; j < base.length; j++) xs.push(`${base[i]}&${base[j]}`);
    }
    for (const x of xs) {
      if (!index.has(x)) index.set(x, index.size);
      ids.push(index.get(x)!);
    }
    return Int32Array.from(new Set(ids)).sort();
  });
  encoded.set(name, { names: [...index.keys()], rows });
}

/** Trained models, by feature set, L2 and training cells: weights at every step count of STEPS. */
const cache = new Map<string, Map<number, Float64Array>>();
let trainings = 0;
function weights(fs: string, l2: number, trainCells: readonly string[]): Map<number, Float64Array> {
  const key = `${fs}|${l2}|${[...trainCells].sort().join(',')}`;
  let w = cache.get(key);
  if (!w) {
    const { names, rows } = encoded.get(fs)!;
    const idx = indicesOf(trainCells);
    w = train(
      idx.map((i) => rows[i]!),
      idx.map((i) => y[i]!),
      K,
      names.length,
      l2,
      STEPS,
    ).at;
    cache.set(key, w);
    trainings++;
  }
  return w;
}

/** Class probabilities of entries `idx` under a model trained on `trainCells`. */
function predictProbs(s: Setting, trainCells: readonly string[], idx: readonly number[]): Float64Array[] {
  const w = weights(s.fs, s.l2, trainCells).get(s.steps)!;
  const { names, rows } = encoded.get(s.fs)!;
  return idx.map((i) => probs(w, rows[i]!, K, names.length));
}

/**
 * The model's and the hybrid's settings by inner CV within `trainCells` alone: each inner fold (a
 * list of cells) is predicted by a model trained on the other training cells; criterion: mean
 * accuracy over the inner folds, ties to the earlier grid entry.
 */
function select(
  trainCells: readonly string[],
  innerFolds: readonly (readonly string[])[],
): { model: Setting; hybrid: Setting; inner: number[] } {
  let bestModel: [number, Setting] = [-1, { fs: '', l2: 0, steps: 0 }];
  let bestHybrid: [number, Setting] = [-1, { fs: '', l2: 0, steps: 0 }];
  for (const fs of Object.keys(FEATURE_SETS))
    for (const l2 of L2S)
      for (const steps of STEPS) {
        const s = { fs, l2, steps };
        const modelAcc: number[] = [];
        const hybridAcc = MARGINS.map(() => [] as number[]);
        for (const fold of innerFolds) {
          const idx = indicesOf(fold);
          const ps = predictProbs(
            s,
            trainCells.filter((c) => !fold.includes(c)),
            idx,
          );
          modelAcc.push(idx.filter((i, n) => argmax(ps[n]!) === y[i]).length / idx.length);
          for (let m = 0; m < MARGINS.length; m++)
            hybridAcc[m]!.push(
              idx.filter((i, n) => hybrid(ps[n]!, ruleIdx[i]!, MARGINS[m]!) === y[i]).length / idx.length,
            );
        }
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        if (mean(modelAcc) > bestModel[0]) bestModel = [mean(modelAcc), s];
        for (let m = 0; m < MARGINS.length; m++)
          if (mean(hybridAcc[m]!) > bestHybrid[0])
            bestHybrid = [mean(hybridAcc[m]!), { ...s, t: MARGINS[m] }];
      }
  return { model: bestModel[1], hybrid: bestHybrid[1], inner: [bestModel[0], bestHybrid[0]] };
}

/** The model's and the hybrid's answers on `idx`, trained on `trainCells` with the selected settings. */
function predictInto(
  model: Map<number, number>,
  hyb: Map<number, number>,
  sel: { model: Setting; hybrid: Setting },
  trainCells: readonly string[],
  idx: readonly number[],
): void {
  const pm = predictProbs(sel.model, trainCells, idx);
  const ph = predictProbs(sel.hybrid, trainCells, idx);
  for (let n = 0; n < idx.length; n++) {
    model.set(idx[n]!, argmax(pm[n]!));
    hyb.set(idx[n]!, hybrid(ph[n]!, ruleIdx[idx[n]!]!, sel.hybrid.t!));
  }
}

interface OuterFold {
  name: string;
  /** The held-out cells. */
  held: string[];
  /** The inner folds, each a list of cells of the training part. */
  inner: string[][];
}

/**
 * Grouping "kind": leave-one-kind-out (all sets of the kind held out together); inner folds: each
 * other kind. Grouping "set": leave-one-set-out over the report kinds (the report cells of one set
 * held out; the tune kinds and the other sets' report cells train); inner folds: the report cells
 * of each of the two other sets.
 */
const kindFolds: OuterFold[] = (TUNE_ONLY ? TUNE : KINDS).map((k) => ({
  name: k,
  held: cellsWhere((kind) => kind === k),
  inner: KINDS.filter((j) => j !== k).map((j) => cellsWhere((kind) => kind === j)),
}));
const setFolds: OuterFold[] = TUNE_ONLY
  ? []
  : SETS.map((s) => ({
      name: `report@set ${s}`,
      held: cellsWhere((kind, set) => set === s && REPORT.includes(kind)),
      inner: SETS.filter((o) => o !== s).map((o) =>
        cellsWhere((kind, set) => set === o && REPORT.includes(kind)),
      ),
    }));

const predRules = new Map<number, number>(entries.map((_, i) => [i, ruleIdx[i]!]));
const hardOf = entries.map((e) => e.hard);
const scoreOf = (idx: readonly number[], pred: ReadonlyMap<number, number>) => scored(idx, pred, y, hardOf);
function runGrouping(folds: OuterFold[]) {
  const model = new Map<number, number>();
  const hyb = new Map<number, number>();
  const chosen: Record<string, unknown> = {};
  for (const f of folds) {
    const trainCells = CELLS.filter((c) => !f.held.includes(c));
    const sel = select(trainCells, f.inner);
    predictInto(model, hyb, sel, trainCells, indicesOf(f.held));
    // In --tune-only runs the inner figures stay hidden: their inner folds include report kinds.
    chosen[f.name] = {
      model: sel.model,
      hybrid: sel.hybrid,
      ...(TUNE_ONLY ? {} : { innerMeanAccuracy: sel.inner }),
    };
  }
  return { model, hyb, chosen };
}
const byKindRun = runGrouping(kindFolds);
const bySetRun = runGrouping(setFolds);

const reportIdx = indicesOf(cellsWhere((kind) => REPORT.includes(kind)));
const tuneIdx = indicesOf(cellsWhere((kind) => TUNE.includes(kind)));

// The model trained on the tune kinds only (inner: leave-one-tune-kind-out), scored on the report kinds.
let tuneOnly: { setting: unknown; model: Scored; hybrid: Scored; rules: Scored } | undefined;
if (!TUNE_ONLY) {
  const tuneCells = cellsWhere((kind) => TUNE.includes(kind));
  const sel = select(
    tuneCells,
    TUNE.map((k) => cellsWhere((kind) => kind === k)),
  );
  const pm = new Map<number, number>();
  const ph = new Map<number, number>();
  predictInto(pm, ph, sel, tuneCells, reportIdx);
  tuneOnly = {
    setting: { model: sel.model, hybrid: sel.hybrid, innerMeanAccuracy: sel.inner },
    rules: scoreOf(reportIdx, predRules),
    model: scoreOf(reportIdx, pm),
    hybrid: scoreOf(reportIdx, ph),
  };
}

function resultsOf(
  groups: [string, number[]][],
  run: { model: Map<number, number>; hyb: Map<number, number> },
): GroupResult[] {
  const systems: [string, Map<number, number>][] = [
    ['rules', predRules],
    ['model', run.model],
    ['hybrid', run.hyb],
  ];
  return groups.map(([name, idx]) => {
    const discordant = (m: Map<number, number>) => {
      const b = idx.filter((i) => m.get(i) === y[i] && predRules.get(i) !== y[i]).length;
      const c = idx.filter((i) => m.get(i) !== y[i] && predRules.get(i) === y[i]).length;
      return { onlyChallengerRight: b, onlyRulesRight: c, signTestP: signTest(b, c) };
    };
    return {
      group: name,
      scores: Object.fromEntries(systems.map(([s, m]) => [s, scoreOf(idx, m)])) as Record<string, Scored>,
      vsRules: { model: discordant(run.model), hybrid: discordant(run.hyb) },
    };
  });
}
const kindResults = resultsOf(
  [
    ...kindFolds.map((f): [string, number[]] => [f.name, indicesOf(f.held)]),
    ['tune (pooled)', tuneIdx],
    ...(TUNE_ONLY
      ? []
      : ([
          ['report (pooled)', reportIdx],
          ...SETS.map((s): [string, number[]] => [
            `  of it set ${s}`,
            indicesOf(cellsWhere((kind, set) => set === s && REPORT.includes(kind))),
          ]),
          ['all (pooled)', [...tuneIdx, ...reportIdx]],
        ] as [string, number[]][])),
  ],
  byKindRun,
);
const setResults = TUNE_ONLY
  ? []
  : resultsOf(
      [
        ...setFolds.map((f): [string, number[]] => [f.name, indicesOf(f.held)]),
        ['report (pooled)', reportIdx],
      ],
      bySetRun,
    );

/** Step 3's criterion: ≥ 2 points over the rules on the report kinds with p < 0.05, in both groupings. */
const gains = (rs: typeof kindResults, sys: 'model' | 'hybrid') => {
  const r = rs.find((x) => x.group === 'report (pooled)');
  if (!r) return false;
  return r.scores[sys]!.accuracy - r.scores.rules!.accuracy >= 0.02 && r.vsRules[sys].signTestP < 0.05;
};
const verdict = Object.fromEntries(
  (['model', 'hybrid'] as const).map((s) => [s, gains(kindResults, s) && gains(setResults, s)]),
);

// The rules are whatever lib/snapshot holds at run time (other work may change them): fingerprint it.
const rulesFingerprint = fingerprintRules();
const blob = {
  entries: entries.length,
  setSizes: Object.fromEntries(SETS.map((s) => [s, entries.filter((e) => e.set === s).length])),
  rulesFingerprint,
  featureSets: Object.fromEntries([...encoded].map(([k, v]) => [k, v.names.length])),
  grid: { featureSets: FEATURE_SETS, l2: L2S, steps: STEPS, margins: MARGINS.map(String) },
  byKind: { chosen: byKindRun.chosen, results: kindResults },
  bySet: { chosen: bySetRun.chosen, results: setResults },
  tuneOnlyModelOnReport: tuneOnly,
  gainInBothGroupings: verdict,
  trainings,
  seconds: (Date.now() - t0) / 1000,
};

if (args.has('--json')) console.log(JSON.stringify(blob, null, 2));
else console.log(learnedReport(blob, SETS, TUNE_ONLY));

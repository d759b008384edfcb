/**
 * `npx tsx eval/snapshot/learned.ts` (issue 18): does a small learned component over non-topical
 * features beat the snapshot's hand-written rules on sources it was not fitted to? An experiment,
 * nothing here ships.
 *
 * Data: the 850 labelled entries of eval/snapshot/ (entries.jsonl + entries-more.jsonl). Grouped
 * folds by source kind, leave-one-kind-out: train on five kinds, predict the sixth, all six folds.
 * Per kind and pooled over the three report kinds (mini-swe-agent, console-agent, console-summary,
 * whose errors have never been listed) it prints accuracy, hard accuracy (n) and per-category
 * precision/recall for the rules alone (score.ts `snapshotCategorizer`), the model and a hybrid, then
 * a JSON blob. Also the model trained on the three tune kinds only, scored on the report kinds. Only
 * aggregates are printed; no entry of a report kind is ever listed.
 *
 * Features (learned-features.ts, all named, none hashed): the rules' category one-hot and `resolved`
 * bit; the cue-set bits of lib/snapshot/cues.ts; presence of each word of a closed list (cues.ts
 * `SETS` + `CODES`, 467 words, + 48 more function words: 515); first/second token (closed-list word or shape class);
 * `-ed`/`-ing`/`-s` endings of the first words; punctuation (end `?` `:` `!` `.`, backticks, share of
 * text in backticks and in paths, URL, file:line, non-ASCII letters); word-count bins.
 * Model (learned-model.ts): softmax regression, L2, full-batch Nesterov steps from zero: deterministic.
 * Hybrid: the rules' answer, unless the model's top class beats the rules' class by a probability
 * margin > t.
 *
 * How settings were chosen — nested CV, never by hand on any figure: for each outer fold (held-out
 * kind k), every setting in the grid below is scored by leave-one-kind-out over the five training
 * kinds only (train on four, predict the fifth; criterion: mean accuracy over the five inner kinds,
 * ties to the earlier grid entry); the best one is refit on all five and predicts k. The model and the
 * hybrid choose separately (the hybrid also chooses t). The tune-only model chooses by
 * leave-one-tune-kind-out over the three tune kinds. Grid, fixed before any report-kind figure was
 * printed: feature sets {minimal: rule pos punct len; compact: + cue suffix; full: + word;
 * noRule: full without rule}, L2 {0.001, 0.003, 0.01, 0.03}, steps {25, 75, 200}, t {0, 0.1 … 0.9,
 * never}. (The first `--tune-only` run used L2 {0.001, 0.01, 0.1} and steps {50, 150, 400}; a
 * convergence check on the tune kinds showed 200 steps reach the optimum and L2 0.1 underfits even
 * in-sample, so the grid moved there, also to keep the run under two minutes.)
 *
 * What was looked at, in order: while writing and debugging, only `--tune-only` runs (which print the
 * three tune-kind folds and nothing from the report kinds); then one full run, whose figures are the
 * result. Nothing was changed after the full run.
 *
 * Result (rules at commit 69349d0; the same run on the rules of 67e0c6a agrees): the model alone is
 * below the rules on every held-out kind (report kinds pooled 85% vs 89%, hard 58% vs 65% of 78; it
 * is right where the rules are wrong on 0 entries, wrong where they are right on 17); the hybrid
 * chooses t 0.7–0.9 and barely moves (report 90% vs 89%, +2/-0, sign test p 0.5). The tune-only
 * model: 86% vs 89% on the report kinds. No gain that would earn a learned fallback a place.
 *
 * Flags: `--tune-only` prints the tune-kind folds only; `--json` prints only the JSON blob.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { featuresOf, GROUPS, type Group } from './learned-features.js';
import { probs, type Rows, train } from './learned-model.js';
import { LABELS, type Label, type LabelledEntry, loadLabelled, loadLabelledMore, SPLIT } from './score.js';

const args = new Set(process.argv.slice(2));
const TUNE_ONLY = args.has('--tune-only');
const K = LABELS.length;

const FEATURE_SETS: Record<string, readonly Group[]> = {
  minimal: ['rule', 'pos', 'punct', 'len'],
  compact: ['rule', 'cue', 'pos', 'suffix', 'punct', 'len'],
  full: GROUPS,
  noRule: GROUPS.filter((g) => g !== 'rule'),
};
const L2S = [0.001, 0.003, 0.01, 0.03];
const STEPS = [25, 75, 200];
const MARGINS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, Number.POSITIVE_INFINITY];

interface Setting {
  fs: string;
  l2: number;
  steps: number;
  t?: number;
}

const t0 = Date.now();
const entries: LabelledEntry[] = [...loadLabelled(), ...loadLabelledMore()];
const TUNE = [...new Set(entries.map((e) => e.kind))].filter((k) => SPLIT[k] === 'tune');
const REPORT = [...new Set(entries.map((e) => e.kind))].filter((k) => SPLIT[k] !== 'tune');
const KINDS = [...TUNE, ...REPORT];
const y = entries.map((e) => LABELS.indexOf(e.label));
const feats = entries.map((e) => featuresOf(e.text));
const ruleIdx = feats.map((f) => LABELS.indexOf(f.rule[0]!.slice('rule:'.length) as Label));
const byKind = new Map(KINDS.map((k) => [k, entries.flatMap((e, i) => (e.kind === k ? [i] : []))]));

/** Per feature set: its names (index 0 is the bias) and every entry's row. */
const encoded = new Map<string, { names: string[]; rows: Rows }>();
for (const [name, groups] of Object.entries(FEATURE_SETS)) {
  const index = new Map<string, number>([['bias', 0]]);
  const rows = feats.map((f) => {
    const ids = [0];
    for (const g of groups)
      for (const x of f[g]) {
        if (!index.has(x)) index.set(x, index.size);
        ids.push(index.get(x)!);
      }
    return Int32Array.from(new Set(ids)).sort();
  });
  encoded.set(name, { names: [...index.keys()], rows });
}

/** Trained models, by feature set, L2 and training kinds: weights at every step count of STEPS. */
const cache = new Map<string, Map<number, Float64Array>>();
let trainings = 0;
function weights(fs: string, l2: number, trainKinds: readonly string[]): Map<number, Float64Array> {
  const key = `${fs}|${l2}|${[...trainKinds].sort().join(',')}`;
  let w = cache.get(key);
  if (!w) {
    const { names, rows } = encoded.get(fs)!;
    const idx = trainKinds.flatMap((k) => byKind.get(k)!);
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

/** Class probabilities of entries `idx` under a model trained on `trainKinds`. */
function predictProbs(s: Setting, trainKinds: readonly string[], idx: readonly number[]): Float64Array[] {
  const w = weights(s.fs, s.l2, trainKinds).get(s.steps)!;
  const { names, rows } = encoded.get(s.fs)!;
  return idx.map((i) => probs(w, rows[i]!, K, names.length));
}

const argmax = (p: Float64Array) => p.indexOf(Math.max(...p));
function hybrid(p: Float64Array, rule: number, t: number): number {
  const m = argmax(p);
  return m !== rule && p[m]! - p[rule]! > t ? m : rule;
}

/** The model's and the hybrid's settings, by leave-one-kind-out over `trainKinds` alone. */
function select(trainKinds: readonly string[]): { model: Setting; hybrid: Setting; inner: number[] } {
  let bestModel: [number, Setting] = [-1, { fs: '', l2: 0, steps: 0 }];
  let bestHybrid: [number, Setting] = [-1, { fs: '', l2: 0, steps: 0 }];
  for (const fs of Object.keys(FEATURE_SETS))
    for (const l2 of L2S)
      for (const steps of STEPS) {
        const s = { fs, l2, steps };
        const modelAcc: number[] = [];
        const hybridAcc = MARGINS.map(() => [] as number[]);
        for (const j of trainKinds) {
          const idx = byKind.get(j)!;
          const ps = predictProbs(
            s,
            trainKinds.filter((k) => k !== j),
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

interface Scored {
  n: number;
  accuracy: number;
  hardN: number;
  hardAccuracy: number;
  perLabel: Record<
    Label,
    { precision: number | null; recall: number | null; support: number; predicted: number }
  >;
}

function scoreOf(idx: readonly number[], pred: ReadonlyMap<number, number>): Scored {
  const tp = new Array<number>(K).fill(0);
  const sup = new Array<number>(K).fill(0);
  const prd = new Array<number>(K).fill(0);
  let right = 0;
  let hardN = 0;
  let hardRight = 0;
  for (const i of idx) {
    const p = pred.get(i)!;
    sup[y[i]!]!++;
    prd[p]!++;
    if (p === y[i]) {
      right++;
      tp[p]!++;
    }
    if (entries[i]!.hard) {
      hardN++;
      if (p === y[i]) hardRight++;
    }
  }
  const perLabel = Object.fromEntries(
    LABELS.map((l, c) => [
      l,
      {
        precision: prd[c] ? tp[c]! / prd[c]! : null,
        recall: sup[c] ? tp[c]! / sup[c]! : null,
        support: sup[c]!,
        predicted: prd[c]!,
      },
    ]),
  ) as Scored['perLabel'];
  return {
    n: idx.length,
    accuracy: right / idx.length,
    hardN,
    hardAccuracy: hardN ? hardRight / hardN : 0,
    perLabel,
  };
}

/** Two-sided exact sign test on the discordant pairs (b: only the challenger right, c: only the rules). */
function signTest(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0;
  const lo = Math.min(b, c);
  let coef = 1; // C(n, 0)
  for (let x = 0; x <= lo; x++) {
    tail += coef / 2 ** n;
    coef = (coef * (n - x)) / (x + 1);
  }
  return Math.min(1, 2 * tail);
}

/** The model's and the hybrid's answers on `idx`, trained on `trainKinds` with the selected settings. */
function predictInto(
  model: Map<number, number>,
  hyb: Map<number, number>,
  sel: { model: Setting; hybrid: Setting },
  trainKinds: readonly string[],
  idx: readonly number[],
): void {
  const pm = predictProbs(sel.model, trainKinds, idx);
  const ph = predictProbs(sel.hybrid, trainKinds, idx);
  for (let n = 0; n < idx.length; n++) {
    model.set(idx[n]!, argmax(pm[n]!));
    hyb.set(idx[n]!, hybrid(ph[n]!, ruleIdx[idx[n]!]!, sel.hybrid.t!));
  }
}

// Outer folds.
const outerKinds = TUNE_ONLY ? TUNE : KINDS;
const predRules = new Map<number, number>(entries.map((_, i) => [i, ruleIdx[i]!]));
const predModel = new Map<number, number>();
const predHybrid = new Map<number, number>();
const chosen: Record<string, unknown> = {};
for (const k of outerKinds) {
  const trainKinds = KINDS.filter((x) => x !== k);
  const sel = select(trainKinds);
  const idx = byKind.get(k)!;
  predictInto(predModel, predHybrid, sel, trainKinds, idx);
  // In --tune-only runs the inner figures stay hidden: their inner folds include report kinds.
  chosen[k] = {
    model: sel.model,
    hybrid: sel.hybrid,
    ...(TUNE_ONLY ? {} : { innerMeanAccuracy: sel.inner }),
  };
}

// The model trained on the tune kinds only, scored on the report kinds.
let tuneOnly: { setting: unknown; model: Scored; hybrid: Scored; rules: Scored } | undefined;
const reportIdx = REPORT.flatMap((k) => byKind.get(k)!);
const tuneIdx = TUNE.flatMap((k) => byKind.get(k)!);
if (!TUNE_ONLY) {
  const sel = select(TUNE);
  const pm = new Map<number, number>();
  const ph = new Map<number, number>();
  predictInto(pm, ph, sel, TUNE, reportIdx);
  tuneOnly = {
    setting: { model: sel.model, hybrid: sel.hybrid, innerMeanAccuracy: sel.inner },
    rules: scoreOf(reportIdx, predRules),
    model: scoreOf(reportIdx, pm),
    hybrid: scoreOf(reportIdx, ph),
  };
}

const groups: [string, number[]][] = [
  ...outerKinds.map((k): [string, number[]] => [k, byKind.get(k)!]),
  ['tune (pooled)', tuneIdx],
  ...(TUNE_ONLY
    ? []
    : ([
        ['report (pooled)', reportIdx],
        ['all (pooled)', [...tuneIdx, ...reportIdx]],
      ] as [string, number[]][])),
];
const systems: [string, Map<number, number>][] = [
  ['rules', predRules],
  ['model', predModel],
  ['hybrid', predHybrid],
];
const results = groups.map(([name, idx]) => {
  const discordant = (m: Map<number, number>) => {
    const b = idx.filter((i) => m.get(i) === y[i] && predRules.get(i) !== y[i]).length;
    const c = idx.filter((i) => m.get(i) !== y[i] && predRules.get(i) === y[i]).length;
    return { onlyChallengerRight: b, onlyRulesRight: c, signTestP: signTest(b, c) };
  };
  return {
    group: name,
    split: SPLIT[name] ?? (name.startsWith('tune') ? 'tune' : name.startsWith('report') ? 'report' : 'all'),
    scores: Object.fromEntries(systems.map(([s, m]) => [s, scoreOf(idx, m)])) as Record<string, Scored>,
    vsRules: { model: discordant(predModel), hybrid: discordant(predHybrid) },
  };
});
// The rules are whatever lib/snapshot holds at run time (other work may change them): fingerprint it.
const LIB = resolve(import.meta.dirname, '../../lib/snapshot');
const rulesFingerprint = createHash('sha256')
  .update(
    readdirSync(LIB)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => `${f}\n${readFileSync(resolve(LIB, f), 'utf8')}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16);
const blob = {
  entries: entries.length,
  rulesFingerprint,
  featureSets: Object.fromEntries([...encoded].map(([k, v]) => [k, v.names.length])),
  grid: { featureSets: FEATURE_SETS, l2: L2S, steps: STEPS, margins: MARGINS.map(String) },
  chosen,
  results,
  tuneOnlyModelOnReport: tuneOnly,
  trainings,
  seconds: (Date.now() - t0) / 1000,
};

if (args.has('--json')) console.log(JSON.stringify(blob, null, 2));
else {
  const pct = (x: number | null) => (x === null ? '  —' : `${(x * 100).toFixed(0).padStart(3)}%`);
  const out = [
    `Leave-one-kind-out over ${entries.length} entries${TUNE_ONLY ? ' (tune-kind folds only)' : ''}; settings by nested CV.`,
    '',
    `${'held-out kind'.padEnd(18)} ${'n'.padStart(4)}  rules  model  hybrid  | hard n  rules  model  hybrid | model vs rules (+/-, p)  hybrid vs rules`,
  ];
  for (const r of results) {
    const s = r.scores;
    const d = (v: { onlyChallengerRight: number; onlyRulesRight: number; signTestP: number }) =>
      `+${v.onlyChallengerRight}/-${v.onlyRulesRight} p=${v.signTestP.toFixed(2)}`;
    out.push(
      `${r.group.padEnd(18)} ${String(s.rules!.n).padStart(4)}  ${pct(s.rules!.accuracy)}   ${pct(s.model!.accuracy)}   ${pct(s.hybrid!.accuracy)}   | ${String(s.rules!.hardN).padStart(6)}  ${pct(s.rules!.hardAccuracy)}   ${pct(s.model!.hardAccuracy)}   ${pct(s.hybrid!.hardAccuracy)}  | ${d(r.vsRules.model).padEnd(24)} ${d(r.vsRules.hybrid)}`,
    );
  }
  if (tuneOnly)
    out.push(
      `${'tune-only → report'.padEnd(18)} ${String(tuneOnly.rules.n).padStart(4)}  ${pct(tuneOnly.rules.accuracy)}   ${pct(tuneOnly.model.accuracy)}   ${pct(tuneOnly.hybrid.accuracy)}   | ${String(tuneOnly.rules.hardN).padStart(6)}  ${pct(tuneOnly.rules.hardAccuracy)}   ${pct(tuneOnly.model.hardAccuracy)}   ${pct(tuneOnly.hybrid.hardAccuracy)}`,
    );
  for (const r of results.filter((x) => x.group.includes('pooled') && !x.group.startsWith('all'))) {
    out.push('', `${r.group}: precision / recall (support; predicted by rules, model, hybrid)`);
    for (const l of LABELS) {
      const cell = (s: string) => {
        const p = r.scores[s]!.perLabel[l];
        return `${pct(p.precision)} / ${pct(p.recall)}`;
      };
      const pr = systems.map(([s]) => r.scores[s]!.perLabel[l].predicted).join(', ');
      out.push(
        `  ${l.padEnd(22)} ${cell('rules')}   ${cell('model')}   ${cell('hybrid')}   (${r.scores.rules!.perLabel[l].support}; ${pr})`,
      );
    }
  }
  out.push('', 'chosen settings per outer fold (model; hybrid):');
  for (const [k, v] of Object.entries(chosen)) {
    const c = v as { model: Setting; hybrid: Setting };
    out.push(
      `  ${k.padEnd(18)} ${c.model.fs} l2=${c.model.l2} steps=${c.model.steps};  ${c.hybrid.fs} l2=${c.hybrid.l2} steps=${c.hybrid.steps} t=${c.hybrid.t}`,
    );
  }
  out.push('', `trainings ${trainings}, ${blob.seconds.toFixed(1)} s`, '', JSON.stringify(blob));
  console.log(out.join('\n'));
}

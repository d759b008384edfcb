/**
 * The text report of eval/snapshot/learned.ts: its JSON blob as tables (rules, model and hybrid per
 * held-out group, precision and recall per label on the pooled groups, the settings each outer fold
 * chose) and the blob itself on the last line. Also how the script scores a set of predictions.
 */
import { LABELS, type Score } from './score.js';

/** score.ts's `Score` without the confusion matrix and the error list (the script prints neither). */
export type Scored = Omit<Score, 'confusion' | 'errors'>;

/** A setting of the grid: feature set, L2, steps and (the hybrid's) margin. */
export interface Setting {
  fs: string;
  l2: number;
  steps: number;
  t?: number;
}

/** One held-out group's scores and its comparison with the rules. */
export interface GroupResult {
  group: string;
  scores: Record<string, Scored>;
  vsRules: Record<
    'model' | 'hybrid',
    { onlyChallengerRight: number; onlyRulesRight: number; signTestP: number }
  >;
}

/** What learned.ts computes, as it prints it with `--json`. */
export interface LearnedBlob {
  entries: number;
  setSizes: Record<string, number>;
  rulesFingerprint: string;
  byKind: { chosen: Record<string, unknown>; results: GroupResult[] };
  bySet: { chosen: Record<string, unknown>; results: GroupResult[] };
  tuneOnlyModelOnReport: { setting: unknown; model: Scored; hybrid: Scored; rules: Scored } | undefined;
  gainInBothGroupings: Record<string, boolean>;
  trainings: number;
  seconds: number;
  [key: string]: unknown;
}

/**
 * Accuracy, hard accuracy and per-label precision / recall of the predictions `pred` (class index by
 * entry index) on the entries `idx`, whose classes are `y` and hard flags `hard`.
 *
 * @example
 * ```ts
 * scoreOf([0, 1], new Map([[0, 2], [1, 0]]), [2, 1], [false, true]).accuracy; // 0.5
 * ```
 */
export function scoreOf(
  idx: readonly number[],
  pred: ReadonlyMap<number, number>,
  y: readonly number[],
  hard: readonly boolean[],
): Scored {
  const K = LABELS.length;
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
    if (hard[i]) {
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

/**
 * The tables learned.ts prints without `--json`, from its blob, the sets it loaded and whether it ran
 * the tune-kind folds only.
 *
 * @example
 * ```ts
 * console.log(learnedReport(blob, ['1-2', '3', '4'], false));
 * ```
 */
export function learnedReport(blob: LearnedBlob, SETS: readonly string[], tuneOnlyRun: boolean): string {
  const pct = (x: number | null) => (x === null ? '  —' : `${(x * 100).toFixed(0).padStart(3)}%`);
  const out: string[] = [
    `${blob.entries} entries (${SETS.map((k) => `set ${k} ${blob.setSizes[k]}`).join(', ')})${tuneOnlyRun ? ', tune-kind folds only' : ''}; settings by nested CV.`,
  ];
  const table = (title: string, rs: readonly GroupResult[]) => {
    out.push(
      '',
      title,
      `${'held out'.padEnd(18)} ${'n'.padStart(4)}  rules  model  hybrid  | hard n  rules  model  hybrid | model vs rules (+/-, p)  hybrid vs rules`,
    );
    for (const r of rs) {
      const s = r.scores;
      const d = (v: { onlyChallengerRight: number; onlyRulesRight: number; signTestP: number }) =>
        `+${v.onlyChallengerRight}/-${v.onlyRulesRight} p=${v.signTestP.toPrecision(2)}`;
      out.push(
        `${r.group.padEnd(18)} ${String(s.rules!.n).padStart(4)}  ${pct(s.rules!.accuracy)}   ${pct(s.model!.accuracy)}   ${pct(s.hybrid!.accuracy)}   | ${String(s.rules!.hardN).padStart(6)}  ${pct(s.rules!.hardAccuracy)}   ${pct(s.model!.hardAccuracy)}   ${pct(s.hybrid!.hardAccuracy)}  | ${d(r.vsRules.model).padEnd(24)} ${d(r.vsRules.hybrid)}`,
      );
    }
    for (const r of rs.filter((x) => x.group.endsWith('(pooled)') && !x.group.startsWith('all'))) {
      out.push(`${r.group}: precision / recall for rules, model, hybrid (support; predicted by each)`);
      for (const l of LABELS) {
        const cell = (s: string) => {
          const p = r.scores[s]!.perLabel[l];
          return `${pct(p.precision)} / ${pct(p.recall)}`;
        };
        const pr = ['rules', 'model', 'hybrid'].map((s) => r.scores[s]!.perLabel[l].predicted).join(', ');
        out.push(
          `  ${l.padEnd(22)} ${cell('rules')}   ${cell('model')}   ${cell('hybrid')}   (${r.scores.rules!.perLabel[l].support}; ${pr})`,
        );
      }
    }
  };
  table(
    'Grouping 1: leave-one-kind-out (inner: leave-one-kind-out over the five training kinds)',
    blob.byKind.results,
  );
  if (!tuneOnlyRun)
    table(
      'Grouping 2: leave-one-set-out over the report kinds (inner: the two other sets)',
      blob.bySet.results,
    );
  const tuneOnly = blob.tuneOnlyModelOnReport;
  if (tuneOnly)
    out.push(
      '',
      `tune-only → report: n ${tuneOnly.rules.n}, rules ${pct(tuneOnly.rules.accuracy)}, model ${pct(tuneOnly.model.accuracy)}, hybrid ${pct(tuneOnly.hybrid.accuracy)}; hard n ${tuneOnly.rules.hardN}: ${pct(tuneOnly.rules.hardAccuracy)}, ${pct(tuneOnly.model.hardAccuracy)}, ${pct(tuneOnly.hybrid.hardAccuracy)}`,
    );
  out.push('', 'chosen settings per outer fold (model; hybrid):');
  for (const [k, v] of [...Object.entries(blob.byKind.chosen), ...Object.entries(blob.bySet.chosen)]) {
    const c = v as { model: Setting; hybrid: Setting };
    out.push(
      `  ${k.padEnd(18)} ${c.model.fs} l2=${c.model.l2} steps=${c.model.steps};  ${c.hybrid.fs} l2=${c.hybrid.l2} steps=${c.hybrid.steps} t=${c.hybrid.t}`,
    );
  }
  out.push(
    '',
    `≥ 2 points with p < 0.05 on the report kinds in both groupings: model ${blob.gainInBothGroupings.model}, hybrid ${blob.gainInBothGroupings.hybrid}`,
    `rules ${blob.rulesFingerprint}; trainings ${blob.trainings}, ${blob.seconds.toFixed(1)} s`,
    '',
    JSON.stringify(blob),
  );
  return out.join('\n');
}

/**
 * The tables of eval/snapshot/learned-open.ts: accuracy, hard accuracy, per-label precision / recall
 * and the entries only the challenger or only the rules get right, for the rules, the model and the
 * hybrid side by side.
 */
import { signTest } from './learned-common.js';
import { LABELS } from './score.js';

const K = LABELS.length;

/** What a table reads of an entry: its class, the rules' class and whether it is hard. */
export interface Graded {
  y: number;
  rule: number;
  hard: boolean;
}

export interface Scored {
  n: number;
  acc: number;
  hardN: number;
  hardAcc: number;
  /** Per label: [precision, recall, support, predicted]. */
  perLabel: [number | null, number | null, number, number][];
}
/** Aggregates of predictions `pred` (by position) against prepared entries `ps`. */
export function scoreOf(ps: readonly Graded[], pred: readonly number[]): Scored {
  const tp = new Array<number>(K).fill(0);
  const sup = new Array<number>(K).fill(0);
  const prd = new Array<number>(K).fill(0);
  let right = 0;
  let hardN = 0;
  let hardRight = 0;
  ps.forEach((p, i) => {
    sup[p.y]!++;
    prd[pred[i]!]!++;
    if (pred[i] === p.y) {
      right++;
      tp[p.y]!++;
    }
    if (p.hard) {
      hardN++;
      if (pred[i] === p.y) hardRight++;
    }
  });
  return {
    n: ps.length,
    acc: right / ps.length,
    hardN,
    hardAcc: hardN ? hardRight / hardN : 0,
    perLabel: LABELS.map((_, c) => [
      prd[c] ? tp[c]! / prd[c]! : null,
      sup[c] ? tp[c]! / sup[c]! : null,
      sup[c]!,
      prd[c]!,
    ]),
  };
}
export const discordant = (ps: readonly Graded[], pred: readonly number[]) => {
  let b = 0;
  let c = 0;
  ps.forEach((p, i) => {
    if (pred[i] === p.y && p.rule !== p.y) b++;
    if (pred[i] !== p.y && p.rule === p.y) c++;
  });
  return { b, c, p: signTest(b, c) };
};
export const pct = (x: number | null, d = 1) => (x === null ? '—' : `${(x * 100).toFixed(d)}%`);
const fmtD = (d: { b: number; c: number; p: number }) => `+${d.b}/−${d.c} p=${d.p.toPrecision(2)}`;

/** Rows of a rules / model / hybrid table over named parts. */
export function table(parts: [string, Graded[], number[], number[]][]): string[] {
  const out = [
    `${'part'.padEnd(12)} ${'n'.padStart(5)}  rules   model   hybrid | hard n  rules   model   hybrid | model vs rules       hybrid vs rules`,
  ];
  for (const [name, ps, pm, ph] of parts) {
    const r = scoreOf(
      ps,
      ps.map((p) => p.rule),
    );
    const m = scoreOf(ps, pm);
    const h = scoreOf(ps, ph);
    out.push(
      `${name.padEnd(12)} ${String(r.n).padStart(5)}  ${pct(r.acc).padStart(6)}  ${pct(m.acc).padStart(6)}  ${pct(h.acc).padStart(6)} | ${String(r.hardN).padStart(6)}  ${pct(r.hardAcc).padStart(6)}  ${pct(m.hardAcc).padStart(6)}  ${pct(h.hardAcc).padStart(6)} | ${fmtD(discordant(ps, pm)).padEnd(20)} ${fmtD(discordant(ps, ph))}`,
    );
  }
  return out;
}
export function perLabelTable(ps: readonly Graded[], pm: readonly number[], ph: readonly number[]): string[] {
  const r = scoreOf(
    ps,
    ps.map((p) => p.rule),
  );
  const m = scoreOf(ps, pm);
  const h = scoreOf(ps, ph);
  const cell = (s: Scored, c: number) =>
    `${pct(s.perLabel[c]![0], 0)} / ${pct(s.perLabel[c]![1], 0)}`.padEnd(12);
  return [
    `  ${'label (P / R)'.padEnd(22)} ${'rules'.padEnd(12)} ${'model'.padEnd(12)} ${'hybrid'.padEnd(12)} (support; predicted by rules, model, hybrid)`,
    ...LABELS.map(
      (l, c) =>
        `  ${l.padEnd(22)} ${cell(r, c)} ${cell(m, c)} ${cell(h, c)} (${r.perLabel[c]![2]}; ${r.perLabel[c]![3]}, ${m.perLabel[c]![3]}, ${h.perLabel[c]![3]})`,
    ),
  ];
}

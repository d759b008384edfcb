/**
 * The reader's model and its calibration (reader-train.ts trains, evaluates and writes it): one
 * logistic regression per category over hashed buckets, full-batch Adam with L2 and a fixed number of
 * steps (no random draw), integer weights in sixteenths of a logit; a Platt fit of inner out-of-fold
 * logits as a score table; per category the lowest logit whose inner out-of-fold precision reaches its
 * target. Settings are read from the environment (`READER_STEPS`, `READER_RATE`, `READER_L2`,
 * `READER_MIN_AUTHORS`, `READER_PRUNE`): the defaults are the shipped recipe.
 */
import { fnv1a32 } from '../../lib/core/index';
import { CATEGORIES, type Category } from './data';
import type { Example } from './reader-data';

export const SCALE = 16;
export const LIMIT = 160;
const STEPS = Number(process.env.READER_STEPS ?? 150);
const RATE = Number(process.env.READER_RATE ?? 0.05);
const L2 = Number(process.env.READER_L2 ?? 0.002);
const MIN_AUTHORS = Number(process.env.READER_MIN_AUTHORS ?? 1);
/** Buckets whose weights all lie within ±PRUNE sixteenths are dropped after rounding (0: none). */
const PRUNE = Number(process.env.READER_PRUNE ?? 0);
const INNER = 3;
/** Inner out-of-fold precision each category's threshold must reach (a margin over the targets). */
export const TARGETS: Record<Category, number> = {
  correction: 0.88,
  preference: 0.83,
  approval: 0.85,
  friction: 0.83,
};

/**
 * The second set of thresholds (`READER_RECALL_MIN_SCORE`): inner out-of-fold precision 0.80 in every
 * category (the floor for preferences and friction), for more recall than `TARGETS` give.
 */
export const RECALL_TARGETS: Record<Category, number> = {
  correction: 0.8,
  preference: 0.8,
  approval: 0.8,
  friction: 0.8,
};

export type Features = (e: Example) => number[];

export interface Model {
  bias: number[];
  /** bucket → four integer weights (sixteenths), by category order. */
  weights: Map<number, Int32Array>;
}

/**
 * Logistic regressions for the four categories at once, over the given rows' buckets. With `PRUNE`,
 * the buckets whose rounded weights all lie within ±PRUNE are dropped and the rest trained again, so
 * that they carry what the dropped ones did.
 */
export function train(rows: readonly Example[], feats: Features): Model {
  const first = trainOnce(rows, feats);
  if (!PRUNE) return first;
  const kept = new Set(
    [...first.weights].filter(([, q]) => q.some((v) => Math.abs(v) > PRUNE)).map(([b]) => b),
  );
  return trainOnce(rows, (e) => feats(e).filter((b) => kept.has(b)));
}

function trainOnce(rows: readonly Example[], feats: Features): Model {
  // Buckets seen by enough authors.
  const authors = new Map<number, Set<string>>();
  for (const e of rows)
    for (const b of feats(e)) {
      let s = authors.get(b);
      if (!s) {
        s = new Set();
        authors.set(b, s);
      }
      if (s.size < MIN_AUTHORS) s.add(e.author);
    }
  const index = new Map<number, number>();
  for (const [b, s] of [...authors].sort((a, c) => a[0] - c[0]))
    if (s.size >= MIN_AUTHORS) index.set(b, index.size);
  const x = rows.map((e) =>
    Int32Array.from(
      feats(e)
        .filter((b) => index.has(b))
        .map((b) => index.get(b)!),
    ),
  );
  const C = CATEGORIES.length;
  const y = rows.map((e) => CATEGORIES.map((c) => (e.labels.includes(c) ? 1 : 0)));
  const n = index.size;
  const w = new Float64Array(n * C);
  const bias = new Float64Array(C);
  const g = new Float64Array(n * C);
  const gb = new Float64Array(C);
  // Adam, full batch: moments per weight.
  const m1 = new Float64Array(n * C);
  const m2 = new Float64Array(n * C);
  const b1 = new Float64Array(C);
  const b2 = new Float64Array(C);
  const z = new Float64Array(C);
  for (let step = 0; step < STEPS; step++) {
    g.fill(0);
    gb.fill(0);
    for (let i = 0; i < x.length; i++) {
      const xi = x[i]!;
      for (let c = 0; c < C; c++) z[c] = bias[c]!;
      for (const k of xi) for (let c = 0; c < C; c++) z[c]! += w[k * C + c]!;
      for (let c = 0; c < C; c++) {
        const d = 1 / (1 + Math.exp(-z[c]!)) - y[i]![c]!;
        z[c] = d;
        gb[c]! += d;
      }
      for (const k of xi) for (let c = 0; c < C; c++) g[k * C + c]! += z[c]!;
    }
    const c1 = 1 - 0.9 ** (step + 1);
    const c2 = 1 - 0.999 ** (step + 1);
    for (let j = 0; j < n * C; j++) {
      const gj = g[j]! / x.length + L2 * w[j]!;
      m1[j] = 0.9 * m1[j]! + 0.1 * gj;
      m2[j] = 0.999 * m2[j]! + 0.001 * gj * gj;
      w[j]! -= (RATE * (m1[j]! / c1)) / (Math.sqrt(m2[j]! / c2) + 1e-8);
    }
    for (let c = 0; c < C; c++) {
      const gj = gb[c]! / x.length;
      b1[c] = 0.9 * b1[c]! + 0.1 * gj;
      b2[c] = 0.999 * b2[c]! + 0.001 * gj * gj;
      bias[c]! -= (RATE * (b1[c]! / c1)) / (Math.sqrt(b2[c]! / c2) + 1e-8);
    }
  }
  const weights = new Map<number, Int32Array>();
  for (const [b, k] of index) {
    const q = Int32Array.from({ length: C }, (_, c) => Math.round(w[k * C + c]! * SCALE));
    if (q.some((v) => v !== 0)) weights.set(b, q);
  }
  return { bias: [...bias].map((v) => Math.round(v * SCALE)), weights };
}

/** The integer logits of one turn, by category. */
export function logits(m: Model, buckets: readonly number[]): number[] {
  const z = [...m.bias];
  for (const b of buckets) {
    const w = m.weights.get(b);
    if (w) for (let c = 0; c < z.length; c++) z[c]! += w[c]!;
  }
  return z.map((v) => Math.max(-LIMIT, Math.min(LIMIT, v)));
}

/** Platt scaling on integer logits: p = σ(a·z/16 + b), fitted by gradient descent (deterministic). */
export function platt(z: readonly number[], y: readonly number[]): { a: number; b: number } {
  let a = 1;
  let b = 0;
  for (let step = 0; step < 2000; step++) {
    let ga = 0;
    let gb = 0;
    for (let i = 0; i < z.length; i++) {
      const s = z[i]! / SCALE;
      const d = 1 / (1 + Math.exp(-(a * s + b))) - y[i]!;
      ga += d * s;
      gb += d;
    }
    a -= (0.5 * ga) / z.length;
    b -= (0.5 * gb) / z.length;
  }
  return { a, b };
}

/** The lowest logit whose rows at or above it reach `target` precision (≥ 5 of them); LIMIT + 1 if none. */
export function threshold(z: readonly number[], y: readonly number[], target: number): number {
  const order = z.map((v, i) => [v, y[i]!] as const).sort((p, q) => q[0] - p[0]);
  let tp = 0;
  let best = LIMIT + 1;
  for (let i = 0; i < order.length; i++) {
    tp += order[i]![1];
    if (i + 1 < order.length && order[i + 1]![0] === order[i]![0]) continue;
    if (i + 1 >= 5 && tp / (i + 1) >= target) best = order[i]![0];
  }
  return best;
}

export interface Fitted {
  model: Model;
  /** Per category: score table over logits -LIMIT..LIMIT (hundredths) and the threshold's score. */
  tables: number[][];
  minScore: Record<Category, number>;
  thresholds: number[];
  /** The same for {@link RECALL_TARGETS}: each at or below its `thresholds` entry. */
  recallMinScore: Record<Category, number>;
  recallThresholds: number[];
}

/**
 * Makes `tbl`'s score at logit `t` strictly above every score below it (and every score from it on at
 * least that), so that a score ≥ the returned one means a logit ≥ `t`; 1.01 when `t` is past LIMIT.
 */
function pin(tbl: number[], t: number): number {
  if (t > LIMIT) return 1.01; // nothing reaches the target: the category is never reported
  const ti = t + LIMIT;
  const at = Math.max(tbl[ti]!, ti > 0 ? tbl[ti - 1]! + 1 : 1);
  for (let i = ti; i < tbl.length; i++) tbl[i] = Math.max(tbl[i]!, at);
  return at / 100;
}

/** A fold of `k` by author, salted: the same author always lands in the same fold. */
export const foldOf = (author: string, salt: string, k: number) => fnv1a32(`${salt}#${author}`) % k;

/**
 * Train on `rows`, calibrate and choose thresholds on their inner out-of-fold logits. Synthetic rows
 * (`split` `synthetic`) train every inner model but are never calibrated on: invented turns are easier
 * than real ones, and a threshold chosen on them lets real precision fall.
 */
export function fitReader(rows: readonly Example[], feats: Features): Fitted {
  const oofZ: number[][] = CATEGORIES.map(() => []);
  const oofY: number[][] = CATEGORIES.map(() => []);
  for (let k = 0; k < INNER; k++) {
    const inTest = (e: Example) => foldOf(e.author, 'reader-inner', INNER) === k;
    const m = train(
      rows.filter((e) => !inTest(e)),
      feats,
    );
    for (const e of rows.filter((x) => inTest(x) && x.split !== 'synthetic')) {
      const z = logits(m, feats(e));
      CATEGORIES.forEach((c, ci) => {
        oofZ[ci]!.push(z[ci]!);
        oofY[ci]!.push(e.labels.includes(c) ? 1 : 0);
      });
    }
  }
  const model = train(rows, feats);
  const tables: number[][] = [];
  const thresholds: number[] = [];
  const recallThresholds: number[] = [];
  const minScore = {} as Record<Category, number>;
  const recallMinScore = {} as Record<Category, number>;
  CATEGORIES.forEach((c, ci) => {
    const { a, b } = platt(oofZ[ci]!, oofY[ci]!);
    const t = threshold(oofZ[ci]!, oofY[ci]!, TARGETS[c]);
    const t2 = Math.min(t, threshold(oofZ[ci]!, oofY[ci]!, RECALL_TARGETS[c]));
    const tbl: number[] = [];
    for (let z = -LIMIT; z <= LIMIT; z++) tbl.push(Math.round(100 / (1 + Math.exp(-(a * (z / SCALE) + b)))));
    // Monotone, and each threshold's score strictly above every score under it (the lower one first).
    for (let i = 1; i < tbl.length; i++) tbl[i] = Math.max(tbl[i]!, tbl[i - 1]!);
    recallMinScore[c] = pin(tbl, t2);
    minScore[c] = pin(tbl, t);
    tables.push(tbl);
    thresholds.push(t);
    recallThresholds.push(t2);
  });
  return { model, tables, minScore, thresholds, recallMinScore, recallThresholds };
}

/** The scores of one turn from a fitted model (what `readerModel` computes at run time). */
export function scoresOf(f: Fitted, buckets: readonly number[]): Record<Category, number> {
  const z = logits(f.model, buckets);
  return Object.fromEntries(CATEGORIES.map((c, ci) => [c, f.tables[ci]![z[ci]! + LIMIT]! / 100])) as Record<
    Category,
    number
  >;
}

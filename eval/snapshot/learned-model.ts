/**
 * Multinomial logistic regression (softmax) over binary features for eval/snapshot/learned.ts: mean
 * cross-entropy plus L2 on the weights (not the biases), full-batch Nesterov gradient steps from zero
 * with the step size 1/L, L the Böhning bound 0.5·λmax(XᵀX/n) + λ (λmax by a fixed-start power
 * iteration). No randomness: the same data give the same weights.
 */

/** Rows as sorted feature indices (index 0 is the bias, on in every row). */
export type Rows = readonly Int32Array[];

export interface Trained {
  /** Weights after each requested number of steps: K×D, row-major by class. */
  at: Map<number, Float64Array>;
}

function lipschitz(rows: Rows, d: number): number {
  const n = rows.length;
  let v = new Float64Array(d).fill(1 / Math.sqrt(d));
  let lambda = 0;
  for (let it = 0; it < 40; it++) {
    const next = new Float64Array(d);
    for (const r of rows) {
      let s = 0;
      for (const j of r) s += v[j]!;
      for (const j of r) next[j]! += s / n;
    }
    let norm = 0;
    for (let j = 0; j < d; j++) norm += next[j]! * next[j]!;
    norm = Math.sqrt(norm);
    lambda = norm;
    for (let j = 0; j < d; j++) next[j] = next[j]! / (norm || 1);
    v = next;
  }
  return lambda;
}

/** Class probabilities of one row. */
export function probs(w: Float64Array, row: Int32Array, k: number, d: number, out = new Float64Array(k)) {
  let max = -Infinity;
  for (let c = 0; c < k; c++) {
    let z = 0;
    const o = c * d;
    for (const j of row) z += w[o + j]!;
    out[c] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let c = 0; c < k; c++) {
    out[c] = Math.exp(out[c]! - max);
    sum += out[c]!;
  }
  for (let c = 0; c < k; c++) out[c] = out[c]! / sum;
  return out;
}

/** Trains on `rows`/`y` (classes 0…k-1, d features), keeping the weights after each of `checkpoints` steps. */
export function train(
  rows: Rows,
  y: readonly number[],
  k: number,
  d: number,
  l2: number,
  checkpoints: readonly number[],
): Trained {
  const n = rows.length;
  const step = 1 / (0.5 * lipschitz(rows, d) + l2);
  // Identical (row, class) pairs are merged into one with a count: same loss, fewer passes.
  const merged = new Map<string, { r: Int32Array; c: number; count: number }>();
  for (let i = 0; i < n; i++) {
    const key = `${y[i]}|${rows[i]!.join(',')}`;
    const m = merged.get(key);
    if (m) m.count++;
    else merged.set(key, { r: rows[i]!, c: y[i]!, count: 1 });
  }
  const uniq = [...merged.values()];
  let w = new Float64Array(k * d);
  let prev = new Float64Array(k * d);
  const look = new Float64Array(k * d);
  const grad = new Float64Array(k * d);
  const p = new Float64Array(k);
  const at = new Map<number, Float64Array>();
  const last = Math.max(...checkpoints);
  for (let t = 1; t <= last; t++) {
    const mom = (t - 1) / (t + 2);
    for (let i = 0; i < k * d; i++) look[i] = w[i]! + mom * (w[i]! - prev[i]!);
    grad.fill(0);
    for (const { r, c: yc, count } of uniq) {
      probs(look, r, k, d, p);
      p[yc]! -= 1;
      for (let c = 0; c < k; c++) {
        const g = (p[c]! * count) / n;
        const o = c * d;
        for (const j of r) grad[o + j]! += g;
      }
    }
    for (let c = 0; c < k; c++) for (let j = 1; j < d; j++) grad[c * d + j]! += l2 * look[c * d + j]!;
    const nextW = prev; // reuse the buffer
    for (let i = 0; i < k * d; i++) nextW[i] = look[i]! - step * grad[i]!;
    prev = w;
    w = nextW;
    if (checkpoints.includes(t)) at.set(t, w.slice());
  }
  return { at };
}

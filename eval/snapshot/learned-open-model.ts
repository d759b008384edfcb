/**
 * The trainer of eval/snapshot/learned-open.ts: softmax regression over sparse binary rows with a
 * per-feature step, so that open-vocabulary weights converge in a few hundred full-batch steps.
 */
import { LABELS } from './score.js';

const K = LABELS.length;

/**
 * Trains on `rows` (sorted feature indices, index 0 the bias) with classes `y`, `d` features and L2
 * `l2`; returns the feature-major weights at each step count of `checkpoints`.
 *
 * Softmax regression (mean cross-entropy + L2 on all weights but the bias), full-batch Nesterov steps
 * from zero with a per-feature step 1/(0.5·Σᵢ xᵢⱼ·|rowᵢ|/n + λ): a diagonal majorizer of the loss's
 * curvature (Böhning's bound and Cauchy-Schwarz: XᵀX ≼ diag(Σᵢ xᵢⱼ|rowᵢ|)), so every step is safe and
 * rare words move as fast as common ones. Learned-model.ts's trainer takes one global step 1/λmax,
 * which left the open-vocabulary weights far from converged at 300 steps and was ~5x slower.
 * Weights are feature-major (w[j·K + c]). Deterministic: no randomness, fixed order.
 *
 * @example
 * ```ts
 * const w = train([Int32Array.of(0, 1)], [2], 2, 0.001, [50]).get(50)!;
 * ```
 */
export function train(
  rows: readonly Int32Array[],
  y: readonly number[],
  d: number,
  l2: number,
  checkpoints: readonly number[],
) {
  const n = rows.length;
  let nnz = 0;
  for (const r of rows) nnz += r.length;
  const off = new Int32Array(n + 1);
  const cols = new Int32Array(nnz);
  for (let i = 0, o = 0; i < n; i++) {
    cols.set(rows[i]!, o);
    o += rows[i]!.length;
    off[i + 1] = o;
  }
  const curv = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let a = off[i]!; a < off[i + 1]!; a++) curv[cols[a]!]! += rows[i]!.length;
  const step = new Float64Array(d);
  for (let j = 0; j < d; j++) step[j] = 1 / ((0.5 * curv[j]!) / n + (j === 0 ? 0 : l2) || 1);
  let w = new Float64Array(d * K);
  let prev = new Float64Array(d * K);
  const look = new Float64Array(d * K);
  const grad = new Float64Array(d * K);
  const z = new Float64Array(K);
  const at = new Map<number, Float64Array>();
  const last = Math.max(...checkpoints);
  for (let t = 1; t <= last; t++) {
    const mom = (t - 1) / (t + 2);
    for (let i = 0; i < d * K; i++) look[i] = w[i]! + mom * (w[i]! - prev[i]!);
    grad.fill(0);
    for (let i = 0; i < n; i++) {
      z.fill(0);
      for (let a = off[i]!; a < off[i + 1]!; a++) {
        const o = cols[a]! * K;
        for (let c = 0; c < K; c++) z[c]! += look[o + c]!;
      }
      softmax(z);
      for (let c = 0; c < K; c++) z[c] = z[c]! / n;
      z[y[i]!]! -= 1 / n;
      for (let a = off[i]!; a < off[i + 1]!; a++) {
        const o = cols[a]! * K;
        for (let c = 0; c < K; c++) grad[o + c]! += z[c]!;
      }
    }
    const next = prev; // reuse the buffer
    for (let j = 0; j < d; j++) {
      const reg = j === 0 ? 0 : l2;
      for (let c = 0, o = j * K; c < K; c++, o++) next[o] = look[o]! - step[j]! * (grad[o]! + reg * look[o]!);
    }
    prev = w;
    w = next;
    if (checkpoints.includes(t)) at.set(t, w.slice());
  }
  return at;
}

/** `z` turned in place into probabilities (max-shifted, so no exponent overflows). */
function softmax(z: Float64Array): Float64Array {
  let max = -Infinity;
  for (let c = 0; c < K; c++) if (z[c]! > max) max = z[c]!;
  let sum = 0;
  for (let c = 0; c < K; c++) {
    z[c] = Math.exp(z[c]! - max);
    sum += z[c]!;
  }
  for (let c = 0; c < K; c++) z[c] = z[c]! / sum;
  return z;
}

/**
 * Class probabilities of one row under feature-major weights.
 *
 * @example
 * ```ts
 * probs(w, Int32Array.of(0, 1)).length; // LABELS.length
 * ```
 */
export function probs(w: Float64Array, row: Int32Array): Float64Array {
  const z = new Float64Array(K);
  for (const j of row) for (let c = 0; c < K; c++) z[c]! += w[j * K + c]!;
  return softmax(z);
}

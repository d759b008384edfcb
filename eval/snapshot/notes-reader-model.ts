/**
 * The notes reader's trainer (issue 39): multinomial logistic regression over hashed binary features,
 * per-feature AdaGrad steps with L2 on the touched weights, a fixed number of epochs in an order set by
 * a hash of each entry's id: the same data give the same weights. Weights are then quantised to
 * integers (`SCALE` steps per logit) and a prediction is the argmax of integer sums (ties to the
 * earlier category), exactly what lib/categorise-model computes.
 */
import { fnv1a32 } from '../../lib/core/index.js';

/** Integer steps per logit of the shipped weights. */
export const SCALE = 16;

export interface TrainOptions {
  l2: number;
  /** Epoch counts after which the weights are kept (the last is how long training runs). */
  epochs: readonly number[];
  rate?: number;
  /** Buckets whose weights carry no L2 (the rules' own answer: the model starts from it). */
  free?: ReadonlySet<number>;
}

export interface FloatModel {
  k: number;
  /** Weights by bucket: k per bucket. */
  w: Map<number, Float64Array>;
  bias: Float64Array;
}

export interface IntModel {
  k: number;
  w: Map<number, Int32Array>;
  bias: Int32Array;
}

/**
 * Trains on rows (sorted bucket ids) with classes `y` in 0 … k-1; `ids` order the epochs. Returns the
 * model after each epoch count of `o.epochs`.
 */
export function train(
  rows: readonly Int32Array[],
  y: readonly number[],
  ids: readonly string[],
  k: number,
  o: TrainOptions,
): Map<number, FloatModel> {
  const at = new Map<number, FloatModel>();
  const last = Math.max(...o.epochs);
  const rate = o.rate ?? 0.5;
  const w = new Map<number, Float64Array>();
  const g2 = new Map<number, Float64Array>();
  const bias = new Float64Array(k);
  const biasG2 = new Float64Array(k).fill(1e-8);
  const z = new Float64Array(k);
  const p = new Float64Array(k);
  for (let epoch = 0; epoch < last; epoch++) {
    const order = rows.map((_, i) => i);
    const key = order.map((i) => fnv1a32(`${epoch}|${ids[i]}`));
    order.sort((a, b) => key[a]! - key[b]! || a - b);
    for (const i of order) {
      const r = rows[i]!;
      for (let c = 0; c < k; c++) z[c] = bias[c]!;
      for (const b of r) {
        const wb = w.get(b);
        if (wb) for (let c = 0; c < k; c++) z[c]! += wb[c]!;
      }
      let max = -Infinity;
      for (let c = 0; c < k; c++) if (z[c]! > max) max = z[c]!;
      let sum = 0;
      for (let c = 0; c < k; c++) {
        p[c] = Math.exp(z[c]! - max);
        sum += p[c]!;
      }
      for (let c = 0; c < k; c++) {
        const g = p[c]! / sum - (c === y[i] ? 1 : 0);
        biasG2[c]! += g * g;
        bias[c]! -= (rate * g) / Math.sqrt(biasG2[c]!);
        p[c] = g;
      }
      for (const b of r) {
        let wb = w.get(b);
        let gb = g2.get(b);
        if (!wb || !gb) {
          wb = new Float64Array(k);
          gb = new Float64Array(k).fill(1e-8);
          w.set(b, wb);
          g2.set(b, gb);
        }
        const l2 = o.free?.has(b) ? 0 : o.l2;
        for (let c = 0; c < k; c++) {
          const g = p[c]! + l2 * wb[c]!;
          gb[c]! += g * g;
          wb[c]! -= (rate * g) / Math.sqrt(gb[c]!);
        }
      }
    }
    if (o.epochs.includes(epoch + 1)) {
      const copy = new Map<number, Float64Array>();
      for (const [b, wb] of w) copy.set(b, wb.slice());
      at.set(epoch + 1, { k, w: copy, bias: bias.slice() });
    }
  }
  return at;
}

/** Rounds weights to integers (`SCALE` per logit); buckets left all zero are dropped. */
export function quantise(m: FloatModel, scale = SCALE): IntModel {
  const w = new Map<number, Int32Array>();
  for (const [b, wb] of m.w) {
    const q = Int32Array.from(wb, (v) => Math.round(v * scale));
    if (q.some((v) => v !== 0)) w.set(b, q);
  }
  return { k: m.k, w, bias: Int32Array.from(m.bias, (v) => Math.round(v * scale)) };
}

/** Integer logits of one row. */
export function logits(m: IntModel, row: Int32Array): Int32Array {
  const z = Int32Array.from(m.bias);
  for (const b of row) {
    const wb = m.w.get(b);
    if (wb) for (let c = 0; c < m.k; c++) z[c]! += wb[c]!;
  }
  return z;
}

/** The class of one row: the largest integer logit, ties to the lower class index. */
export function predict(m: IntModel, row: Int32Array): number {
  const z = logits(m, row);
  let best = 0;
  for (let c = 1; c < m.k; c++) if (z[c]! > z[best]!) best = c;
  return best;
}

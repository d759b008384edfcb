/**
 * Confidence of a key point from its counters, and the deterministic orders built on it.
 *
 * @module
 */
import { type KeyPoint, parseKeyPointId } from './model.js';

/**
 * The z of {@link wilsonLowerBound}: 1.96, the two-sided 95% normal quantile. With it a key point
 * needs about 4 helpful and no harmful verdicts to reach 0.5, and 1 helpful / 1 harmful scores 0.09.
 *
 * @example
 * ```ts
 * wilsonLowerBound(10, 0, WILSON_Z); // ≈ 0.722, the default
 * wilsonLowerBound(10, 0, 1.645);    // ≈ 0.787 with a 90% quantile: less cautious
 * ```
 */
export const WILSON_Z = 1.96;

/**
 * The lower bound of the Wilson score interval for the share of helpful verdicts: a confidence in [0, 1]
 * that rewards evidence (10/0 beats 1/0) and punishes harm. 0 when there is no evidence at all.
 *
 * @example
 * ```ts
 * wilsonLowerBound(0, 0);  // 0
 * wilsonLowerBound(1, 0);  // ≈ 0.207
 * wilsonLowerBound(10, 0); // ≈ 0.722
 * wilsonLowerBound(10, 5); // ≈ 0.417
 * ```
 */
export function wilsonLowerBound(helpful: number, harmful: number, z: number = WILSON_Z): number {
  const h = Number.isFinite(helpful) && helpful > 0 ? helpful : 0;
  const x = Number.isFinite(harmful) && harmful > 0 ? harmful : 0;
  const n = h + x;
  if (n === 0) return 0;
  const p = h / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - margin) / (1 + z2 / n));
}

/**
 * The confidence of a key point: {@link wilsonLowerBound} of its counters.
 *
 * @example
 * ```ts
 * keyPointConfidence({ name: 'pat-001', text: 'x', helpful: 4, harmful: 0 }); // ≈ 0.51
 * ```
 */
export function keyPointConfidence(kp: Pick<KeyPoint, 'helpful' | 'harmful'>): number {
  return wilsonLowerBound(kp.helpful, kp.harmful);
}

/**
 * Orders key point names deterministically in every runtime: section ids by slug then number
 * (`pat-2` < `pat-010`), then any other name by UTF-16 code units.
 *
 * @example
 * ```ts
 * ['pat-010', 'kpt_1', 'pat-002'].sort(compareNames); // ['kpt_1', 'pat-002', 'pat-010']
 * ```
 */
export function compareNames(a: string, b: string): number {
  const x = parseKeyPointId(a);
  const y = parseKeyPointId(b);
  if (x && y) {
    if (x.slug !== y.slug) return x.slug < y.slug ? -1 : 1;
    if (x.number !== y.number) return x.number - y.number;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Eviction order: lowest confidence first, then more harmful verdicts, then older (`createdAt`;
 * key points without one count as oldest), then name. Negative when `a` goes before `b`.
 *
 * @example
 * ```ts
 * keyPoints.sort(compareForEviction)[0]; // the first key point to drop
 * ```
 */
export function compareForEviction(a: KeyPoint, b: KeyPoint): number {
  return (
    keyPointConfidence(a) - keyPointConfidence(b) ||
    b.harmful - a.harmful ||
    cmp(a.createdAt ?? '', b.createdAt ?? '') ||
    compareNames(a.name, b.name)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What the two learned-categoriser experiments (learned.ts, learned-open.ts) share: the hybrid's
 * margins and decision, and the exact sign test on the entries only one of two categorisers gets right.
 */

/** Probability margins the hybrid is tried at (`Infinity`: always the rules' answer). */
export const MARGINS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, Number.POSITIVE_INFINITY];

/**
 * The index of the largest probability (the first, on a tie).
 *
 * @example
 * ```ts
 * argmax(Float64Array.of(0.2, 0.5, 0.3)); // 1
 * ```
 */
export function argmax(p: Float64Array): number {
  let m = 0;
  for (let c = 1; c < p.length; c++) if (p[c]! > p[m]!) m = c;
  return m;
}

/**
 * The hybrid's class: the rules' class `rule`, unless the model's top class beats it by more than `t`.
 *
 * @example
 * ```ts
 * hybrid(Float64Array.of(0.7, 0.3), 1, 0.3); // 0 (0.7 - 0.3 > 0.3)
 * ```
 */
export function hybrid(p: Float64Array, rule: number, t: number): number {
  const m = argmax(p);
  return m !== rule && p[m]! - p[rule]! > t ? m : rule;
}

/**
 * Two-sided exact sign test on the discordant pairs (`b`: only the challenger right, `c`: only the rules).
 *
 * @example
 * ```ts
 * signTest(8, 1); // 0.039
 * ```
 */
export function signTest(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0;
  let coef = 1; // C(n, 0)
  for (let x = 0; x <= Math.min(b, c); x++) {
    tail += coef / 2 ** n;
    coef = (coef * (n - x)) / (x + 1);
  }
  return Math.min(1, 2 * tail);
}

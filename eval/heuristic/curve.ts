/**
 * A ranking's precision-recall summary, threshold-free: average precision, and the best recall whose
 * precision reaches each target. Shared by `reader-curve.ts` and `probe-friction.ts`.
 */

/** One scored row: its score and whether it holds the category. */
export interface Ranked {
  s: number;
  y: boolean;
}

/**
 * Average precision of `rows` ranked by score (highest first, ties in input order), and per target
 * precision (as written, e.g. `'0.80'`) the best recall reached at or above it.
 */
export function rankingCurve(
  rows: readonly Ranked[],
  targets: readonly string[],
): { positives: number; ap: number; recallAt: Record<string, number> } {
  const ranked = [...rows].sort((a, b) => b.s - a.s);
  const positives = ranked.filter((r) => r.y).length;
  let tp = 0;
  let ap = 0;
  const recallAt: Record<string, number> = Object.fromEntries(targets.map((t) => [t, 0]));
  ranked.forEach((r, i) => {
    if (!r.y) return;
    tp++;
    const p = tp / (i + 1);
    ap += p / Math.max(1, positives);
    for (const t of targets) if (p >= Number(t)) recallAt[t] = Math.max(recallAt[t]!, tp / positives);
  });
  return { positives, ap, recallAt };
}

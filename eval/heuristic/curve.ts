/**
 * A ranking's precision-recall summary, threshold-free: average precision, and the best recall whose
 * precision reaches each target; and the reader trainer's out-of-fold logits it is read from. Shared by
 * `reader-curve.ts`, `probe-friction.ts`, `reader-probe.ts` and `reader-acted.ts`.
 */
import { fnv1a32 } from '../../lib/core/index';
import type { Example } from './reader-data';
import { type Features, logits, train } from './reader-train';

/**
 * Each row's four logits from the reader's trainer fitted without its author's fold (the 5 author folds
 * of reader-train.ts), on `rows` alone: no calibration, no threshold.
 */
export function foldLogits(rows: readonly Example[], feats: Features): Map<Example, number[]> {
  const z = new Map<Example, number[]>();
  for (let k = 0; k < 5; k++) {
    const inK = (e: Example) => fnv1a32(`fold#${e.author}`) % 5 === k;
    const m = train(
      rows.filter((e) => !inK(e)),
      feats,
    );
    for (const e of rows.filter(inK)) z.set(e, logits(m, feats(e)));
  }
  return z;
}

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

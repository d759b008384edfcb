/**
 * Probe (training folds only): pooled out-of-fold logits of the reader's trainer for feature variants
 * and settings, read as recall at the oracle cut reaching precision 0.85 and average precision, per
 * category, on the strangers rows of the folds. For choosing settings; never reads `strangers-final`.
 */
import { hashFeature, readerBuckets, turnFeatures } from '../../lib/heuristic-model/index';
import { foldLogits } from './curve';
import { CATEGORIES } from './data';
import type { Example } from './reader-data';
import { type Features, loadPool } from './reader-train';

const { pool } = loadPool();
const memo = (f: (e: Example) => number[]): Features => {
  const m = new Map<Example, number[]>();
  return (e) => {
    let v = m.get(e);
    if (!v) {
      v = f(e);
      m.set(e, v);
    }
    return v;
  };
};
const variants: Record<string, Features> = {
  closed: memo((e) => [...new Set(turnFeatures(e.evidence!).map(hashFeature))]),
  reader: memo((e) => readerBuckets(e.evidence!)),
};
const only = process.argv[2];
for (const [name, feats] of Object.entries(variants)) {
  if (only && name !== only) continue;
  const z = foldLogits(pool, feats);
  for (const subset of ['strangers', 'all']) {
    const rows = pool.filter((e) => subset === 'all' || e.id.startsWith('s:'));
    const out: string[] = [];
    CATEGORIES.forEach((c, ci) => {
      const order = rows
        .map((e) => [z.get(e)![ci]!, e.labels.includes(c) ? 1 : 0] as const)
        .sort((a, b) => b[0] - a[0]);
      const pos = order.reduce((s, r) => s + r[1], 0);
      let tp = 0;
      let ap = 0;
      let best = 0;
      order.forEach(([, y], i) => {
        tp += y;
        if (y) ap += tp / (i + 1);
        if (i >= 4 && tp / (i + 1) >= 0.85) best = Math.max(best, tp / pos);
      });
      out.push(`${c} AP ${(ap / pos).toFixed(3)} R@P.85 ${best.toFixed(3)}`);
    });
    console.log(`${name} ${subset}: ${out.join(' | ')}`);
  }
}
if (process.argv.includes('--fp')) {
  const feats = variants.reader!;
  const z = foldLogits(pool, feats);
  const rows = pool.filter((e) => e.id.startsWith('s:')).sort((a, b) => z.get(b)![0]! - z.get(a)![0]!);
  for (const e of rows.slice(0, 60))
    console.log(
      z.get(e)![0],
      e.labels.includes('correction') ? 'TP' : 'FP',
      e.source,
      e.lang,
      e.evidence!.first ? 'first' : '',
      JSON.stringify(e.evidence!.text.slice(0, 110)),
      '| reply:',
      JSON.stringify((e.evidence!.reply ?? '').slice(-80)),
    );
}

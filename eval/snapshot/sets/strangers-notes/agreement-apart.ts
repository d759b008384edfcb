/**
 * `npx tsx eval/snapshot/sets/strangers-notes/agreement-apart.ts <3|4|5>`: how far the blind readers of
 * `strangers-notes-<n>` agree on the ids of its `second-reader-sample.txt`. Reads only `labels.tsv` (first
 * readers) and `labels-second.tsv` (second reader); runs no classifier. Prints JSON: raw agreement and
 * Cohen's kappa on the category and on the `hard` flag, and the disagreements as a first→second count
 * (ids and labels only, never text).
 */
import { resolve } from 'node:path';
import { kappa, readTsv } from './agreement';

const n = Number(process.argv[2]);
if (!(n >= 3)) throw new Error('usage: agreement-apart.ts <set number, 3 or later>');
const DIR = resolve(import.meta.dirname, '..', `strangers-notes-${n}`);
const first = readTsv(resolve(DIR, 'labels.tsv'));
const second = readTsv(resolve(DIR, 'labels-second.tsv'));
const pairs: [string, string][] = [];
const hard: [string, string][] = [];
const disagreements: Record<string, number> = {};
for (const [id, [label, h]] of second) {
  const f = first.get(id);
  if (!f) throw new Error(`${id} has no first label`);
  pairs.push([f[0], label]);
  hard.push([f[1], h]);
  if (f[0] !== label) disagreements[`${f[0]}→${label}`] = (disagreements[`${f[0]}→${label}`] ?? 0) + 1;
}
const agree = (ps: [string, string][]) => ps.filter(([a, b]) => a === b).length;
console.log(
  JSON.stringify(
    {
      n: pairs.length,
      category: { agree: agree(pairs), kappa: Number(kappa(pairs).toFixed(3)) },
      hard: { agree: agree(hard), kappa: Number(kappa(hard).toFixed(3)) },
      disagreements,
    },
    null,
    2,
  ),
);

/**
 * `npx tsx eval/snapshot/sets/strangers-notes/agreement.ts [<set folder>]`: how far the two blind readers of the
 * `strangers-notes` set (or the set in the folder given) agree on the 100 ids of `second-reader-sample.txt`. Reads only
 * `labels.tsv` (first reader) and `labels-second.tsv` (second reader); runs no classifier, so the
 * figures are the readers' own ceiling, not a model score. Prints JSON: raw agreement, Cohen's kappa on
 * the category, agreement and kappa on the `hard` flag, the same split by stratum (`pos-*` vs `cue`),
 * the disagreements as a first→second confusion count and the ids whose `hard` flag differs (ids only,
 * never text).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The set's folder: this one, or the one named on the command line (`sharegpt-notes`'s has the same files). */
const DIR = resolve(process.argv[2] ?? import.meta.dirname);

/**
 * `id → [label, hard]` of a labels TSV (one `#` header line, then `id\tlabel\thard`); throws on a
 * malformed line or an id labelled twice.
 * @example readTsv('eval/snapshot/sets/strangers-notes/labels-second.tsv').get('notes-112'); // ['nextActions', '0']
 */
export function readTsv(path: string): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [id, label, hard] = line.split('\t');
    if (!id || !label || (hard !== '0' && hard !== '1')) throw new Error(`${path}: malformed line "${line}"`);
    if (out.has(id)) throw new Error(`${path}: ${id} is labelled twice`);
    out.set(id, [label, hard]);
  }
  return out;
}

/**
 * Cohen's kappa of two labellings of the same items (chance from each reader's own marginals).
 * @example kappa([['a', 'a'], ['a', 'b'], ['b', 'a'], ['b', 'b']]); // 0: no better than chance
 */
export function kappa(pairs: readonly (readonly [string, string])[]): number {
  const n = pairs.length;
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  let chance = 0;
  for (const [k, v] of a) chance += (v / n) * ((b.get(k) ?? 0) / n);
  return chance === 1 ? 1 : (agree / n - chance) / (1 - chance);
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

function figures(
  ids: readonly string[],
  first: Map<string, [string, string]>,
  second: Map<string, [string, string]>,
) {
  const cat = ids.map((id) => [first.get(id)![0], second.get(id)![0]] as const);
  const hard = ids.map((id) => [first.get(id)![1], second.get(id)![1]] as const);
  return {
    n: ids.length,
    categoryAgreement: r3(cat.filter(([x, y]) => x === y).length / ids.length),
    categoryKappa: r3(kappa(cat)),
    hardAgreement: r3(hard.filter(([x, y]) => x === y).length / ids.length),
    hardKappa: r3(kappa(hard)),
    hardCounts: {
      first: hard.filter(([x]) => x === '1').length,
      second: hard.filter(([, y]) => y === '1').length,
    },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const sample = readFileSync(join(DIR, 'second-reader-sample.txt'), 'utf8')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  const first = readTsv(join(DIR, 'labels.tsv'));
  const second = readTsv(join(DIR, 'labels-second.tsv'));
  for (const id of sample)
    if (!first.has(id) || !second.has(id)) throw new Error(`${id} is missing from one of the readers`);
  const stratum = new Map<string, string>(
    readFileSync(join(DIR, 'entries.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: string; stratum: string })
      .map((r) => [r.id, r.stratum]),
  );
  const pos = sample.filter((id) => stratum.get(id)?.startsWith('pos'));
  const cue = sample.filter((id) => stratum.get(id) === 'cue');
  const confusion: Record<string, string[]> = {};
  const marginals: Record<string, { first: number; second: number }> = {};
  const hardDiffers: string[] = [];
  for (const id of sample) {
    const [a, b] = [first.get(id)![0], second.get(id)![0]];
    marginals[a] ??= { first: 0, second: 0 };
    marginals[b] ??= { first: 0, second: 0 };
    marginals[a].first++;
    marginals[b].second++;
    if (a !== b) {
      const key = `${a} → ${b}`;
      confusion[key] = [...(confusion[key] ?? []), id];
    }
    const [ha, hb] = [first.get(id)![1], second.get(id)![1]];
    if (ha !== hb) hardDiffers.push(`${id} ${ha}→${hb}${a === b ? '' : ' (category differs too)'}`);
  }
  process.stdout.write(
    `${JSON.stringify(
      {
        all: figures(sample, first, second),
        pos: figures(pos, first, second),
        cue: figures(cue, first, second),
        marginals,
        disagreements: Object.fromEntries(
          Object.entries(confusion)
            .sort((x, y) => y[1].length - x[1].length)
            .map(([k, v]) => [k, { n: v.length, ids: v }]),
        ),
        hardDisagreements: hardDiffers,
      },
      null,
      2,
    )}\n`,
  );
}

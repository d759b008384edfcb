/**
 * Linear time on adversarial text, as time ratios in one run: each input of test/adversarial.ts at
 * size n and 4n (user turns through `classifyTurn`, notes through the deterministic snapshot). A
 * linear scan gives a ratio near 4, a quadratic one near 16; `linear` is the ratio below 10. The tests
 * run the same inputs once, at a size a quadratic scan could not finish within their timeout.
 *
 * Standalone: `npx tsx bench/adversarial.bench.ts` prints JSON.
 */
import { pathToFileURL } from 'node:url';
import { classifyTurn } from '../lib/heuristic/index';
import { deterministicSnapshot } from '../lib/snapshot/index';
import { NOTE_ADVERSARIAL, TURN_ADVERSARIAL } from '../test/adversarial';
import { type BenchResult, type BenchSuite, measure, round } from './harness';

const note = (value: string) =>
  deterministicSnapshot({
    objective: '',
    entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
  });

async function ratios(
  prefix: string,
  inputs: [string, (n: number) => string][],
  run: (text: string) => unknown,
  n: number,
): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const [name, make] of inputs) {
    const small = make(n);
    const large = make(4 * n);
    const a = await measure(`${prefix}/${name}/${n}`, () => run(small), { minRuns: 5, budgetMs: 500 });
    const b = await measure(`${prefix}/${name}/${4 * n}`, () => run(large), { minRuns: 5, budgetMs: 500 });
    const ratio = round(b.medianMs / Math.max(a.medianMs, 0.001), 2);
    out.push({ ...b, name: `${prefix}/${name}`, smallMs: a.medianMs, ratio4x: ratio, linear: ratio < 10 });
  }
  return out;
}

const suite: BenchSuite = {
  name: 'adversarial',
  async run() {
    return [
      ...(await ratios('classifyTurn', TURN_ADVERSARIAL, (t) => classifyTurn(t), 2_000_000)),
      ...(await ratios('snapshot-note', NOTE_ADVERSARIAL, note, 400_000)),
    ];
  },
};

export default suite;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    JSON.stringify({ node: process.version, suite: suite.name, results: await suite.run() }, null, 2),
  );
}

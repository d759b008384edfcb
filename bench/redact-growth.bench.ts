/**
 * Growth ratios of lib/redact's scanners for unusual spellings (encoded, escaped, glued, invisible characters,
 * placeholders) on adversarial input: the median time (5 runs) at 2x over the median at 1x, for 10 KB and
 * 100 KB. Linear is about 2. Printed as JSON; the same inputs are enforced by
 * test/unit/linear-time-errors.test.ts (CPU time, fastest of rounds, a collector step allowed).
 *
 * Standalone: `npx tsx bench/redact-growth.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { createRedactor } from '../lib/redact/index';
import { REDACT_ADVERSARIAL as ADVERSARIAL } from '../tools/shared/redact-adversarial';
import type { BenchResult, BenchSuite } from './harness';

function medianMs(text: string, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = createRedactor();
    const t0 = performance.now();
    r.redact(text);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[runs >> 1]!;
}

const suite = {
  name: 'redact-growth',
  run(): BenchResult[] {
    return ADVERSARIAL.map(([name, unit]) => {
      const make = (bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
      medianMs(make(10_000), 2);
      const at100k = medianMs(make(100_000));
      const ratio = (size: number, base = medianMs(make(size))) =>
        Math.round((medianMs(make(2 * size)) / Math.max(base, 0.5)) * 100) / 100;
      // `medianMs` is the time at 100 KB, the larger size; the ratios are the result.
      return {
        name: `growth/${name}`,
        medianMs: Math.round(at100k * 1000) / 1000,
        runs: 5,
        ratio10k: ratio(10_000),
        ratio100k: ratio(100_000, at100k),
      };
    });
  },
} satisfies BenchSuite;

export default suite;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify({ node: process.version, suite: suite.name, results: suite.run() }, null, 2));
}

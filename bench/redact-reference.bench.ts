/**
 * Reference benchmark: the secret kinds of secretlint's recommended preset and gitleaks' default
 * configuration (tools/shared/redact-reference.ts) × the positions a key takes when it leaks (plain,
 * JSON-escaped, URL-encoded, quoted four ways, glued to a word or a digit, split by invisible
 * characters, across two messages) → recall per position and per kind; and false positives per class of
 * look-alike. test/unit/redact-reference.test.ts enforces recall 1 everywhere and the measured false
 * positives.
 *
 * Standalone: `npx tsx bench/redact-reference.bench.ts` prints JSON.
 */
import { pathToFileURL } from 'node:url';
import {
  falsePositives,
  REFERENCE_POSITIONS,
  referenceKinds,
  scoreReference,
} from '../tools/shared/redact-reference';
import type { BenchResult, BenchSuite } from './harness';

const SEEDS = [1, 2, 3];

const suite = {
  name: 'redact-reference',
  run(): BenchResult[] {
    return SEEDS.map((seed) => {
      // One scoring run per seed (the set built from its seed, then every text redacted): recall and
      // false positives are the result; the time has no baseline and only flags a gross slowdown.
      const t0 = performance.now();
      const score = scoreReference(seed);
      const ms = performance.now() - t0;
      return {
        name: `reference/seed-${seed}`,
        medianMs: Math.round(ms * 1000) / 1000,
        runs: 1,
        kinds: referenceKinds(seed).length,
        positions: REFERENCE_POSITIONS.length,
        planted: score.planted,
        missed: score.missed,
        minRecall: Math.min(...Object.values(score.recallByKind), ...Object.values(score.recallByPosition)),
        recallByPosition: score.recallByPosition,
        falsePositives: falsePositives(seed),
      };
    });
  },
} satisfies BenchSuite;

export default suite;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify({ node: process.version, suite: suite.name, results: suite.run() }, null, 2));
}

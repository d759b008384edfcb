/**
 * Planted secrets: every documented kind × every position secrets take in transcripts (start of text,
 * after a `\n` or `\t` escape in JSON text, inside a JSON string, after `=` and `:`, in a URL, at the end,
 * in a markdown code fence) → recall per kind and per position, which must be 1 everywhere; and the
 * look-alikes (git SHA-1/SHA-256, UUIDs, semver, base64 data URLs, long paths, npm integrity strings,
 * Docker digests, hex colours) in the same positions → false positives, which must be 0. The set is
 * tools/shared/redact-planted.ts, built from fixed seeds; test/unit/redact-planted.test.ts enforces it.
 *
 * The numbers that matter are recall and false positives, whose targets (1 and 0) are fixed. The timing
 * beside them is of one whole scoring run (the set built from its seed, then every text redacted), has
 * no baseline and only flags a gross slowdown; redaction throughput against a baseline is
 * bench/redact.bench.ts.
 *
 * Standalone: `npx tsx bench/redact-planted.bench.ts` prints JSON.
 */
import { pathToFileURL } from 'node:url';
import { redact } from '../lib/redact/index';
import { scorePlanted } from '../tools/shared/redact-planted';
import { type BenchResult, type BenchSuite, measure, round } from './harness';

const SEEDS = [1, 2, 3];

const suite = {
  name: 'redact-planted',
  async run() {
    const results: BenchResult[] = [];
    for (const seed of SEEDS) {
      const score = scorePlanted((t) => redact(t), seed);
      const timing = await measure(`planted/seed-${seed}`, () => scorePlanted((t) => redact(t), seed), {
        budgetMs: 300,
      });
      const recalls = [...Object.values(score.recallByKind), ...Object.values(score.recallByPosition)];
      results.push({
        ...timing,
        planted: score.planted,
        missed: score.missed.length,
        misclassified: score.misclassified.length,
        minRecall: round(Math.min(...recalls), 4),
        recallByKind: score.recallByKind,
        recallByPosition: score.recallByPosition,
        nonSecrets: score.nonSecrets,
        falsePositives: score.falsePositives.length,
        // Kind and position only: the texts are fakes, but a report need not carry them.
        misses: score.missed.map((m) => `${m.kind} @ ${m.position}`),
        falsePositiveCases: score.falsePositives.map((m) => `${m.kind} @ ${m.position}`),
      });
    }
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    JSON.stringify({ node: process.version, suite: suite.name, results: await suite.run() }, null, 2),
  );
}

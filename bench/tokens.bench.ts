/**
 * Throughput of `estimateTokens` on the concatenated text of each shared data set, next to
 * gpt-tokenizer's o200k_base `countTokens` (exact, pure JS) on the same text, with the speed ratio.
 *
 *   npx tsx bench/tokens.bench.ts
 */
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens, utf8ByteLength } from '../lib/core/index';
import { loadDatasets } from './calibrate-data';
import { type BenchResult, type BenchSuite, measure, round } from './harness';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

const suite = {
  name: 'tokens',
  async run() {
    const data = loadDatasets();
    if (!data) {
      console.warn('tokens bench: ../shared/data not found beside the repo, skipped');
      return [];
    }
    const results: BenchResult[] = [];
    for (const [name, messages] of data) {
      const text = messages.join('\n\n');
      const bytes = utf8ByteLength(text);
      const estimate = await measure(`estimateTokens/${name}`, () => estimateTokens(text), { bytes });
      // The tokenizer is ~100× slower: fewer runs keep the suite short.
      const exact = await measure(`gpt-tokenizer-o200k/${name}`, () => o200kCount(text, NO_SPECIAL), {
        bytes,
        minRuns: 3,
        budgetMs: 3000,
      });
      const estimated = estimateTokens(text);
      const reference = o200kCount(text, NO_SPECIAL);
      estimate.megabytes = round(bytes / 1e6);
      estimate.tokens = estimated;
      estimate.referenceTokens = reference;
      estimate.totalRelErr = round((estimated - reference) / reference, 4);
      estimate.speedupVsGptTokenizer = round(exact.medianMs / estimate.medianMs, 1);
      results.push(estimate, exact);
    }
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await suite.run(), null, 2));

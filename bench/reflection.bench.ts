/**
 * Reflection microbench (seed 002, section 12): runs the reflection unit in isolation on stable inputs
 * for both backends (rule-based; LLM replayed from inline fixtures, no network) and reports the seed's
 * microbench object for each, plus the median time of one reflect() call.
 *
 * Standalone: `npx tsx bench/reflection.bench.ts` prints one stable JSON object per backend, one per line
 * (`ms` is 0 when CI=true or with `--ci`, as the seed's tests force; otherwise the measured time).
 */

import { memoryStore } from '../lib/kv/index.js';
import {
  type ReflectionBundle,
  type ReflectionConfig,
  type ReflectionMicrobench,
  reflect,
  reflectionFixturesToJsonl,
  reflectionMemoryStore,
  reflectionMicrobench,
  reflectionPromptHash,
  reflectionPromptJson,
  turnSummaryPrompt,
  validateReflectionConfig,
} from '../lib/post-turn/index.js';
import { type BenchResult, type BenchSuite, measure } from './harness.js';

/** The stable input (examples/reflection/enabled.yaml and llm_fixture.yaml of the seed). */
const BUNDLE: ReflectionBundle = {
  agent: 'AgentA',
  turn: 1,
  nowIso: '2025-01-01T00:00:00Z',
  utter: 'Fixed the flaky parser test by normalizing CRLF line endings; next: cut release v1.2.3.',
  snippets: [
    'Parser tests failed on Windows checkouts because of CRLF line endings.',
    'Release checklist: changelog, version bump, tag.',
    'CI runs on ubuntu and windows.',
  ],
  plan: { reflection: true },
};

async function configs(): Promise<Record<'rulebased' | 'llm', ReflectionConfig>> {
  const rulebased = validateReflectionConfig({ allowReflection: true, reflection: { backend: 'rulebased' } });
  const json = reflectionPromptJson(
    turnSummaryPrompt(
      { ...BUNDLE, planReflection: true },
      { summaryTokens: rulebased.reflection.summaryTokens, topkSnippets: rulebased.reflection.topkSnippets },
    ),
  );
  const { promptHash } = await reflectionPromptHash(json);
  const jsonl = reflectionFixturesToJsonl([
    {
      prompt_hash: promptHash,
      completion: 'Normalized CRLF line endings to fix the flaky parser test. Next: release v1.2.3.',
    },
  ]);
  const llm = validateReflectionConfig({
    allowReflection: true,
    reflection: { backend: 'llm' },
    llm: { fixtures: { enabled: true, jsonl } },
    budgets: { timeMsReflection: 6000, opsReflection: 5 },
  });
  return { rulebased, llm };
}

/** One reflection as the seed's microbench prints it. */
export async function microbench(
  backend: 'rulebased' | 'llm',
  options: { ci?: boolean } = {},
): Promise<ReflectionMicrobench> {
  const config = (await configs())[backend];
  const memory = reflectionMemoryStore(memoryStore(), { now: () => '2025-01-01T00:00:00.000Z' });
  const result = await reflect(BUNDLE, config, { memory, ci: options.ci === true });
  return reflectionMicrobench(config, result.log!);
}

const suite: BenchSuite = {
  name: 'reflection',
  async run() {
    const out: BenchResult[] = [];
    const all = await configs();
    for (const backend of ['rulebased', 'llm'] as const) {
      const config = all[backend];
      const memory = reflectionMemoryStore(memoryStore(), {
        maxEntries: 100,
        now: () => '2025-01-01T00:00:00.000Z',
      });
      const timing = await measure(
        `reflection/${backend}/reflect`,
        () => reflect(BUNDLE, config, { memory }),
        {
          minRuns: 50,
          budgetMs: 800,
        },
      );
      out.push({ ...timing, microbench: await microbench(backend, { ci: true }) });
    }
    // The gate closed (default config): what every turn pays when reflection is off.
    const off = validateReflectionConfig({});
    out.push(
      await measure('reflection/disabled/reflect', () => reflect(BUNDLE, off), {
        minRuns: 50,
        budgetMs: 300,
      }),
    );
    return out;
  },
};

export default suite;

if (process.argv[1]?.endsWith('reflection.bench.ts')) {
  const ci = process.env.CI === 'true' || process.env.CI === '1' || process.argv.includes('--ci');
  for (const backend of ['rulebased', 'llm'] as const) {
    console.log(JSON.stringify(await microbench(backend, { ci })));
  }
}

import { canonicalJson } from 'rearview/core';
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import {
  coerceReflectionFlag,
  deterministicEmbedding,
  type ReflectionBundle,
  readReflectionLog,
  reflect,
  reflectBatch,
  reflectionFixturesToJsonl,
  reflectionMemoryStore,
  reflectionMicrobench,
  reflectionPromptHash,
  reflectionPromptJson,
  safeValidateReflectionConfig,
  turnSummaryPrompt,
  validateReflectionConfig,
} from 'rearview/post-turn';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

const NOW = '2025-01-01T00:00:00Z';
const fixedNow = () => '2025-01-01T00:00:00.000Z';

/** Bundles every runtime reflects; outputs (results, entries with float vectors, log lines) are hashed. */
const BUNDLES: ReflectionBundle[] = [
  {
    agent: 'AgentA',
    turn: 1,
    nowIso: NOW,
    utter: 'Done: fixed the parser (CRLF) and added tests; next: release v1.2.3.',
    snippets: [
      'Parser: handles CRLF line endings.',
      '  Tests   live in test/unit.  ',
      'Release notes draft',
      'ignored 4th',
    ],
    plan: { reflection: true },
  },
  {
    agent: 'AgentB',
    turn: 1,
    nowIso: NOW,
    utter:
      'R\u00e9sum\u00e9: \u4e2d\u6587 \u{1F600} \u2014 \u201cquoted\u201d\tTAB \u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3',
    snippets: ['caf\u00e9\u3000latte', '\u00bd cup', 'a\u0085b\u001cc\ufeffd'],
    plan: { reflection: 'true' },
  },
  {
    agent: 'AgentC',
    turn: 0,
    nowIso: NOW,
    utter: 'Planner stashed the flag in policy state.',
    snippets: [],
    plan: { reflection: false },
    policyState: { reflection: 1 },
  },
  { agent: 'AgentD', turn: 2, nowIso: NOW, utter: 'Not requested.', plan: { reflection: false } },
  { agent: 'AgentA', turn: 2, nowIso: NOW, utter: '...', snippets: ['!!!'], plan: { reflection: true } },
  {
    agent: 'AgentE',
    turn: 3,
    nowIso: NOW,
    utter: 'No fixture was recorded for this turn.',
    plan: { reflection: true },
  },
];

/** Inline fixtures (no files in workers): a completion for every LLM prompt except AgentE's. */
async function fixturesFor(bundles: readonly ReflectionBundle[], summaryTokens: number): Promise<string> {
  const lines = [];
  for (const b of bundles) {
    if (b.agent === 'AgentE') continue;
    const json = reflectionPromptJson(
      turnSummaryPrompt(
        { ...b, planReflection: coerceReflectionFlag(b.plan?.reflection) },
        { summaryTokens, topkSnippets: 3 },
      ),
    );
    const { promptHash, fixtureKey } = await reflectionPromptHash(json);
    lines.push({
      prompt_hash: lines.length % 2 ? fixtureKey : promptHash,
      completion: `Recorded\u00a0summary for ${b.agent} (turn ${b.turn}):  caf\u00e9 \u{1F680}\n  and more words here.`,
    });
  }
  return reflectionFixturesToJsonl(lines);
}

async function dump(kv: KeyValueStore) {
  const keys = await kv.keys();
  return { keys, values: (await kv.getMany(keys)).map((x) => x ?? null) };
}

async function runBackend(backend: 'rulebased' | 'llm', summaryTokens: number) {
  const kv = memoryStore();
  const memory = reflectionMemoryStore(kv, { now: fixedNow });
  const lines: string[] = [];
  const logKv = memoryStore();
  const config = validateReflectionConfig({
    allowReflection: true,
    reflection: { backend, summaryTokens },
    llm: { fixtures: { enabled: true, jsonl: await fixturesFor(BUNDLES, summaryTokens) } },
  });
  // Reversed input order on purpose: the batch flushes in (turn, agent) order regardless.
  const results = await reflectBatch([...BUNDLES].reverse(), config, { memory, log: lines, ci: true });
  await reflectBatch(BUNDLES, config, { log: logKv, ci: true });
  const logRecords = await readReflectionLog(logKv);
  check(
    canonicalJson(lines.map((l) => JSON.parse(l))) === canonicalJson(logRecords),
    'array sink and KeyValueStore sink hold the same records in the same order',
  );
  checkEqual(
    logRecords.map((r) => `${r.turn}:${r.agent}`),
    ['0:AgentC', '1:AgentA', '1:AgentB', '2:AgentA', '3:AgentE'],
    'deterministic flush order',
  );
  const again = await reflectBatch([...BUNDLES].reverse(), config, { ci: true });
  check(canonicalJson(again) === canonicalJson(results), 'two runs give byte-identical results');
  const microbench = results.filter((r) => r.log).map((r) => reflectionMicrobench(config, r.log!));
  return { results, lines, store: await dump(kv), microbench };
}

/** Reflection (seed 002): Python-compatible prompt hashes, both backends, budgets, gate; byte-identical everywhere. */
export const reflectCases: ConformanceCase[] = [
  {
    name: 'reflect/prompt hash python vectors (seed 4.3)',
    async run() {
      const seed = reflectionPromptJson(
        turnSummaryPrompt(
          {
            agent: 'unknown',
            turn: 0,
            utter: 'assistant: summary: . next: question',
            snippets: ['example snippet'],
          },
          { summaryTokens: 128, topkSnippets: 3 },
        ),
      );
      const unicode = reflectionPromptJson(
        turnSummaryPrompt(
          {
            agent: 'AgentB',
            turn: 7,
            utter: 'R\u00e9sum\u00e9: \u4e2d\u6587 \u{1F600} \u2014 \u201cquoted\u201d\tTAB',
            snippets: ['caf\u00e9\u3000latte', '\u00bd cup'],
            planReflection: true,
          },
          { summaryTokens: 5, topkSnippets: 2 },
        ),
      );
      const out = [await reflectionPromptHash(seed), await reflectionPromptHash(unicode)];
      checkEqual(
        out.map((h) => h.promptHash),
        [
          '3482df95edf61a9160ee3b7284d0500bca8da41db91462b657c115bad495b5b1',
          '95b202ffe174d8b81b23f8755580be1907f355a6c25e4535302f6ce025cbd53b',
        ],
        'hashes made by Python',
      );
      checkEqual(out[0]!.fixtureKey, '3482df95edf6', 'fixture key = first 12 hex');
      return { seed, unicode, out };
    },
  },
  {
    name: 'reflect/deterministicEmbedding floats (Python bits)',
    run() {
      const texts = [
        'Hello,  World!',
        'assistant: summary: . next: question',
        '',
        'caf\u00e9 \u4e2d\u6587 \u{1F600}',
      ];
      const vectors = texts.map((t) => deterministicEmbedding(t));
      const hello = [
        3, 0.3041143685078822, 8, 0.38014296063485276, 19, -0.38014296063485276, 22, -0.6082287370157644,
      ];
      for (let i = 0; i < hello.length; i += 2) {
        check(vectors[0]![hello[i]!] === hello[i + 1], `hello[${hello[i]}] has Python's exact bits`);
      }
      check(vectors[1]![23] === 0.21166687833365086, 'second vector matches Python');
      const text = canonicalJson(vectors);
      check(
        (JSON.parse(text) as number[][]).every((v, i) => v.every((x, j) => x === vectors[i]![j])),
        'floats round-trip through canonicalJson exactly',
      );
      return { text, small: deterministicEmbedding('dim seven', 7) };
    },
  },
  {
    name: 'reflect/rulebased bundles',
    async run() {
      const out = await runBackend('rulebased', 128);
      checkEqual(
        out.results.map((r) => r.ran),
        [true, true, false, true, true, true],
        'gate per bundle (reversed order)',
      );
      check(
        out.results[1]!.summary === '' && out.results[1]!.memoryEntries.length === 0,
        'punctuation-only turn writes nothing',
      );
      return out;
    },
  },
  {
    name: 'reflect/llm fixture bundles',
    async run() {
      const out = await runBackend('llm', 6);
      const e = out.results[0]!;
      checkEqual(e.metrics.reason, 'reflect_error:FixtureMissingError', 'missing fixture is fail-soft');
      checkEqual(e.memoryEntries, [], 'nothing written for a missing fixture');
      check(
        out.results
          .filter((r) => r.ran && r.metrics.reason === null)
          .every((r) => r.metrics.summaryLen === 6),
        'summaries are cut to 6 tokens',
      );
      return out;
    },
  },
  {
    name: 'reflect/budgets and disabled path',
    async run() {
      const kv = memoryStore();
      const memory = reflectionMemoryStore(kv, { now: fixedNow });
      const lines: string[] = [];
      let t = 0;
      const clock = () => (t += 10);
      const timeout = await reflect(
        BUNDLES[0]!,
        { allowReflection: true, budgets: { timeMsReflection: 15 } },
        {
          memory,
          log: lines,
          clock,
          ci: true,
        },
      );
      checkEqual(timeout.metrics.reason, 'reflection_timeout', 'timeout reason');
      const capped = await reflect(
        BUNDLES[0]!,
        { allowReflection: true, budgets: { opsReflection: 0 } },
        {
          memory,
          log: lines,
          ci: true,
        },
      );
      checkEqual(capped.metrics.opsWritten, 0, 'ops cap 0 writes nothing');
      const off = await reflect(BUNDLES[0]!, {}, { memory, log: lines, ci: true });
      const dry = await reflect(
        BUNDLES[0]!,
        { allowReflection: true },
        { memory, log: lines, ci: true, dryRun: true },
      );
      checkEqual([off.skipped, dry.skipped], ['disabled', 'dry_run'], 'gate closed');
      checkEqual((await dump(kv)).keys, [], 'no memory written');
      checkEqual(lines.length, 2, 'only the two runs that passed the gate logged');
      return { timeout, capped, off, dry, lines };
    },
  },
  {
    name: 'reflect/config validation issues',
    run() {
      const inputs: unknown[] = [
        {},
        { reflection: { backend: 'gpt', summaryTokens: -1, extra: 1 } },
        { allowReflection: true, reflection: { backend: 'llm' } },
        { llm: { fixtures: { enabled: true, path: '' } } },
        { budgets: { timeMsReflection: 1.5, opsReflection: '5' } },
      ];
      const out = inputs.map((i) => safeValidateReflectionConfig(i));
      check(out[0]!.success, 'empty config is valid');
      checkEqual(
        out.slice(1).map((r) => r.issues.map((i) => i.path)),
        [
          ['reflection.backend', 'reflection.summaryTokens', 'reflection.extra'],
          ['llm.fixtures.enabled'],
          ['llm.fixtures.path'],
          ['budgets.timeMsReflection', 'budgets.opsReflection'],
        ],
        'issue paths',
      );
      return out;
    },
  },
];

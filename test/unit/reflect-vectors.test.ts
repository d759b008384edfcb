// Python-compatibility vectors (made by test/fixtures/reflect/make-reflect-vectors.py): the seed's prompt
// hash helper (section 4.3), normalization, the rule-based summary, fixture replay and the embedding floats.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { canonicalJson } from 'rearview/core';
import {
  countWhitespaceTokens,
  deterministicEmbedding,
  normalizeText,
  reflect,
  reflectionFixtureAdapter,
  reflectionPromptHash,
  reflectionPromptJson,
  rulebasedSummary,
  splitWhitespace,
  truncateTokens,
  turnSummaryPrompt,
} from 'rearview/post-turn';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../fixtures/reflect');
const vectorsText = readFileSync(join(dir, 'reflect-vectors.json'), 'utf8');
const fixturesJsonl = readFileSync(join(dir, 'reflection_llm.jsonl'), 'utf8');

interface BundleVector {
  name: string;
  agent: string;
  turn: number;
  utter: string;
  snippets: string[];
  plan_reflection: boolean;
  summary_tokens: number;
  topk: number;
  summary: string;
  summary_len: number;
}
const vectors = JSON.parse(vectorsText) as {
  normalize: { text: string; plain: string; keep_punct: string; split: string[] }[];
  rulebased: BundleVector[];
  prompts: { name: string; prompt_json: string; sha256: string; fixture_key: string }[];
  embeddings: { text: string; dim: number; vector: number[] }[];
  llm: { name: string; summary: string | null }[];
};

const hasPython = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;

describe('seed 4.3 prompt hash helper', () => {
  it('gives the hash Python gives for the seed example prompt', async () => {
    const prompt = turnSummaryPrompt(
      {
        agent: 'unknown',
        turn: 0,
        utter: 'assistant: summary: . next: question',
        snippets: ['example snippet'],
      },
      { summaryTokens: 128, topkSnippets: 3 },
    );
    const json = reflectionPromptJson(prompt);
    expect(json).toBe(
      '{"agent":"unknown","plan_reflection":false,"snippets":["example snippet"],"summary_tokens":128,' +
        '"task":"reflect_summary","turn":0,"utter":"assistant: summary: . next: question","version":1}',
    );
    expect(await reflectionPromptHash(json)).toEqual({
      promptHash: '3482df95edf61a9160ee3b7284d0500bca8da41db91462b657c115bad495b5b1',
      fixtureKey: '3482df95edf6',
    });
    // Defaults: agent "unknown", turn 0, plan_reflection false.
    expect(
      reflectionPromptJson(
        turnSummaryPrompt(
          { utter: prompt.utter, snippets: prompt.snippets },
          {
            summaryTokens: 128,
            topkSnippets: 3,
          },
        ),
      ),
    ).toBe(json);
  });

  it('matches every Python prompt vector byte for byte', async () => {
    for (const b of vectors.rulebased) {
      const expected = vectors.prompts.find((p) => p.name === b.name)!;
      const json = reflectionPromptJson(
        turnSummaryPrompt(
          {
            agent: b.agent,
            turn: b.turn,
            utter: b.utter,
            snippets: b.snippets,
            planReflection: b.plan_reflection,
          },
          { summaryTokens: b.summary_tokens, topkSnippets: b.topk },
        ),
      );
      expect(json, b.name).toBe(expected.prompt_json);
      expect(await reflectionPromptHash(json), b.name).toEqual({
        promptHash: expected.sha256,
        fixtureKey: expected.fixture_key,
      });
    }
  });
});

describe('Python-compatible text handling', () => {
  it('normalizes and splits exactly like Python (str.split, \\s, \\w, str.lower)', () => {
    for (const n of vectors.normalize) {
      expect(splitWhitespace(n.text), JSON.stringify(n.text)).toEqual(n.split);
      expect(normalizeText(n.text), JSON.stringify(n.text)).toBe(n.plain);
      expect(normalizeText(n.text, { keepPunct: true }), JSON.stringify(n.text)).toBe(n.keep_punct);
    }
  });

  it('produces the rule-based summaries Python produces', () => {
    for (const b of vectors.rulebased) {
      const summary = rulebasedSummary(b.utter, b.snippets, {
        summaryTokens: b.summary_tokens,
        topkSnippets: b.topk,
      });
      expect(summary, b.name).toBe(b.summary);
      expect(countWhitespaceTokens(summary), b.name).toBe(b.summary_len);
    }
  });

  it('caps summaries at summaryTokens and is idempotent (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.string()),
        fc.nat(20),
        fc.nat(5),
        (u, s, n, k) => {
          const summary = rulebasedSummary(u, s, { summaryTokens: n, topkSnippets: k });
          expect(countWhitespaceTokens(summary)).toBeLessThanOrEqual(n);
          expect(normalizeText(summary)).toBe(summary);
          expect(truncateTokens(summary, n)).toBe(summary);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('deterministicEmbedding', () => {
  it('gives the exact floats Python computes (bit-identical)', () => {
    for (const e of vectors.embeddings) {
      const got = deterministicEmbedding(e.text, e.dim);
      expect(got.length).toBe(e.dim);
      for (let i = 0; i < e.dim; i++) {
        expect(Object.is(got[i], e.vector[i]) || (got[i] === 0 && e.vector[i] === 0), `${e.text}[${i}]`).toBe(
          true,
        );
      }
      // canonicalJson writes the shortest round-trip digits: the exact bits survive serialization.
      expect((JSON.parse(canonicalJson(got)) as number[]).every((x, i) => x === got[i])).toBe(true);
    }
  });

  it('is L2-normalized, deterministic and rejects bad dimensions', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 64 }), (text, dim) => {
        const a = deterministicEmbedding(text, dim);
        expect(canonicalJson(deterministicEmbedding(text, dim))).toBe(canonicalJson(a));
        const norm = a.reduce((s, x) => s + x * x, 0);
        if (a.some((x) => x !== 0)) expect(Math.abs(norm - 1)).toBeLessThan(1e-12);
        else expect(norm).toBe(0);
      }),
      { numRuns: 200 },
    );
    expect(deterministicEmbedding('')).toEqual(new Array(32).fill(0));
    expect(deterministicEmbedding('same words')).toEqual(deterministicEmbedding('  same\twords '));
    for (const bad of [0, -1, 1.5, Number.NaN, 70000]) {
      expect(() => deterministicEmbedding('x', bad)).toThrow(/Embedding dimension is invalid/);
    }
  });
});

describe('fixture replay against Python-made fixtures', () => {
  it('replays reflection_llm.jsonl (full digests and 12-hex keys) and misses the unrecorded prompt', async () => {
    const adapter = reflectionFixtureAdapter(fixturesJsonl);
    expect(adapter.size).toBe(5);
    for (const b of vectors.rulebased) {
      const result = await reflect(
        {
          agent: b.agent,
          turn: b.turn,
          nowIso: '2025-01-01T00:00:00Z',
          utter: b.utter,
          snippets: b.snippets,
          plan: { reflection: b.plan_reflection },
          policyState: { reflection: true },
        },
        {
          allowReflection: true,
          reflection: { backend: 'llm', summaryTokens: b.summary_tokens, topkSnippets: b.topk },
          llm: { fixtures: { enabled: true, path: 'reflection_llm.jsonl' } },
        },
        { fixtures: adapter, ci: true },
      );
      const expected = vectors.llm.find((l) => l.name === b.name)!.summary;
      const key = vectors.prompts.find((p) => p.name === b.name)!.fixture_key;
      expect(result.metrics.fixtureKey, b.name).toBe(key);
      if (expected === null) {
        expect(result.metrics.reason).toBe('reflect_error:FixtureMissingError');
        expect(result.memoryEntries).toEqual([]);
      } else {
        expect(result.summary, b.name).toBe(expected);
        expect(result.metrics.reason, b.name).toBeNull();
      }
    }
  });
});

describe.skipIf(!hasPython)('live python3 cross-check', () => {
  it('regenerates the committed vectors byte for byte', () => {
    const run = spawnSync('python3', [join(dir, 'make-reflect-vectors.py')], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(vectorsText);
  });
});

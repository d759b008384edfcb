// One fixture-replay format: post-turn reflection's fixtures are rearview/llm fixtures (`{key, text}`,
// spelled `{prompt_hash, completion}` in the Python reference's files), read, matched and written by
// rearview/llm's functions, with the replay results and file bytes of before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { canonicalJson, sha256Hex } from 'rearview/core';
import {
  FIXTURE_KEY_LENGTH,
  fixtureClient,
  fixtureLookup,
  fixturesToJsonl,
  type LlmFixture,
  type LlmRequest,
  parseFixturesJsonl,
  readFixturesJsonl,
  requestKey,
} from 'rearview/llm';
import {
  FixtureMissingError,
  parseReflectionFixtures,
  type ReflectionFixture,
  reflect,
  reflectionFixtureAdapter,
  reflectionFixturesToJsonl,
  reflectionPromptHash,
  reflectionPromptJson,
  turnSummaryPrompt,
} from 'rearview/post-turn';
import { describe, expect, it } from 'vitest';

const fixturesJsonl = readFileSync(
  join(import.meta.dirname, '../fixtures/reflect/reflection_llm.jsonl'),
  'utf8',
);

const bundle = {
  agent: 'AgentA',
  turn: 1,
  nowIso: '2025-01-01T00:00:00Z',
  utter: 'Fixed the parser.',
  snippets: ['CRLF handled'],
  plan: { reflection: true },
};
const llmConfig = (jsonl: string) => ({
  allowReflection: true,
  reflection: { backend: 'llm' as const },
  llm: { fixtures: { enabled: true, jsonl } },
});

async function bundleHash() {
  const json = reflectionPromptJson(
    turnSummaryPrompt({ ...bundle, planReflection: true }, { summaryTokens: 128, topkSnippets: 3 }),
  );
  return reflectionPromptHash(json);
}

/** The matching rule post-turn reflection had before it used rearview/llm's (the reference). */
function formerReflectionMatch(fixtures: readonly ReflectionFixture[], promptHash: string) {
  return fixtures
    .filter((f) => f.prompt_hash.slice(0, 12) === promptHash.slice(0, 12))
    .find((f) => promptHash.startsWith(f.prompt_hash))?.completion;
}

describe('the reflection fixture files are rearview/llm fixtures', () => {
  it('reads the Python-made reflection_llm.jsonl with the llm parser, as key and text', () => {
    const llm = parseFixturesJsonl(fixturesJsonl);
    const reflection = parseReflectionFixtures(fixturesJsonl);
    expect(llm).toHaveLength(5);
    expect(llm).toEqual(reflection.map((f) => ({ key: f.prompt_hash, text: f.completion })));
    expect(llm.map((f) => f.key.length)).toEqual([64, 12, 64, 12, 64]);
  });

  it('replays fixtures written in the {key, text} spelling, as JSONL or objects', async () => {
    const { promptHash, fixtureKey } = await bundleHash();
    const jsonl = fixturesToJsonl([{ key: promptHash, text: 'Recorded  by\nthe llm recorder.' }]);
    const fromJsonl = await reflect(bundle, llmConfig(jsonl), { ci: true });
    expect(fromJsonl.summary).toBe('Recorded by the llm recorder.');
    expect(fromJsonl.metrics).toMatchObject({ reason: null, fixtureKey });

    const adapter = reflectionFixtureAdapter([{ key: fixtureKey, text: 'By prefix.' }]);
    const fromObjects = await reflect(bundle, llmConfig('{"prompt_hash":"000000000000","completion":"x"}'), {
      fixtures: adapter,
      ci: true,
    });
    expect(fromObjects.summary).toBe('By prefix.');
    expect(adapter.size).toBe(1);
  });

  it('writes the canonical {"completion","prompt_hash"} lines of before, in the order given, and reads them back', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{12,64}$/);
    const fixture = fc.record({ prompt_hash: hex, completion: fc.string({ unit: 'binary' }) });
    fc.assert(
      fc.property(fc.array(fixture, { maxLength: 6 }), (fixtures) => {
        const jsonl = reflectionFixturesToJsonl(fixtures);
        const former = fixtures
          .map((f) => `${canonicalJson({ completion: f.completion, prompt_hash: f.prompt_hash })}\n`)
          .join('');
        expect(jsonl).toBe(former);
        expect(parseReflectionFixtures(jsonl)).toEqual(fixtures);
      }),
    );
  });

  it('matches exactly as before: first fixture whose prompt_hash is the digest or a 12+ hex prefix of it', async () => {
    const digests = await Promise.all(['a', 'b', 'c'].map((s) => sha256Hex(s)));
    // Keys cut from a few digests (so prefixes collide), some from an unrelated one.
    const fixture = fc.record({
      prompt_hash: fc
        .tuple(fc.constantFrom(...digests, 'f'.repeat(64)), fc.integer({ min: 12, max: 64 }))
        .map(([d, n]) => d.slice(0, n)),
      completion: fc.string(),
    });
    fc.assert(
      fc.property(
        fc.array(fixture, { maxLength: 8 }),
        fc.constantFrom(...digests),
        (fixtures, promptHash) => {
          const adapter = reflectionFixtureAdapter(fixtures);
          const options = {
            maxTokens: 1,
            temperature: 0 as const,
            promptHash,
            fixtureKey: promptHash.slice(0, 12),
          };
          const expected = formerReflectionMatch(fixtures, promptHash);
          if (expected === undefined)
            expect(() => adapter.generate('{}', options)).toThrow(FixtureMissingError);
          else expect(adapter.generate('{}', options)).toBe(expected);
        },
      ),
    );
  });
});

describe('rearview/llm fixture format', () => {
  const request: LlmRequest = { messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 };

  it('fixtureLookup: exact keys, prefixes of at least FIXTURE_KEY_LENGTH characters, first match wins', () => {
    const full = 'abcdef0123456789'.repeat(4);
    const find = fixtureLookup([
      { key: full.slice(0, 11), text: 'too short to be a prefix' },
      { key: full.slice(0, FIXTURE_KEY_LENGTH), text: 'prefix' },
      { key: full, text: 'full, but later' },
      { key: 'a', text: 'short key' },
    ]);
    expect(find(full)?.text).toBe('prefix');
    expect(find(full.slice(0, 11))?.text).toBe('too short to be a prefix');
    expect(find('a')?.text).toBe('short key');
    expect(find('ab')).toBeUndefined();
    expect(find(`${full.slice(0, 11)}x`)).toBeUndefined();
  });

  it('fixtureClient replays a fixture recorded under a key prefix, and a later duplicate key still wins', async () => {
    const key = await requestKey(request);
    const byPrefix = fixtureClient([{ key: key.slice(0, FIXTURE_KEY_LENGTH), text: 'short' }]);
    expect((await byPrefix.complete(request)).text).toBe('short');
    const duplicates = fixtureClient(
      fixturesToJsonl([{ key, text: 'first' }]) + fixturesToJsonl([{ key, text: 'second' }]),
    );
    expect(duplicates.size).toBe(1);
    expect((await duplicates.complete(request)).text).toBe('second');
    // The reflection spelling is read too.
    const seedSpelled = fixtureClient(`{"prompt_hash":"${key}","completion":"seed spelled"}\n`);
    expect((await seedSpelled.complete(request)).text).toBe('seed spelled');
  });

  it('readFixturesJsonl reports every bad line in the spelling it was read in; parseFixturesJsonl the first', () => {
    const text = [
      '{"key":"k","text":"ok","usage":{"inputTokens":1,"outputTokens":2}}',
      '',
      'nope',
      '[1]',
      '{"key":"k"}',
      '{"prompt_hash":"XYZ","completion":"c"}',
      '{"prompt_hash":"0123456789ab"}',
      '{"prompt_hash":"0123456789ab","completion":"c","extra":1}',
    ].join('\r\n');
    const { fixtures, issues } = readFixturesJsonl(text);
    expect(fixtures).toEqual([
      { key: 'k', text: 'ok', usage: { inputTokens: 1, outputTokens: 2 } },
      { key: '0123456789ab', text: 'c' },
    ]);
    expect(issues.map(({ cause: _c, ...i }) => i)).toEqual([
      { line: 3, message: 'is not valid JSON' },
      { line: 4, message: 'must be a JSON object' },
      { line: 5, spelling: 'key', field: 'text', message: 'must be a string' },
      {
        line: 6,
        spelling: 'prompt_hash',
        field: 'prompt_hash',
        message: 'must be 12 to 64 lowercase hex characters',
      },
      { line: 7, spelling: 'prompt_hash', field: 'completion', message: 'must be a string' },
    ]);
    expect(readFixturesJsonl('{"key":"k","text":"t"}', { digestKeys: true }).issues).toMatchObject([
      { field: 'key', message: 'must be 12 to 64 lowercase hex characters' },
    ]);
    expect(() => parseFixturesJsonl('{"prompt_hash":"XYZ","completion":"c"}')).toThrow(
      'Fixture line 1: "prompt_hash" must be 12 to 64 lowercase hex characters',
    );
    expect(() => parseFixturesJsonl('[1]')).toThrow('Fixture line 1 needs string "key" and "text" fields');
  });

  it('keeps fixturesToJsonl sorted by key, as each fixture is, by default', () => {
    const fixtures: LlmFixture[] = [
      { key: 'b', text: '2', model: 'm' },
      { key: 'a', text: '1' },
    ];
    expect(fixturesToJsonl(fixtures)).toBe('{"key":"a","text":"1"}\n{"key":"b","text":"2","model":"m"}\n');
    expect(fixturesToJsonl(fixtures, { spelling: 'prompt_hash', sort: false })).toBe(
      '{"completion":"2","prompt_hash":"b"}\n{"completion":"1","prompt_hash":"a"}\n',
    );
  });
});

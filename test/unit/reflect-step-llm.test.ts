/**
 * Seed 002, section 8: the reflection step's LLM backend on fixtures only (PR84), and its fail-soft
 * errors, each a reason in the result and the log record (PR86).
 */
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import {
  FixtureMissingError,
  loadReflectionFixtures,
  parseReflectionFixtures,
  reflect,
  reflectBatch,
  reflectionFixtureAdapter,
  reflectionMemoryStore,
  validateReflectionConfig,
} from 'rearview/post-turn';
import { describe, expect, it } from 'vitest';
import { bundleA, fixedNow, llmFixtures, ON, spyStore } from './reflect-step-helpers';

describe('LLM backend (fixtures only, PR84)', () => {
  const llmConfig = (jsonl: string, extra: Record<string, unknown> = {}) => ({
    allowReflection: true,
    reflection: { backend: 'llm', ...extra },
    llm: { fixtures: { enabled: true, jsonl } },
  });

  it('replays the fixture, normalizes whitespace and truncates to summaryTokens', async () => {
    const jsonl = await llmFixtures(bundleA, '  The parser   now handles CRLF.\nNext: release. ', 4);
    const lines: string[] = [];
    const r = await reflect(bundleA, llmConfig(jsonl, { summaryTokens: 4 }), { log: lines, ci: true });
    expect(r.summary).toBe('The parser now handles');
    expect(r.metrics).toMatchObject({ backend: 'llm', summaryLen: 4, reason: null });
    expect(r.metrics.fixtureKey).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ backend: 'llm', fixture_key: r.metrics.fixtureKey });
  });

  it('fail-softs a missing fixture, an adapter error, an empty completion and a bad source into FixtureMissingError', async () => {
    const memKv = spyStore();
    const memory = reflectionMemoryStore(memKv.store, { now: fixedNow });
    const empty = await llmFixtures(bundleA, '   ');
    const variants: [Record<string, unknown>, Parameters<typeof reflect>[2]][] = [
      [llmConfig('{"prompt_hash":"000000000000","completion":"other prompt"}'), {}],
      [llmConfig(empty), {}],
      [
        llmConfig('x'),
        {
          fixtures: {
            generate: () => {
              throw new TypeError('boom');
            },
          },
        },
      ],
      [llmConfig('x'), { fixtures: { generate: async () => 42 as unknown as string } }],
      [llmConfig('not json'), {}], // malformed inline JSONL
      [
        { ...llmConfig(''), llm: { fixtures: { enabled: true, path: 'https://example.test/f.jsonl' } } },
        {
          fetch: async () => ({ ok: false, status: 404, text: async () => '' }),
        },
      ],
      [
        { ...llmConfig(''), llm: { fixtures: { enabled: true, path: 'f.jsonl' } } },
        {
          fetch: async () => {
            throw new Error('offline');
          },
        },
      ],
    ];
    for (const [config, opts] of variants) {
      const lines: string[] = [];
      const r = await reflect(bundleA, config, { memory, log: lines, ci: true, ...opts });
      expect(r.metrics.reason, JSON.stringify(config)).toBe('reflect_error:FixtureMissingError');
      expect(r.memoryEntries).toEqual([]);
      expect(r.summary).toBe('');
      expect(JSON.parse(lines[0]!)).toMatchObject({
        reason: 'reflect_error:FixtureMissingError',
        ops_written: 0,
      });
    }
    expect(memKv.calls).toEqual([]);
  });

  it('loads fixtures from a URL through an injected fetch, resolving relative paths', async () => {
    const jsonl = await llmFixtures(bundleA, 'Fetched summary.');
    const urls: string[] = [];
    const fetch = async (url: string) => {
      urls.push(url);
      return { ok: true, status: 200, text: async () => jsonl };
    };
    const config = {
      allowReflection: true,
      reflection: { backend: 'llm' as const },
      llm: { fixtures: { enabled: true, path: 'fixtures/reflection_llm.jsonl' } },
    };
    const results = await reflectBatch([bundleA, bundleA], config, {
      fetch,
      baseUrl: 'https://cdn.example/app/',
      ci: true,
    });
    expect(results.map((r) => r.summary)).toEqual(['Fetched summary.', 'Fetched summary.']);
    expect(urls).toEqual(['https://cdn.example/app/fixtures/reflection_llm.jsonl']); // loaded once per batch
    const adapter = await loadReflectionFixtures(validateReflectionConfig(config), { fetch });
    expect(adapter.size).toBe(1);
    await expect(loadReflectionFixtures(validateReflectionConfig({}))).rejects.toBeInstanceOf(
      FixtureMissingError,
    );
    // Fixtures given directly as JSONL text.
    const r = await reflect(bundleA, config, { fixtures: jsonl, ci: true });
    expect(r.summary).toBe('Fetched summary.');
  });

  it('parses fixtures strictly, naming every bad line', () => {
    expect(() =>
      parseReflectionFixtures(
        '{"prompt_hash":"abc","completion":"x"}\n\nnope\n[1]\n{"prompt_hash":"0123456789ab"}\n',
      ),
    ).toThrow(
      'Reflection fixtures is invalid: line 1.prompt_hash: must be 12 to 64 lowercase hex characters; line 3: is not valid JSON; line 4: must be a JSON object; line 5.completion: must be a string',
    );
    const ok = parseReflectionFixtures('{"prompt_hash":"0123456789ab","completion":"x","extra":1}\r\n');
    expect(ok).toEqual([{ prompt_hash: '0123456789ab', completion: 'x' }]);
    const adapter = reflectionFixtureAdapter(ok);
    expect(() =>
      adapter.generate('{}', {
        maxTokens: 1,
        temperature: 0,
        promptHash: `0123456789ac${'0'.repeat(52)}`,
        fixtureKey: '0123456789ac',
      }),
    ).toThrow(FixtureMissingError);
  });
});

describe('fail-soft errors', () => {
  it('records an invalid bundle as reflect_error:ValidationError', async () => {
    const lines: string[] = [];
    const r = await reflect(
      { utter: 42 as unknown as string, agent: 'X', turn: 2, plan: { reflection: true } },
      ON,
      {
        log: lines,
        ci: true,
      },
    );
    expect(r.metrics.reason).toBe('reflect_error:ValidationError');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      agent: 'X',
      turn: 2,
      reason: 'reflect_error:ValidationError',
    });
  });

  it('records a failing memory store, and writes nothing', async () => {
    const broken = reflectionMemoryStore({
      ...memoryStore(),
      transact: async () => {
        throw Object.assign(new Error('quota'), { name: 'StoreError' });
      },
    } as KeyValueStore);
    const r = await reflect(bundleA, ON, { memory: broken, ci: true });
    expect(r.metrics).toMatchObject({ reason: 'reflect_error:StoreError', opsWritten: 0 });
    expect(r.memoryEntries).toEqual([]);
    expect(r.log).toMatchObject({ reason: 'reflect_error:StoreError', ops_written: 0 });
  });

  it('writes the entry without a vector when the embedder fails', async () => {
    const r = await reflect(bundleA, ON, {
      embedder: () => {
        throw new RangeError('bad');
      },
      ci: true,
    });
    expect(r.metrics.reason).toBe('embed_error:RangeError');
    expect(r.memoryEntries).toHaveLength(1);
    expect(r.memoryEntries[0]!.vecFull).toBeUndefined();
    const custom = await reflect(bundleA, ON, { embedder: async () => [1, 0], ci: true });
    expect(custom.memoryEntries[0]!.vecFull).toEqual([1, 0]);
    const nan = await reflect(bundleA, ON, { embedder: () => [Number.NaN], ci: true });
    expect(nan.metrics.reason).toBe('embed_error:ValidationError');
  });

  it('swallows log sink errors (recorded in the result only)', async () => {
    const r = await reflect(bundleA, ON, {
      log: {
        write: () => {
          throw new Error('disk full');
        },
      },
      ci: true,
    });
    expect(r.ran).toBe(true);
    expect(r.metrics.reason).toBe('log_error:Error');
    expect(r.log!.reason).toBeNull();
  });

  it('rejects an invalid config with ConfigError (validate once at startup)', async () => {
    await expect(reflect(bundleA, { allowReflection: 'yes' })).rejects.toMatchObject({
      code: 'config_invalid',
    });
  });
});

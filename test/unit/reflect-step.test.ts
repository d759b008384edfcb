// Seed 002, section 8: disabled-path identity (PR82), determinism (PR83), budgets (PR83), policy glue
// (PR85), gate plumbing, fail-soft errors and t3_reflection.jsonl records (section 5.1, PR86).
import { canonicalJson } from 'rearview/core';
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import {
  coerceReflectionFlag,
  FixtureMissingError,
  type LineWriter,
  loadReflectionFixtures,
  parseReflectionFixtures,
  planRequestsReflection,
  type ReflectionBundle,
  type ReflectionLogRecord,
  readReflectionLog,
  reflect,
  reflectBatch,
  reflectionFixtureAdapter,
  reflectionFixturesToJsonl,
  reflectionGate,
  reflectionLogLine,
  reflectionMemoryStore,
  reflectionMicrobench,
  reflectionPromptHash,
  reflectionPromptJson,
  sanitizePlanReflection,
  turnSummaryPrompt,
  validateReflectionConfig,
} from 'rearview/post-turn';
import { describe, expect, it } from 'vitest';

const NOW = '2025-01-01T00:00:00Z';
const fixedNow = () => '2025-01-01T00:00:00.000Z';

const bundleA: ReflectionBundle = {
  agent: 'AgentA',
  turn: 1,
  nowIso: NOW,
  utter: 'Done: fixed the parser (CRLF) and added tests; next: release v1.2.3.',
  snippets: [
    'Parser: handles CRLF line endings.',
    'Tests live in test/unit.',
    'Release notes draft',
    'ignored',
  ],
  plan: { reflection: true },
};

const ON = { allowReflection: true };

/** A KeyValueStore that counts every call made through it. */
function spyStore(inner: KeyValueStore = memoryStore()) {
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

async function dump(kv: KeyValueStore): Promise<string> {
  const keys = await kv.keys();
  return canonicalJson({ keys, values: (await kv.getMany(keys)).map((x) => x ?? null) });
}

async function llmFixtures(bundle: ReflectionBundle, completion: string, summaryTokens = 128, topk = 3) {
  const json = reflectionPromptJson(
    turnSummaryPrompt(
      { ...bundle, planReflection: coerceReflectionFlag(bundle.plan?.reflection) },
      { summaryTokens, topkSnippets: topk },
    ),
  );
  const { promptHash } = await reflectionPromptHash(json);
  return reflectionFixturesToJsonl([{ prompt_hash: promptHash, completion }]);
}

describe('gate plumbing and policy glue (PR85)', () => {
  it('coerces string and int planner flags', () => {
    for (const t of [true, 1, -2, '1', 'true', 'True', ' YES ', 'y', 'on'])
      expect(coerceReflectionFlag(t), String(t)).toBe(true);
    for (const f of [false, 0, Number.NaN, '', '0', 'false', 'no', 'off', 'maybe', null, undefined, {}, []]) {
      expect(coerceReflectionFlag(f), String(f)).toBe(false);
    }
    expect(sanitizePlanReflection({ speak: 'hi', reflection: 'yes' })).toEqual({
      speak: 'hi',
      reflection: true,
    });
    expect(sanitizePlanReflection({ speak: 'hi' })).toEqual({ speak: 'hi', reflection: false });
  });

  it('honors plan.reflection or the flag stashed in policy state', () => {
    expect(planRequestsReflection({ plan: { reflection: true } })).toBe(true);
    expect(planRequestsReflection({ plan: { reflection: false }, policyState: { reflection: 'true' } })).toBe(
      true,
    );
    expect(planRequestsReflection({ plan: null, policyState: { reflection: 1 } })).toBe(true);
    expect(planRequestsReflection({ plan: { reflection: 'no' } })).toBe(false);
    expect(planRequestsReflection({})).toBe(false);
  });

  it('runs only when allowed, requested and not a dry run', async () => {
    const config = validateReflectionConfig(ON);
    expect(reflectionGate(config, bundleA)).toEqual({ run: true });
    expect(reflectionGate({ allowReflection: false }, bundleA)).toEqual({ run: false, skipped: 'disabled' });
    expect(reflectionGate(config, { plan: { reflection: false } })).toEqual({
      run: false,
      skipped: 'not_requested',
    });
    expect(reflectionGate(config, bundleA, { dryRun: true })).toEqual({ run: false, skipped: 'dry_run' });

    const lines: string[] = [];
    const ran = await reflect({ ...bundleA, plan: {}, policyState: { reflection: 'yes' } }, ON, {
      log: lines,
      ci: true,
    });
    expect(ran.ran).toBe(true);
    expect(lines).toHaveLength(1);
  });

  it('runs the LLM path when the LLM planner stashed the flag in policy state', async () => {
    const bundle = { ...bundleA, plan: { reflection: false }, policyState: { reflection: true } };
    const jsonl = await llmFixtures(bundle, 'Recorded summary.');
    const result = await reflect(
      bundle,
      { allowReflection: true, reflection: { backend: 'llm' }, llm: { fixtures: { enabled: true, jsonl } } },
      { ci: true },
    );
    expect(result.ran).toBe(true);
    expect(result.summary).toBe('Recorded summary.');
    expect(result.metrics.reason).toBeNull();
  });
});

describe('disabled-path identity (PR82)', () => {
  it('leaves every input, store and log byte-identical and writes no reflection log', async () => {
    const memKv = spyStore();
    const logKv = spyStore();
    await memKv.store.set('unrelated', { keep: true });
    memKv.calls.length = 0;
    const memory = reflectionMemoryStore(memKv.store, { now: fixedNow });
    const lines = ['existing line'];
    const writes: string[] = [];
    const writer: LineWriter = { write: (l) => writes.push(l) };
    const cases: [ReflectionBundle, Record<string, unknown>, { dryRun?: boolean }][] = [
      [bundleA, {}, {}], // default config: gate off
      [bundleA, { allowReflection: false, reflection: { backend: 'llm' } }, {}],
      [{ ...bundleA, plan: { reflection: false } }, ON, {}], // plan did not ask
      [{ ...bundleA, plan: undefined }, ON, {}],
      [bundleA, ON, { dryRun: true }],
    ];
    for (const [bundle, config, opts] of cases) {
      const before = canonicalJson({ bundle, config, lines, writes });
      const storeBefore = await dump(memKv.store);
      memKv.calls.length = 0;
      for (const log of [lines, writer, logKv.store]) {
        const result = await reflect(bundle, config, { memory, log, ci: false, ...opts });
        expect(result.ran).toBe(false);
        expect(result.log).toBeUndefined();
        expect(result.memoryEntries).toEqual([]);
        expect(result.metrics).toMatchObject({ summaryLen: 0, opsWritten: 0, ms: 0, reason: null });
      }
      const batch = await reflectBatch([bundle, bundle], config, { memory, log: lines, ...opts });
      expect(batch.every((r) => !r.ran)).toBe(true);
      expect(canonicalJson({ bundle, config, lines, writes })).toBe(before);
      expect(memKv.calls).toEqual([]); // not even read
      expect(logKv.calls).toEqual([]);
      expect(await dump(memKv.store)).toBe(storeBefore);
    }
    expect(lines).toEqual(['existing line']);
    expect(writes).toEqual([]);
  });
});

describe('reflect: rule-based backend', () => {
  it('summarises, embeds, writes one entry and logs the seed schema', async () => {
    const kv = memoryStore();
    const memory = reflectionMemoryStore(kv, { now: fixedNow });
    const lines: string[] = [];
    const result = await reflect(bundleA, ON, { memory, log: lines, ci: true });
    expect(result.summary).toBe(
      'done fixed the parser crlf and added tests next release v1 2 3 parser handles crlf line endings tests live in test unit release notes draft',
    );
    expect(result.metrics).toEqual({
      backend: 'rulebased',
      summaryLen: 26,
      embed: true,
      opsWritten: 1,
      ms: 0,
      reason: null,
    });
    const [entry] = result.memoryEntries;
    expect(entry).toMatchObject({
      owner: 'AgentA',
      ts: NOW,
      text: result.summary,
      tags: ['reflection'],
      kind: 'summary',
    });
    expect(entry!.vecFull).toHaveLength(32);
    expect((await memory.list()).map((e) => e.value)).toEqual(result.memoryEntries);
    expect(lines).toEqual([
      '{"agent":"AgentA","backend":"rulebased","embed":true,"ms":0,"ops_written":1,"reason":null,"summary_len":26,"turn":1}',
    ]);
    expect(JSON.parse(lines[0]!)).toEqual(result.log);
    expect(Object.keys(result.log!).sort()).toEqual(
      ['agent', 'backend', 'embed', 'ms', 'ops_written', 'reason', 'summary_len', 'turn'].sort(),
    );
  });

  it('omits the vector when embed is off, skips the log when log is off, defaults agent and turn', async () => {
    const lines: string[] = [];
    const result = await reflect(
      { utter: 'Hello there', plan: { reflection: true } },
      { allowReflection: true, reflection: { embed: false, log: false } },
      { log: lines, ci: true },
    );
    expect(result.memoryEntries).toEqual([
      {
        owner: 'unknown',
        ts: '0000-00-00T00:00:00Z',
        text: 'hello there',
        tags: ['reflection'],
        kind: 'summary',
      },
    ]);
    expect(result.log).toMatchObject({ agent: 'unknown', turn: 0, embed: false });
    expect(lines).toEqual([]);
  });

  it('measures ms with the clock unless running in CI', async () => {
    let t = 100;
    const clock = () => (t += 1.25);
    const result = await reflect(bundleA, ON, { clock });
    expect(result.metrics.ms).toBeGreaterThan(0);
    expect(result.log!.ms).toBe(result.metrics.ms);
    const ci = await reflect(bundleA, ON, { clock, ci: true });
    expect(ci.metrics.ms).toBe(0);
    const real = await reflect(bundleA, ON);
    expect(real.metrics.ms).toBeGreaterThanOrEqual(0);
  });

  it('writes nothing but an empty summary (summaryTokens 0 or an empty turn)', async () => {
    const memory = reflectionMemoryStore(memoryStore(), { now: fixedNow });
    const r = await reflect(
      bundleA,
      { allowReflection: true, reflection: { summaryTokens: 0 } },
      { memory, ci: true },
    );
    expect([r.summary, r.memoryEntries.length, r.metrics.reason]).toEqual(['', 0, null]);
    const e = await reflect({ utter: ' ... ', plan: { reflection: true } }, ON, { memory, ci: true });
    expect([e.summary, e.memoryEntries.length]).toEqual(['', 0]);
    expect(await memory.count()).toBe(0);
  });
});

describe('determinism (PR83)', () => {
  const run = async (backend: 'rulebased' | 'llm') => {
    const kv = memoryStore();
    const memory = reflectionMemoryStore(kv, { now: fixedNow });
    const lines: string[] = [];
    const bundles: ReflectionBundle[] = [
      bundleA,
      { ...bundleA, agent: 'AgentB', turn: 1, utter: 'Résumé — café ☕ and 中文' },
      { ...bundleA, agent: 'AgentA', turn: 2, snippets: [] },
    ];
    const fixtures = (
      await Promise.all(bundles.map((b) => llmFixtures(b, `Summary for ${b.agent} turn ${b.turn}.`)))
    ).join('');
    const config = {
      allowReflection: true,
      reflection: { backend },
      llm: { fixtures: { enabled: true, jsonl: fixtures } },
    };
    const results = [];
    for (const b of bundles) results.push(await reflect(b, config, { memory, log: lines, ci: true }));
    return canonicalJson({ results, lines, store: JSON.parse(await dump(kv)) });
  };

  it('gives byte-identical results, memory entries and log lines across runs, both backends', async () => {
    for (const backend of ['rulebased', 'llm'] as const) {
      const a = await run(backend);
      expect(await run(backend)).toBe(a);
      expect(a).toContain(backend === 'llm' ? 'Summary for AgentB turn 1.' : 'r\\u00e9sum\\u00e9 caf\\u00e9');
    }
  });

  it('flushes a parallel batch in deterministic order (turn, then agent), whatever the input order', async () => {
    const bundles: ReflectionBundle[] = [
      { ...bundleA, agent: 'Zed', turn: 3 },
      { ...bundleA, agent: 'Bob', turn: 3 },
      { ...bundleA, agent: 'Amy', turn: 4 },
      { ...bundleA, agent: 'Amy', turn: 3 },
      { ...bundleA, agent: 'Cy', turn: 3, plan: { reflection: false } },
    ];
    const once = async (order: number[]) => {
      const kv = memoryStore();
      const memory = reflectionMemoryStore(kv, { now: fixedNow });
      const lines: string[] = [];
      const results = await reflectBatch(
        order.map((i) => bundles[i]!),
        ON,
        { memory, log: lines, ci: true },
      );
      expect(results.map((r) => r.ran)).toEqual(order.map((i) => i !== 4));
      return { lines, owners: (await memory.list()).map((e) => e.value.owner), store: await dump(kv) };
    };
    const a = await once([0, 1, 2, 3, 4]);
    const b = await once([4, 3, 2, 1, 0]);
    expect(a.lines.map((l) => (JSON.parse(l) as ReflectionLogRecord).agent)).toEqual([
      'Amy',
      'Bob',
      'Zed',
      'Amy',
    ]);
    expect(a.owners).toEqual(['Amy', 'Bob', 'Zed', 'Amy']);
    expect(b).toEqual(a);
  });
});

describe('budgets (PR83)', () => {
  it('times out exactly with an injected clock: reason reflection_timeout, no writes, a log record', async () => {
    for (const backend of ['rulebased', 'llm'] as const) {
      const kv = spyStore();
      const memory = reflectionMemoryStore(kv.store, { now: fixedNow });
      const lines: string[] = [];
      // Each clock read advances 10 ms; the budget (25 ms) expires between steps.
      let t = 0;
      const clock = () => (t += 10);
      const jsonl = await llmFixtures(bundleA, 'x y z');
      const config = {
        allowReflection: true,
        reflection: { backend },
        budgets: { timeMsReflection: 25 },
        llm: { fixtures: { enabled: true, jsonl } },
      };
      const result = await reflect(bundleA, config, { memory, log: lines, clock });
      expect(result.metrics.reason).toBe('reflection_timeout');
      expect(result.memoryEntries).toEqual([]);
      expect(result.summary).toBe('');
      expect(result.metrics.opsWritten).toBe(0);
      expect(kv.calls).toEqual([]);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        reason: 'reflection_timeout',
        ops_written: 0,
        summary_len: 0,
      });
      expect(result.metrics.ms).toBeGreaterThan(25);
      // Within budget with the same clock: it runs.
      t = 0;
      const ok = await reflect(
        bundleA,
        { ...config, budgets: { timeMsReflection: 1000 } },
        { memory, clock },
      );
      expect(ok.metrics.reason).toBeNull();
      expect(ok.memoryEntries).toHaveLength(1);
    }
  });

  it('a zero budget with a frozen clock still runs (expiry is elapsed > budget)', async () => {
    const r = await reflect(
      bundleA,
      { allowReflection: true, budgets: { timeMsReflection: 0 } },
      { clock: () => 5 },
    );
    expect(r.metrics.reason).toBeNull();
  });

  it('bounds a hanging adapter with a real timer when no clock is injected', async () => {
    // The adapter never answers: settling at all means the budget's timer ended the call.
    const never = { generate: () => new Promise<string>(() => {}) };
    const r = await reflect(
      bundleA,
      {
        allowReflection: true,
        reflection: { backend: 'llm' },
        budgets: { timeMsReflection: 30 },
        llm: { fixtures: { enabled: true, jsonl: '{"prompt_hash":"000000000000","completion":"x"}' } },
      },
      { fixtures: never },
    );
    expect(r.metrics.reason).toBe('reflection_timeout');
  });

  it('caps entries written at opsReflection (hard cap, 0 writes nothing)', async () => {
    const memory = reflectionMemoryStore(memoryStore(), { now: fixedNow });
    const zero = await reflect(
      bundleA,
      { allowReflection: true, budgets: { opsReflection: 0 } },
      { memory, ci: true },
    );
    expect(zero.memoryEntries).toEqual([]);
    expect(zero.metrics).toMatchObject({ opsWritten: 0, reason: null });
    expect(zero.summary).not.toBe('');
    expect(await memory.count()).toBe(0);
    for (const cap of [1, 5]) {
      const r = await reflect(
        bundleA,
        { allowReflection: true, budgets: { opsReflection: cap } },
        { memory, ci: true },
      );
      expect(r.metrics.opsWritten).toBeLessThanOrEqual(cap);
      expect(r.metrics.opsWritten).toBe(1);
    }
    expect(await memory.count()).toBe(2);
  });
});

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

describe('log sinks (section 5.1)', () => {
  it('writes JSONL lines to a writer and records to a KeyValueStore in flush order', async () => {
    const chunks: string[] = [];
    const writer = { write: async (c: string) => void chunks.push(c) };
    const kv = memoryStore();
    const bundles = [
      { ...bundleA, agent: 'B', turn: 10 },
      { ...bundleA, agent: 'A', turn: 10 },
      { ...bundleA, agent: 'A', turn: 9 },
    ];
    const results = await reflectBatch(bundles, ON, { log: writer, ci: true });
    await reflectBatch(bundles, ON, { log: kv, ci: true });
    expect(chunks.every((c) => c.endsWith('\n') && !c.slice(0, -1).includes('\n'))).toBe(true);
    const records = await readReflectionLog(kv);
    expect(records.map((r) => `${r.turn}${r.agent}`)).toEqual(['9A', '10A', '10B']);
    expect(chunks.map((c) => c.trimEnd())).toEqual(records.map(reflectionLogLine));
    expect(await kv.keys()).toEqual([
      'log:t3_reflection:000000000009:A',
      'log:t3_reflection:000000000010:A',
      'log:t3_reflection:000000000010:B',
    ]);
    expect(results[2]!.log).toEqual(records[0]);
  });

  it('builds the section-12 microbench object for both backends', async () => {
    const config = validateReflectionConfig(ON);
    const r = await reflect(bundleA, config, { ci: true });
    expect(reflectionMicrobench(config, r.log!)).toEqual({
      backend: 'rulebased',
      allow_reflection: true,
      tokens_budget: 128,
      summary_len: 26,
      ops: 1,
      embed: true,
      ops_cap: 5,
      time_budget_ms: 6000,
      ms: 0,
      reason: null,
    });
    const jsonl = await llmFixtures(bundleA, 'ok');
    const llm = validateReflectionConfig({
      ...ON,
      reflection: { backend: 'llm' },
      llm: { fixtures: { enabled: true, jsonl } },
    });
    const l = await reflect(bundleA, llm, { ci: true });
    expect(reflectionMicrobench(llm, l.log!)).toMatchObject({
      backend: 'llm',
      summary_len: 1,
      fixture_key: l.metrics.fixtureKey,
    });
  });
});

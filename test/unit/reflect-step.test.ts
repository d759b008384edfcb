/**
 * Seed 002, section 8: the reflection step's gate plumbing and policy glue (PR85), disabled-path
 * identity (PR82), the rule-based backend, and the t3_reflection.jsonl log sinks (section 5.1).
 */
import { canonicalJson } from 'rearview/core';
import { memoryStore } from 'rearview/kv';
import {
  coerceReflectionFlag,
  type LineWriter,
  planRequestsReflection,
  type ReflectionBundle,
  readReflectionLog,
  reflect,
  reflectBatch,
  reflectionGate,
  reflectionLogLine,
  reflectionMemoryStore,
  reflectionMicrobench,
  sanitizePlanReflection,
  validateReflectionConfig,
} from 'rearview/post-turn';
import { describe, expect, it } from 'vitest';
import { bundleA, dump, fixedNow, llmFixtures, NOW, ON, spyStore } from './reflect-step-helpers';

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

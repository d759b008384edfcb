/**
 * Seed 002, section 8: the reflection step's determinism and budgets (PR83): byte-identical runs,
 * batch flush order, the time budget with an injected or a real clock, and the write cap.
 */
import { canonicalJson } from 'rearview/core';
import { memoryStore } from 'rearview/kv';
import {
  type ReflectionBundle,
  type ReflectionLogRecord,
  reflect,
  reflectBatch,
  reflectionMemoryStore,
} from 'rearview/post-turn';
import { describe, expect, it } from 'vitest';
import { bundleA, dump, fixedNow, llmFixtures, ON, spyStore } from './reflect-step-helpers';

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

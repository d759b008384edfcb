// A caller's code (an LLM client, a store, a KV binding, a subscriber) can throw anything, including
// values that cannot be printed: `String({ toString: 0 })` itself throws. Every place that reports a
// thrown value must still give its typed error or diagnostic, not a TypeError from the report.
import fc from 'fast-check';
import { reduceTrajectory } from 'rearview/compress';
import { describeError, isRearviewError } from 'rearview/core';
import { type KeyValueStore, memoryStore, openBestStore, workersKvStore } from 'rearview/kv';
import { type LlmClient, withRetries } from 'rearview/llm';
import { toolCritiquer } from 'rearview/loop';
import { createRearview } from 'rearview/session';
import { computeTrajectoryReduction } from 'rearview/snapshot';
import { playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';

const UNPRINTABLE: unknown[] = [
  { toString: 0 },
  Object.create(null),
  {
    get message() {
      throw new Error('getter');
    },
  },
  new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
    },
  ),
];

const throwingLlm = (value: unknown): LlmClient => ({
  async complete() {
    throw value;
  },
});

describe('describeError', () => {
  it('prints messages, primitives and anything else without throwing', () => {
    expect(describeError(new TypeError('bad'))).toBe('bad');
    expect(describeError({ message: 'plain object' })).toBe('plain object');
    expect(describeError('text')).toBe('text');
    expect(describeError(undefined)).toBe('undefined');
    expect(describeError(Symbol('s'))).toBe('Symbol(s)');
    for (const v of UNPRINTABLE) expect(typeof describeError(v)).toBe('string');
    expect(describeError({ toString: 0 })).toBe('a value that cannot be printed');
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (v) => {
        expect(typeof describeError(v)).toBe('string');
      }),
    );
  });
});

describe('unprintable thrown values', () => {
  it('workersKvStore: get, set, delete and keys reject with a StoreError', async () => {
    for (const value of UNPRINTABLE) {
      const fail = () => Promise.reject(value);
      const kv = workersKvStore({ get: fail, put: fail, delete: fail, list: fail });
      for (const op of [() => kv.get('k'), () => kv.set('k', 1), () => kv.delete('k'), () => kv.keys()]) {
        const err = await op().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isRearviewError(err) && err.code).toBe('store_failed');
      }
    }
  });

  it('a playbook subscriber that throws does not fail the write', async () => {
    const warnings: string[] = [];
    const store = playbookStore(memoryStore(), { broadcast: false, onWarning: (m) => warnings.push(m) });
    for (const value of UNPRINTABLE) {
      const off = store.subscribe('p', () => {
        throw value;
      });
      await store.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: `note ${warnings.length}` }]);
      off();
    }
    expect(warnings).toHaveLength(UNPRINTABLE.length);
    expect((await store.load('p')).sections.OTHERS).toHaveLength(UNPRINTABLE.length);
  });

  it('computeTrajectoryReduction and reduceTrajectory fall back with a diagnostic', async () => {
    for (const value of UNPRINTABLE) {
      const llm = throwingLlm(value);
      const entries = Array.from({ length: 30 }, (_, i) => ({
        scope: 'notes',
        key: `k${i}`,
        value: `The deploy to staging failed on attempt ${i}`,
        sourceIteration: i,
      }));
      const red = await computeTrajectoryReduction(
        { objective: 'Fix deploy', entries, tasks: [] },
        {
          llm,
          minSnapshotTokens: 0,
        },
      );
      expect(red.diagnostics.reflectionSkippedReason).toBe('api_error');
      const steps = Array.from({ length: 3 }, (_, index) => ({
        index,
        action: `cat log${index}.txt`,
        observation: 'log line with some words in it\n'.repeat(300),
        source: {},
      }));
      const r = await reduceTrajectory(steps, { llm, theta: 10 });
      expect(r.diagnostics.steps.some((d) => d.status === 'api_error')).toBe(true);
    }
  });

  it('a countTokens or now that throws an unprintable value is reported, not rethrown', async () => {
    for (const value of UNPRINTABLE) {
      const entries = Array.from({ length: 30 }, (_, i) => ({
        scope: 'notes',
        key: `k${i}`,
        value: `The deploy to staging failed on attempt ${i}`,
        sourceIteration: i,
      }));
      const thrower = () => {
        throw value;
      };
      for (const options of [{ countTokens: thrower }, { now: thrower }]) {
        const red = await computeTrajectoryReduction(
          { objective: 'Fix deploy', entries, tasks: [] },
          { llm: throwingLlm(new Error('unused')), minSnapshotTokens: 0, ...options },
        );
        expect(red.diagnostics.reflectionSkippedReason).toBe('callback_error');
        expect(red.diagnostics.reflectionError).toMatch(/^(countTokens|now) threw: /);
      }
      const steps = [{ index: 0, action: 'cat a', observation: 'x\n'.repeat(50), source: {} }];
      const r = await reduceTrajectory(steps, {
        llm: throwingLlm(new Error('unused')),
        countTokens: thrower,
      });
      expect(r.diagnostics.error).toMatch(/^countTokens threw: /);
      expect(r.steps).toEqual(steps);
    }
  });

  it('openBestStore falls back to memory when IndexedDB throws an unprintable value', async () => {
    for (const value of UNPRINTABLE) {
      const warnings: string[] = [];
      const indexedDB = {
        open() {
          throw value;
        },
      } as unknown as IDBFactory;
      const best = await openBestStore({ indexedDB, onWarning: (m) => warnings.push(m) });
      expect(best.persistent).toBe(false);
      expect(warnings).toHaveLength(1);
    }
  });

  it('endSession reports a store that throws unprintable values instead of rejecting', async () => {
    for (const value of UNPRINTABLE) {
      const base = memoryStore();
      const fail = () => Promise.reject(value);
      const store: KeyValueStore = { ...base, get: fail, set: fail, update: fail } as KeyValueStore;
      const rv = createRearview({ store, storeOptions: { broadcast: false, onWarning: () => {} } });
      rv.observe([
        { role: 'user', content: 'Use npm to install it.' },
        { role: 'assistant', content: 'Done with npm.' },
        { role: 'user', content: 'No, use pnpm instead of npm.' },
      ]);
      const summary = await rv.endSession();
      expect(summary.errors.length).toBeGreaterThan(0);
      expect(typeof summary.errors[0]!.message).toBe('string');
    }
  });

  it('withRetries wraps the value in an LlmError; toolCritiquer turns it into an issue', async () => {
    for (const value of UNPRINTABLE) {
      const err = await withRetries(() => Promise.reject(value), { maxRetries: 0 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isRearviewError(err) && err.code).toBe('llm_connection');
      const critique = await toolCritiquer(() => {
        throw value;
      }).critique('p', { content: 'x', metadata: {} });
      expect(critique.issues).toHaveLength(1);
      expect(critique.issues[0]).toMatch(/^check failed: /);
    }
  });
});

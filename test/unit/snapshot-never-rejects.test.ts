/**
 * The reflection flow never rejects and never hangs: every failure (hostile callbacks, replies, input
 * and options, aborts and timeouts) falls back to the deterministic snapshot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LlmClient } from '../../lib/llm/index';
import {
  computeTrajectoryReduction,
  deterministicSnapshot,
  type SnapshotInput,
} from '../../lib/snapshot/index';
import { answer, deaf, within } from './hostile';
import { bigInput, GOOD_REPLY, scripted } from './snapshot-helpers';

const SNAPSHOT_KEYS = [
  'currentObjective',
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
];

describe('computeTrajectoryReduction: never rejects, never hangs', () => {
  it('regression: a countTokens that throws falls back to the deterministic snapshot (callback_error)', async () => {
    const llm = scripted(JSON.stringify(GOOD_REPLY));
    const r = await computeTrajectoryReduction(bigInput(), {
      llm,
      countTokens: () => {
        throw new Error('tokenizer offline');
      },
    });
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    expect(r.diagnostics).toMatchObject({
      path: 'deterministic',
      reflectionUsed: false,
      reflectionSkippedReason: 'callback_error',
      reflectionError: 'countTokens threw: tokenizer offline',
    });
    expect(llm.calls).toBe(0);
    // The figures the counter could not give are estimates, never NaN.
    expect(r.diagnostics.deterministicTokens).toBeGreaterThan(400);
    expect(r.diagnostics.logLine).toMatch(/^\[TRAJECTORY\] reflection=skipped reason=callback_error /);
  });

  it('regression: a countTokens that fails after the model call keeps the reply out', async () => {
    let n = 0;
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: scripted(JSON.stringify(GOOD_REPLY)),
      countTokens: async (t) => {
        if (++n > 1) throw new Error(`count ${n} failed`);
        return t.length;
      },
    });
    expect(r.diagnostics).toMatchObject({
      reflectionInvoked: true,
      reflectionUsed: false,
      reflectionSkippedReason: 'callback_error',
      reflectionError: 'countTokens threw: count 2 failed',
    });
    expect(r.diagnostics.deterministicTokens).toBe(JSON.stringify(r.snapshot).length);
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('regression: a now() that throws stops before the model is called', async () => {
    const llm = scripted(JSON.stringify(GOOD_REPLY));
    const r = await computeTrajectoryReduction(bigInput(), {
      llm,
      now: () => {
        throw new RangeError('clock gone');
      },
    });
    expect(llm.calls).toBe(0);
    expect(r.diagnostics).toMatchObject({
      reflectionSkippedReason: 'callback_error',
      reflectionError: 'now threw: clock gone',
    });
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('regression: a reply without usage is counted; a reply without text is an api_error', async () => {
    const noUsage: LlmClient = {
      complete: async () => ({ text: JSON.stringify(GOOD_REPLY) }) as never,
    };
    const used = await computeTrajectoryReduction(bigInput(), { llm: noUsage });
    expect(used.diagnostics.reflectionUsed).toBe(true);
    expect(used.diagnostics.reflectionInputTokens).toBeGreaterThan(500);
    expect(used.diagnostics.reflectionOutputTokens).toBeGreaterThan(50);
    for (const reply of [{ usage: { inputTokens: 1, outputTokens: 1 } }, null, 'text', { text: 42 }]) {
      for (const redact of [true, false]) {
        const r = await computeTrajectoryReduction(bigInput(), {
          llm: { complete: async () => reply as never },
          redact,
        });
        expect(r.diagnostics.reflectionSkippedReason).toBe('api_error');
        expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
      }
    }
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: { complete: async () => ({ usage: {} }) as never },
      redact: false,
    });
    expect(r.diagnostics.reflectionError).toMatch(
      /^llm_invalid_response: .*has no text: got object with text undefined/,
    );
  });

  it('regression: entries, tasks or previous of the wrong shape give invalid_input', async () => {
    const cases: [unknown, RegExp][] = [
      [{ objective: 'x', entries: 5 }, /^input\.entries must be an array, got number$/],
      [{ objective: 'x', entries: 'abc' }, /^input\.entries must be an array, got string$/],
      [{ objective: 'x', entries: [], tasks: {} }, /^input\.tasks must be an array, got object$/],
      [{ objective: 'x', entries: [], previous: 'p' }, /^input\.previous must be a snapshot or null/],
      [null, /^input must be an object, got null$/],
      [{ objective: 'x', entries: [null] }, /^TypeError: /],
      [{ objective: 'x', entries: [], tasks: [null] }, /^TypeError: /],
      [{ objective: 'x', entries: [], previous: { blockers: 7 } }, /TypeError/],
    ];
    for (const [input, error] of cases) {
      const r = await computeTrajectoryReduction(input as SnapshotInput, { llm: scripted('{}') });
      expect(r.diagnostics.reflectionSkippedReason, JSON.stringify(input)).toBe('invalid_input');
      expect(r.diagnostics.reflectionError, JSON.stringify(input)).toMatch(error);
      expect(Object.keys(r.snapshot)).toEqual(SNAPSHOT_KEYS);
    }
    // What could be read is kept: the objective of an input whose entries are not an array.
    const r = await computeTrajectoryReduction({ objective: 'Ship', entries: 5 } as never);
    expect(r.snapshot.currentObjective).toBe('Ship');
  });

  it('regression: input whose getters throw gives invalid_input', async () => {
    const input = {
      objective: 'x',
      get entries(): never {
        throw new Error('entries unavailable');
      },
    };
    const r = await computeTrajectoryReduction(input as never, { llm: scripted('{}') });
    expect(r.diagnostics.reflectionSkippedReason).toBe('invalid_input');
    expect(r.diagnostics.reflectionError).toBe('reading the input threw: entries unavailable');
  });

  it('regression: a revoked proxy as input or options resolves with invalid_input', async () => {
    const revoked = () => {
      const r = Proxy.revocable({}, {});
      r.revoke();
      return r.proxy;
    };
    const asInput = await computeTrajectoryReduction(revoked() as never, { llm: scripted('{}') });
    expect(asInput.diagnostics.reflectionSkippedReason).toBe('invalid_input');
    expect(asInput.snapshot.currentObjective).toBe('');
    const asOptions = await computeTrajectoryReduction(bigInput(), revoked() as never);
    expect(asOptions.diagnostics.reflectionSkippedReason).toBe('invalid_input');
    expect(asOptions.diagnostics.reflectionError).toMatch(/^TypeError: /);
    expect(asOptions.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('regression: an abort settles at once even when the client ignores its signal', async () => {
    const llm = deaf();
    const controller = new AbortController();
    const pending = computeTrajectoryReduction(bigInput(), { llm, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const r = await within(pending);
    expect(llm.calls).toBe(1);
    expect(r.diagnostics).toMatchObject({ reflectionSkippedReason: 'aborted', reflectionInvoked: true });
    expect(r.diagnostics.reflectionError).toMatch(/^llm_aborted: /);
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('times out a client that ignores its signal (llm_timeout through withDeadline)', async () => {
    const r = await within(computeTrajectoryReduction(bigInput(), { llm: deaf(), timeoutMs: 30 }));
    expect(r.diagnostics.reflectionSkippedReason).toBe('timeout');
    expect(r.diagnostics.reflectionError).toMatch(
      /^llm_timeout: The reflection call did not finish within 30 ms/,
    );
  });

  it('an abort that arrives while the reply is being counted keeps the reply out', async () => {
    const controller = new AbortController();
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: {
        complete: async () => {
          setTimeout(() => controller.abort(), 0);
          return {
            text: JSON.stringify(GOOD_REPLY),
            usage: { inputTokens: 0, outputTokens: 0 },
            latencyMs: 1,
            model: 'm',
          };
        },
      },
      countTokens: (t) => new Promise((resolve) => setTimeout(() => resolve(Math.ceil(t.length / 4)), 5)),
      signal: controller.signal,
    });
    expect(r.diagnostics).toMatchObject({ reflectionSkippedReason: 'aborted', reflectionUsed: false });
  });

  it('property: never rejects, whatever the input, options, callbacks and reply', async () => {
    const thrower = fc.anything().map((v) => () => {
      throw v;
    });
    const hostileReply = fc.oneof(
      fc.anything(),
      fc.record(
        { text: fc.oneof(fc.string(), fc.constant(JSON.stringify(GOOD_REPLY))) },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.constant(bigInput()),
          fc.record({ objective: fc.string(), entries: fc.anything() }),
        ),
        fc.record(
          {
            countTokens: fc.oneof(
              thrower,
              fc.anything(),
              fc.constant((t: string) => t.length),
            ),
            now: fc.oneof(thrower, fc.anything()),
            minSnapshotTokens: fc.oneof(fc.constant(0), fc.anything()),
            minSavingsTokens: fc.anything(),
            maxCategoryItems: fc.anything(),
            maxTextLength: fc.anything(),
            nearDuplicateThreshold: fc.anything(),
            signal: fc.anything(),
            reply: fc.oneof(
              hostileReply,
              fc.anything().map((v) => ({ reject: v })),
            ),
          },
          { requiredKeys: [] },
        ),
        async (input, { reply, ...options }) => {
          const r = await computeTrajectoryReduction(input as SnapshotInput, {
            ...(options as object),
            llm: { complete: async () => answer(reply) },
          });
          expect(Object.keys(r.snapshot)).toEqual(SNAPSHOT_KEYS);
          expect(typeof r.snapshot.currentObjective).toBe('string');
          expect(r.diagnostics.logLine).toMatch(/^\[TRAJECTORY\] reflection=(used|skipped)/);
          expect(Array.isArray(r.retired) && Array.isArray(r.kept)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: a countTokens that throws on a random call never makes it reject', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(12), fc.anything(), async (failAt, thrown) => {
        let n = 0;
        const r = await computeTrajectoryReduction(bigInput(), {
          llm: scripted(JSON.stringify(GOOD_REPLY), { inputTokens: 0, outputTokens: 0 }),
          countTokens: (t) => {
            if (n++ === failAt) throw thrown;
            return Math.ceil(t.length / 4);
          },
        });
        expect(r.diagnostics.reflectionSkippedReason).toBe(n > failAt ? 'callback_error' : null);
        if (n > failAt) expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
      }),
      { numRuns: 100 },
    );
  });
});

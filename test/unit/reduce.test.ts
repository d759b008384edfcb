/**
 * reduceTrajectory (AgentDiet): the sliding window (target s − a, b steps before, a after), the θ
 * gates, the error-line guard, the marker, and failures — through the real SDK against the local
 * Messages API and through recorded fixtures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressionPrompt, REFLECTION_MARKER, reduceTrajectory } from '../../lib/compress/index';
import { anthropicClient, fixtureClient, type LlmClient, requestKey } from '../../lib/llm/index';
import type { Step } from '../../lib/transcript/index';
import { useMockAnthropic } from '../llm/use-mock';
import { answer, deaf, within } from './hostile';

const long = (tag: string, n = 300) =>
  Array.from({ length: n }, (_, i) => `${tag} listing entry number ${i} with some padding words`).join('\n');
const steps = (): Step[] => [
  { index: 0, action: 'ls -R', observation: long('a'), source: { index: 0 } },
  { index: 1, action: 'echo hi', observation: 'hi', source: { index: 1 } },
  {
    index: 2,
    action: 'pytest',
    observation: `${long('c')}\nFAILED test_x.py::test_y - AssertionError`,
    source: { index: 2 },
  },
  { index: 3, action: 'cat a.py', observation: 'x = 1', source: { index: 3 } },
  { index: 4, action: 'git diff', observation: 'diff', source: { index: 4 } },
];

function scripted(replies: string[]): LlmClient & { prompts: string[] } {
  const prompts: string[] = [];
  let i = 0;
  return {
    prompts,
    async complete(req) {
      prompts.push(req.messages[0]!.content);
      const text = replies[Math.min(i++, replies.length - 1)]!;
      return { text, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, model: 's' };
    },
  };
}

describe('reduceTrajectory', () => {
  it('compresses step s − a with b steps before and a after, marks it and reports per step', async () => {
    const llm = scripted([
      '<compressed>\n…(recursive listing of 300 entries, nothing relevant)\n</compressed>',
      '<compressed>…(300 passing tests)\nFAILED test_x.py::test_y - AssertionError</compressed>',
    ]);
    const r = await reduceTrajectory(steps(), { llm });
    expect(r.diagnostics.steps.map((d) => d.status)).toEqual([
      'accepted',
      'below_threshold',
      'accepted',
      'not_reached',
      'not_reached',
    ]);
    expect(r.diagnostics.calls).toBe(2);
    expect(r.steps[0]!.observation).toBe(
      `${REFLECTION_MARKER}\n…(recursive listing of 300 entries, nothing relevant)`,
    );
    expect(r.steps[0]!.compacted!.rules).toEqual(['reflection']);
    expect(r.steps[2]!.observation).toContain('FAILED test_x.py::test_y - AssertionError');
    expect(r.diagnostics.tokensAfter).toBeLessThan(r.diagnostics.tokensBefore - 1000);
    // Window of target 2 (a = 2, b = 1): steps 1..4, the target marked.
    expect(llm.prompts[1]).toContain('context step 1');
    expect(llm.prompts[1]).toContain('TARGET step 2');
    expect(llm.prompts[1]).toContain('context step 4');
    expect(llm.prompts[1]).not.toContain('context step 0');
    // The window shows the already-compressed step 0? No: b = 1 keeps it out; with b = 2 it is in.
    const { user } = compressionPrompt(r.steps, 2, 2, 2);
    expect(user).toContain(REFLECTION_MARKER);
  });

  it('rejects rewrites that save less than θ, drop an error line or are unparseable', async () => {
    const r = await reduceTrajectory(steps(), {
      llm: scripted([`<compressed>${long('a', 290)}</compressed>`, '<compressed>…(tests)</compressed>']),
    });
    expect(r.diagnostics.steps[0]!.status).toBe('insufficient_savings');
    expect(r.diagnostics.steps[2]!).toMatchObject({ status: 'lost_error_lines' });
    expect(r.steps[0]!.observation).toBe(steps()[0]!.observation);
    const p = await reduceTrajectory(steps(), { llm: scripted(['I cannot help with that.']) });
    expect(p.diagnostics.steps[0]!.status).toBe('parse_error');
    const theta = await reduceTrajectory(steps(), {
      llm: scripted(['<compressed>x</compressed>']),
      theta: 100_000,
    });
    expect(theta.diagnostics.calls).toBe(0);
  });

  it('stops on abort without throwing', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await reduceTrajectory(steps(), {
      llm: scripted(['<compressed>x</compressed>']),
      signal: controller.signal,
    });
    expect(r.diagnostics.steps.slice(0, 3).map((d) => d.status)).toEqual(['aborted', 'aborted', 'aborted']);
  });
});

describe('reduceTrajectory through the real SDK and fixtures', () => {
  const mock = useMockAnthropic();

  it('talks to the Messages API and survives a 500', async () => {
    mock.script([
      { kind: 'json', text: '<compressed>…(listing)</compressed>' },
      { kind: 'status', status: 500 },
    ]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test', baseURL: mock.url, maxRetries: 0 });
    const r = await reduceTrajectory(steps(), { llm });
    expect(r.diagnostics.steps[0]!.status).toBe('accepted');
    expect(r.diagnostics.steps[2]!).toMatchObject({ status: 'api_error' });
    expect(r.diagnostics.steps[2]!.error).toMatch(/^llm_server/);
    const body = mock.requests[0]!.body as { system: string; max_tokens: number };
    expect(body.system).toContain('<compressed>');
    expect(body.max_tokens).toBe(4096);
  });

  it('replays recorded fixtures by request key', async () => {
    const s = steps();
    const { system, user } = compressionPrompt(s, 0, 2, 1);
    const key = await requestKey({
      system,
      messages: [{ role: 'user', content: user }],
      maxTokens: 4096,
      temperature: 0,
    });
    const llm = fixtureClient([{ key, text: '<compressed>…(listing)</compressed>' }]);
    const r = await reduceTrajectory(s, { llm });
    expect(r.diagnostics.steps[0]!.status).toBe('accepted');
    expect(r.diagnostics.steps[2]!.status).toBe('api_error'); // no fixture for that window
  });
});

describe('reduceTrajectory: never rejects, never hangs', () => {
  it('regression: a countTokens that throws ends the run with diagnostics.error, steps unchanged', async () => {
    const llm = scripted(['<compressed>…(listing)</compressed>']);
    const r = await reduceTrajectory(steps(), {
      llm,
      countTokens: () => {
        throw new Error('tokenizer offline');
      },
    });
    expect(r.steps).toEqual(steps());
    expect(r.diagnostics.error).toBe('countTokens threw: tokenizer offline');
    expect(r.diagnostics.calls).toBe(0);
    expect(r.diagnostics.steps.map((d) => d.status)).toEqual(Array(5).fill('not_reached'));
    // Every step still has figures (estimates), so the totals cover the whole trajectory.
    expect(r.diagnostics.tokensBefore).toBeGreaterThan(1000);
    expect(r.diagnostics.tokensAfter).toBe(r.diagnostics.tokensBefore);
  });

  it('regression: a counter failing after an accepted step keeps what was done', async () => {
    let n = 0;
    const r = await reduceTrajectory(steps(), {
      llm: scripted([
        '<compressed>\n…(recursive listing of 300 entries)\n</compressed>',
        '<compressed>…(tests)\nFAILED test_x.py::test_y - AssertionError</compressed>',
      ]),
      countTokens: (t) => {
        if (++n > 6) throw 'count failed';
        return Math.ceil(t.length / 4);
      },
    });
    expect(r.diagnostics.steps.map((d) => d.status)).toEqual([
      'accepted',
      'below_threshold',
      'not_reached',
      'not_reached',
      'not_reached',
    ]);
    expect(r.steps[0]!.observation).toMatch(/^\[rearview: compressed by reflection\]/);
    expect(r.steps.slice(1)).toEqual(steps().slice(1));
    expect(r.diagnostics.error).toBe('countTokens threw: count failed');
    expect(r.diagnostics.calls).toBe(2);
  });

  it('regression: steps that are not an array resolve to no steps and an error', async () => {
    for (const bad of [null, undefined, 'abc', {}, 5]) {
      const r = await reduceTrajectory(bad as never, { llm: scripted(['x']) });
      expect(r.steps).toEqual([]);
      expect(r.diagnostics).toMatchObject({ steps: [], tokensBefore: 0, calls: 0, accepted: 0 });
      expect(r.diagnostics.error).toMatch(/^steps must be an array, got /);
    }
  });

  it('regression: a window (a, b) or θ that is not a count ends the run instead of looping forever', async () => {
    for (const [options, error] of [
      [{ a: -1e300 }, 'options.a must be a non-negative integer, got -1e+300'],
      [{ a: 1.5 }, 'options.a must be a non-negative integer, got 1.5'],
      [{ b: -1 }, 'options.b must be a non-negative integer, got -1'],
      [{ b: 'x' }, 'options.b must be a non-negative integer, got string'],
      [{ theta: Number.NaN }, 'options.theta must be a number, got NaN'],
      [{ theta: '5' }, 'options.theta must be a number, got string'],
    ] as const) {
      const llm = scripted(['<compressed>x</compressed>']);
      const r = await within(reduceTrajectory(steps(), { llm, ...(options as object) }));
      expect(r.diagnostics.error).toBe(error);
      expect(r.diagnostics.calls).toBe(0);
      expect(r.steps).toEqual(steps());
    }
  });

  it('regression: revoked proxies as steps, as a step or as options resolve with an error', async () => {
    const revoked = () => {
      const r = Proxy.revocable({}, {});
      r.revoke();
      return r.proxy;
    };
    const llm = scripted(['<compressed>x</compressed>']);
    const whole = await reduceTrajectory(revoked() as never, { llm });
    expect(whole.steps).toEqual([]);
    expect(whole.diagnostics.error).toMatch(/^TypeError: /);
    const oneStep = await reduceTrajectory([steps()[0]!, revoked() as Step], { llm });
    expect(oneStep.steps).toHaveLength(2);
    expect(oneStep.steps[0]).toEqual(steps()[0]);
    expect(oneStep.diagnostics.steps.map((d) => d.status)).toEqual(['not_reached', 'not_reached']);
    expect(oneStep.diagnostics.error).toMatch(/^TypeError: /);
    const options = await reduceTrajectory(steps(), revoked() as never);
    expect(options.steps).toEqual(steps());
    expect(options.diagnostics.error).toMatch(/^TypeError: /);
  });

  it('regression: a reply without text is an api_error for that step', async () => {
    for (const reply of [{ usage: { inputTokens: 1, outputTokens: 1 } }, null, 7]) {
      const r = await reduceTrajectory(steps(), {
        llm: { complete: async () => reply as never },
        redact: false,
      });
      expect(r.diagnostics.steps[0]).toMatchObject({ status: 'api_error' });
      expect(r.diagnostics.steps[0]!.error).toMatch(/^llm_invalid_response: /);
      expect(r.steps).toEqual(steps());
    }
  });

  it('regression: an abort settles at once even when the client ignores its signal', async () => {
    const llm = deaf();
    const controller = new AbortController();
    const pending = reduceTrajectory(steps(), { llm, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const r = await within(pending);
    expect(llm.calls).toBe(1);
    expect(r.diagnostics.steps.slice(0, 3).map((d) => d.status)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(r.steps).toEqual(steps());
  });

  it('times out each call of a client that ignores its signal, and goes on', async () => {
    const llm = deaf();
    const r = await within(reduceTrajectory(steps(), { llm, timeoutMs: 20 }));
    expect(llm.calls).toBe(2);
    expect(r.diagnostics.steps.map((d) => d.status)).toEqual([
      'timeout',
      'below_threshold',
      'timeout',
      'not_reached',
      'not_reached',
    ]);
    expect(r.diagnostics.steps[0]!.error).toMatch(
      /^llm_timeout: The compression call for step 0 did not finish within 20 ms/,
    );
  });

  it('property: never rejects, whatever the steps, options, callbacks and reply', async () => {
    const thrower = fc.anything().map((v) => () => {
      throw v;
    });
    const step = fc.oneof(
      fc.anything(),
      fc.record(
        { index: fc.anything(), action: fc.anything(), observation: fc.oneof(fc.string(), fc.anything()) },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.anything(), fc.array(step, { maxLength: 6 }), fc.constant(steps())),
        fc.record(
          {
            countTokens: fc.oneof(thrower, fc.anything()),
            theta: fc.oneof(fc.constant(0), fc.anything()),
            a: fc.oneof(fc.nat(3), fc.anything()),
            b: fc.oneof(fc.nat(3), fc.anything()),
            reply: fc.oneof(
              fc.anything(),
              fc.string().map((t) => ({ text: `<compressed>${t}</compressed>` })),
              fc.anything().map((v) => ({ reject: v })),
            ),
          },
          { requiredKeys: [] },
        ),
        async (input, { reply, ...options }) => {
          const r = await reduceTrajectory(
            input as Step[],
            {
              ...(options as object),
              llm: { complete: async () => answer(reply) },
            } as never,
          );
          expect(Array.isArray(r.steps)).toBe(true);
          expect(r.diagnostics.steps).toHaveLength(r.steps.length);
          expect(typeof r.diagnostics.calls).toBe('number');
        },
      ),
      { numRuns: 200 },
    );
  });
});

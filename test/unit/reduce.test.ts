/**
 * reduceTrajectory (AgentDiet): the sliding window (target s − a, b steps before, a after), the θ
 * gates, the error-line guard, the marker, and failures — through the real SDK against the local
 * Messages API and through recorded fixtures.
 */
import { describe, expect, it } from 'vitest';
import { anthropicClient, fixtureClient, type LlmClient, requestKey } from '../../lib/llm/index';
import { buildCompressionPrompt, REFLECTION_MARKER, reduceTrajectory } from '../../lib/snapshot/index';
import type { Step } from '../../lib/transcript/index';
import { useMockAnthropic } from '../llm/use-mock';

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
    const { user } = buildCompressionPrompt(r.steps, 2, 2, 2);
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
    const { system, user } = buildCompressionPrompt(s, 0, 2, 1);
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

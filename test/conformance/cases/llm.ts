import { LlmError } from 'rearview/core';
import {
  fixtureClient,
  fixturesToJsonl,
  type LlmRequest,
  requestKey,
  retryAfterMs,
  withRetries,
} from 'rearview/llm';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

const request: LlmRequest = {
  system: 'Reflect on the session.',
  messages: [
    { role: 'user', content: 'No, use pnpm — not npm. Café ☕' },
    { role: 'assistant', content: 'Understood.' },
  ],
  maxTokens: 256,
  temperature: 0,
};

/** The LLM layer's deterministic parts: replay keys, fixture replay and the retry schedule. */
export const llmCases: ConformanceCase[] = [
  {
    name: 'llm/requestKey and fixture replay',
    async run() {
      const key = await requestKey(request, 'claude-haiku-4-5');
      const replay = fixtureClient(
        fixturesToJsonl([{ key, text: '{"analysis":"ok"}', usage: { inputTokens: 9, outputTokens: 4 } }]),
        {
          model: 'claude-haiku-4-5',
        },
      );
      const res = await replay.complete(request);
      let missing = '';
      try {
        await replay.complete({ ...request, maxTokens: 1 });
      } catch (err) {
        missing = (err as LlmError).code;
      }
      checkEqual(missing, 'llm_fixture_missing', 'missing fixture code');
      return { key, text: res.text, usage: res.usage, model: res.model, missing };
    },
  },
  {
    name: 'llm/retry schedule and classification',
    async run() {
      const waits: number[] = [];
      const failures = [
        new LlmError('llm_rate_limited', '429', { status: 429, retryAfterMs: 1500 }),
        new LlmError('llm_overloaded', '529', { status: 529 }),
        new LlmError('llm_connection', 'reset'),
      ];
      let calls = 0;
      const ok = await withRetries(
        async () => {
          const failure = failures[calls++];
          if (failure) throw failure;
          return 'done';
        },
        { random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
      );
      let badRequest: LlmError | undefined;
      try {
        await withRetries(
          async () => {
            throw new LlmError('llm_bad_request', '400', { status: 400 });
          },
          { sleep: async () => {} },
        );
      } catch (err) {
        badRequest = err as LlmError;
      }
      check(badRequest?.attempts === 1, '400 is never retried');
      const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });
      return {
        value: ok.value,
        attempts: ok.attempts,
        waits,
        badRequest: { code: badRequest?.code, attempts: badRequest?.attempts },
        retryAfter: [
          retryAfterMs(headers({ 'retry-after': '2' })),
          retryAfterMs(headers({ 'retry-after-ms': '125.5' })),
          retryAfterMs(
            headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:05 GMT' }),
            Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'),
          ),
        ],
      };
    },
  },
];

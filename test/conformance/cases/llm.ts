import { LlmError } from 'rearview/core';
import {
  fixtureClient,
  fixturesToJsonl,
  type LlmRequest,
  openAiClient,
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

/**
 * A local OpenAI-compatible server in the page, as a `fetch`: the same bytes in every runtime. The
 * first call answers 429 with `retry-after: 0`; then an SSE stream whose chunks split a UTF-8 character
 * and a line in two, and end on `[DONE]` after the usage chunk.
 */
function localModelServer() {
  const seen: { url: string; auth: string | null; body: unknown }[] = [];
  const fetchMock = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({
      url: String(input),
      auth: headers.get('authorization'),
      body: JSON.parse(String(init?.body)),
    });
    if (seen.length === 1) {
      return new Response('{"error":{"message":"busy"}}', { status: 429, headers: { 'retry-after': '0' } });
    }
    const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
    const text =
      event({ model: 'local-q4', choices: [{ delta: { content: 'Use pnpm ☕' }, finish_reason: null }] }) +
      event({ model: 'local-q4', choices: [{ delta: {}, finish_reason: 'stop' }] }) +
      event({ choices: [], usage: { prompt_tokens: 21, completion_tokens: 4 } }) +
      'data: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('☕') + 1; // inside the 3-byte character, in bytes
    const parts = [bytes.slice(0, cut), bytes.slice(cut, cut + 7), bytes.slice(cut + 7)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const p of parts) controller.enqueue(p);
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetch: fetchMock, seen };
}

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
    name: 'llm/openAiClient against a local chat-completions server',
    async run() {
      const server = localModelServer();
      const waits: number[] = [];
      const llm = openAiClient({
        baseURL: 'http://127.0.0.1:8080/v1/',
        model: 'local-q4',
        fetch: server.fetch,
        retry: { sleep: async (ms) => void waits.push(ms) },
      });
      const res = await llm.complete({
        ...request,
        messages: [{ role: 'user', content: 'Reach me at jane.doe@corp.io. No, use pnpm.' }],
      });
      const sent = server.seen[1]!.body as { messages: { role: string; content: string }[] };
      check(!JSON.stringify(sent).includes('jane.doe@corp.io'), 'the address is redacted before sending');
      return {
        text: res.text,
        usage: res.usage,
        model: res.model,
        stopReason: res.stopReason,
        attempts: res.attempts,
        waits,
        url: server.seen[0]!.url,
        auth: server.seen[0]!.auth,
        sent,
      };
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

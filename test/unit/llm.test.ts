/**
 * The LLM layer through the real @anthropic-ai/sdk against a local Messages API server: JSON and
 * streaming replies, the fault script (429 + retry-after, 500, 529, dropped connection, malformed
 * body, slow response), exact attempt counts and waits, cancellation, fixtures.
 */
import { describe, expect, it } from 'vitest';
import {
  anthropicClient,
  fixtureClient,
  fixturesToJsonl,
  type LlmRequest,
  parseFixturesJsonl,
  recordingClient,
  redactingClient,
  requestKey,
  retryAfterMs,
} from '../../lib/llm/index';
import { rejectionOf } from '../llm/scripted';
import { useMockAnthropic } from '../llm/use-mock';
import { freePort } from '../runtime/runtimes';

const mock = useMockAnthropic();

const request: LlmRequest = {
  system: 'You are terse.',
  messages: [{ role: 'user', content: 'Say hi' }],
  maxTokens: 64,
  temperature: 0,
};

/** A client whose backoff waits are recorded instead of slept, with jitter pinned to 0. */
function recordingWaits(options: Parameters<typeof anthropicClient>[0] = {}) {
  const waits: number[] = [];
  const llm = anthropicClient({
    apiKey: 'sk-ant-test-key',
    baseURL: mock.url,
    ...options,
    retry: {
      random: () => 0,
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...options.retry,
    },
  });
  return { llm, waits };
}

describe('anthropicClient against the local Messages API', () => {
  it('sends the request through the SDK and reads a JSON reply', async () => {
    mock.script([{ kind: 'json', text: 'hi there', usage: { input_tokens: 12, output_tokens: 3 } }]);
    const { llm } = recordingWaits({ model: 'claude-test' });
    const res = await llm.complete(request);
    expect(res).toMatchObject({
      text: 'hi there',
      usage: { inputTokens: 12, outputTokens: 3 },
      model: 'claude-test',
      attempts: 1,
    });
    expect(res.latencyMs).toBeGreaterThanOrEqual(0);
    expect(mock.requests).toHaveLength(1);
    const [received] = mock.requests;
    expect(received!.headers.authorization).toBe('Bearer sk-ant-test-key');
    expect(received!.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 64,
      system: 'You are terse.',
      temperature: 0,
      messages: [{ role: 'user', content: 'Say hi' }],
    });
  });

  it('uses a current Haiku-class model by default', async () => {
    mock.script([{ kind: 'echo' }]);
    const { llm } = recordingWaits();
    await llm.complete(request);
    expect((mock.requests[0]!.body as { model: string }).model).toBe('claude-haiku-4-5');
  });

  it('streams server-sent events and assembles the text', async () => {
    mock.script([{ kind: 'sse', text: 'streamed reply in several pieces', chunks: 5 }]);
    const { llm } = recordingWaits();
    const res = await llm.complete({ ...request, stream: true });
    expect(res.text).toBe('streamed reply in several pieces');
    expect(res.usage.outputTokens).toBeGreaterThan(0);
    expect((mock.requests[0]!.body as { stream?: boolean }).stream).toBe(true);
  });

  it('streams by default only for large maxTokens', async () => {
    mock.script([{ kind: 'echo' }]);
    const { llm } = recordingWaits();
    await llm.complete({ ...request, maxTokens: 10_000 });
    expect((mock.requests[0]!.body as { stream?: boolean }).stream).toBe(true);
  });

  it('honours retry-after on 429, then succeeds', async () => {
    mock.script([
      { kind: 'status', status: 429, headers: { 'retry-after': '3' } },
      { kind: 'json', text: 'ok' },
    ]);
    const { llm, waits } = recordingWaits();
    const res = await llm.complete(request);
    expect(res.text).toBe('ok');
    expect(res.attempts).toBe(2);
    expect(waits).toEqual([3000]);
    expect(mock.requests).toHaveLength(2);
  });

  it('prefers retry-after-ms when both are given', async () => {
    mock.script([
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' } },
      { kind: 'json', text: 'ok' },
    ]);
    const { llm, waits } = recordingWaits();
    await llm.complete(request);
    expect(waits).toEqual([1500]);
  });

  it('backs off exponentially from 2 s through 500 and 529', async () => {
    mock.script([
      { kind: 'status', status: 500 },
      {
        kind: 'status',
        status: 529,
        body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      },
      { kind: 'json', text: 'finally' },
    ]);
    const { llm, waits } = recordingWaits();
    const res = await llm.complete(request);
    expect(res).toMatchObject({ text: 'finally', attempts: 3 });
    expect(waits).toEqual([2000, 4000]);
  });

  it('adds jitter of up to 25% to the backoff', async () => {
    mock.script([
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'json', text: 'x' },
    ]);
    const { llm, waits } = recordingWaits({ retry: { random: () => 0.5 } });
    await llm.complete(request);
    expect(waits).toEqual([2250, 4500]);
  });

  it('gives up after 3 retries: exactly 4 attempts reach the server (SDK retries are off)', async () => {
    mock.script([{ kind: 'status', status: 529 }]);
    const { llm, waits } = recordingWaits();
    const err = await rejectionOf(llm.complete(request));
    expect(err.code).toBe('llm_overloaded');
    expect(err.status).toBe(529);
    expect(err.attempts).toBe(4);
    expect(mock.requests).toHaveLength(4);
    expect(waits).toEqual([2000, 4000, 8000]);
  });

  it('respects a custom maxRetries', async () => {
    mock.script([{ kind: 'status', status: 503 }]);
    const { llm } = recordingWaits({ maxRetries: 1 });
    const err = await rejectionOf(llm.complete(request));
    expect(err).toMatchObject({ code: 'llm_server', attempts: 2 });
    expect(mock.requests).toHaveLength(2);
  });

  it.each([
    [400, 'llm_bad_request'],
    [401, 'llm_auth'],
    [403, 'llm_auth'],
    [404, 'llm_not_found'],
  ])('never retries %i', async (status, code) => {
    mock.script([{ kind: 'status', status }]);
    const { llm, waits } = recordingWaits();
    const err = await rejectionOf(llm.complete(request));
    expect(err).toMatchObject({ code, status, attempts: 1 });
    expect(mock.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each([408, 409])('retries %i', async (status) => {
    mock.script([
      { kind: 'status', status },
      { kind: 'json', text: 'ok' },
    ]);
    const { llm } = recordingWaits();
    expect((await llm.complete(request)).attempts).toBe(2);
  });

  it('retries a dropped connection', async () => {
    mock.script([{ kind: 'drop' }, { kind: 'json', text: 'after drop' }]);
    const { llm, waits } = recordingWaits();
    const res = await llm.complete(request);
    expect(res).toMatchObject({ text: 'after drop', attempts: 2 });
    expect(waits).toEqual([2000]);
  });

  it('retries a malformed body and reports llm_invalid_response when it persists', async () => {
    mock.script([{ kind: 'malformed' }, { kind: 'json', text: 'clean' }]);
    const first = recordingWaits();
    expect((await first.llm.complete(request)).text).toBe('clean');
    mock.script([{ kind: 'malformed' }]);
    const second = recordingWaits({ maxRetries: 2 });
    const err = await rejectionOf(second.llm.complete(request));
    expect(err).toMatchObject({ code: 'llm_invalid_response', attempts: 3 });
  });

  it('times out a slow response per attempt and retries it', async () => {
    mock.script([
      { kind: 'json', text: 'late', delayMs: 1500 },
      { kind: 'json', text: 'fast' },
    ]);
    const { llm } = recordingWaits({ timeoutMs: 300 });
    const res = await llm.complete(request);
    expect(res).toMatchObject({ text: 'fast', attempts: 2 });
  });

  it('reports connection refused after exhausting retries (SCN-REFL-005-01 setup)', async () => {
    const port = await freePort();
    const waits: number[] = [];
    const llm = anthropicClient({
      apiKey: 'k',
      baseURL: `http://127.0.0.1:${port}`,
      retry: { random: () => 0, sleep: async (ms) => void waits.push(ms) },
    });
    const err = await rejectionOf(llm.complete(request));
    expect(err).toMatchObject({ code: 'llm_connection', attempts: 4 });
    expect(waits).toEqual([2000, 4000, 8000]);
  });

  it('aborts at once during a backoff wait (real timers)', async () => {
    // A 50 s hint (under the 60 s cap, so it is waited for) outlasts the test's timeout: a wait the
    // abort did not end fails the test, however busy the machine, without timing anything.
    mock.script([{ kind: 'status', status: 429, headers: { 'retry-after': '50' } }]);
    const llm = anthropicClient({ apiKey: 'k', baseURL: mock.url });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user navigated away')), 150);
    const err = await rejectionOf(llm.complete({ ...request, signal: controller.signal }));
    expect(err.code).toBe('llm_aborted');
    expect(mock.requests).toHaveLength(1);
  });

  it('aborts at once during a slow request', async () => {
    // The reply would come after the test's timeout: only the abort can settle the call in time.
    mock.script([{ kind: 'json', text: 'never seen', delayMs: 50_000 }]);
    const llm = anthropicClient({ apiKey: 'k', baseURL: mock.url });
    const err = await rejectionOf(llm.complete({ ...request, signal: AbortSignal.timeout(150) }));
    expect(err.code).toBe('llm_aborted');
  });

  it('rejects an already-aborted signal without a request', async () => {
    const llm = anthropicClient({ apiKey: 'k', baseURL: mock.url });
    const err = await rejectionOf(llm.complete({ ...request, signal: AbortSignal.abort() }));
    expect(err.code).toBe('llm_aborted');
    expect(mock.requests).toHaveLength(0);
  });

  it('talks to a proxy without a key: no Authorization header, custom headers kept', async () => {
    mock.script([{ kind: 'json', text: 'via proxy' }]);
    const llm = anthropicClient({ baseURL: mock.url, headers: { 'x-proxy-token': 'abc' } });
    expect((await llm.complete(request)).text).toBe('via proxy');
    expect(mock.requests[0]!.headers.authorization).toBeUndefined();
    expect(mock.requests[0]!.headers['x-api-key']).toBeUndefined();
    expect(mock.requests[0]!.headers['x-proxy-token']).toBe('abc');
  });

  it('uses an existing SDK instance without multiplying its retries', async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const sdk = new Anthropic({ apiKey: 'k', baseURL: mock.url, maxRetries: 5 });
    mock.script([{ kind: 'status', status: 500 }]);
    const llm = anthropicClient({ client: sdk, maxRetries: 1, retry: { sleep: async () => {} } });
    const err = await rejectionOf(llm.complete(request));
    expect(err.attempts).toBe(2);
    expect(mock.requests).toHaveLength(2);
  });
});

describe('redaction before anything leaves', () => {
  const secretRequest: LlmRequest = {
    system: 'Notes for jane.doe@example.com',
    messages: [
      {
        role: 'user',
        content: 'My key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 and mail jane.doe@example.com',
      },
      { role: 'assistant', content: 'I will write to jane.doe@example.com.' },
    ],
    maxTokens: 32,
  };

  it('redacts the system prompt and every message by default, with one placeholder per value', async () => {
    mock.script([{ kind: 'echo' }]);
    await anthropicClient({ apiKey: 'k', baseURL: mock.url }).complete(secretRequest);
    const sent = JSON.stringify(mock.requests[0]!.body);
    expect(sent).not.toContain('jane.doe@example.com');
    expect(sent).not.toContain('sk-ant-api03');
    const body = mock.requests[0]!.body as { system: string; messages: { content: string }[] };
    expect(body.system).toBe('Notes for [email-1]');
    expect(body.messages[0]!.content).toBe('My key is [anthropic-key-1] and mail [email-1]');
    expect(body.messages[1]!.content).toBe('I will write to [email-1].');
  });

  it('sends text as given with redact: false, and honours redact options', async () => {
    mock.script([{ kind: 'echo' }]);
    await anthropicClient({ apiKey: 'k', baseURL: mock.url, redact: false }).complete(secretRequest);
    expect(JSON.stringify(mock.requests[0]!.body)).toContain('jane.doe@example.com');
    mock.script([{ kind: 'echo' }]);
    await anthropicClient({ apiKey: 'k', baseURL: mock.url, redact: { kinds: { email: false } } }).complete(
      secretRequest,
    );
    const sent = JSON.stringify(mock.requests[0]!.body);
    expect(sent).toContain('jane.doe@example.com');
    expect(sent).not.toContain('sk-ant-api03');
  });

  it('redactingClient wraps any provider', async () => {
    const seen: LlmRequest[] = [];
    const inner = {
      async complete(req: LlmRequest) {
        seen.push(req);
        return { text: '', usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, model: 'x' };
      },
    };
    await redactingClient(inner).complete(secretRequest);
    expect(JSON.stringify(seen[0])).not.toContain('jane.doe@example.com');
  });
});

describe('retryAfterMs', () => {
  const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });
  it('reads milliseconds, seconds and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '2.5' }))).toBe(2500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('stops retrying when the server asks for a longer wait than allowed', async () => {
    mock.script([{ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }]);
    const { llm, waits } = recordingWaits();
    const err = await rejectionOf(llm.complete(request));
    expect(err).toMatchObject({ code: 'llm_rate_limited', attempts: 1, retryAfterMs: 3_600_000 });
    expect(waits).toEqual([]);
  });
});

describe('fixtures', () => {
  it('records through the real client and replays offline with identical keys', async () => {
    mock.script([{ kind: 'json', text: 'recorded answer', usage: { input_tokens: 7, output_tokens: 2 } }]);
    const recorder = recordingClient(anthropicClient({ apiKey: 'k', baseURL: mock.url }));
    const live = await recorder.complete(request);
    const jsonl = fixturesToJsonl(recorder.fixtures());
    expect(jsonl.trim().split('\n')).toHaveLength(1);

    const replay = fixtureClient(jsonl);
    const again = await replay.complete({ ...request, signal: new AbortController().signal, stream: true });
    expect(again.text).toBe(live.text);
    expect(again.usage).toEqual({ inputTokens: 7, outputTokens: 2 });
    expect(mock.requests).toHaveLength(1);
  });

  it('names the key of a missing fixture', async () => {
    const replay = fixtureClient([]);
    const key = await requestKey(request);
    const err = await rejectionOf(replay.complete(request));
    expect(err.code).toBe('llm_fixture_missing');
    expect(err.message).toContain(key);
  });

  it('keys change with anything that changes the answer, not with signals', async () => {
    const base = await requestKey(request);
    expect(await requestKey({ ...request, signal: AbortSignal.abort(), stream: true })).toBe(base);
    expect(await requestKey({ ...request, temperature: 1 })).not.toBe(base);
    expect(await requestKey({ ...request, system: 'other' })).not.toBe(base);
    expect(await requestKey(request, 'another-model')).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports the line of a malformed fixture file', () => {
    expect(() => parseFixturesJsonl('{"key":"a","text":"x"}\n\nnot json\n')).toThrow(/line 3/);
    expect(() => parseFixturesJsonl('{"key":"a"}\n')).toThrow(/line 1 needs string "key" and "text"/);
  });
});

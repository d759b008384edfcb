/**
 * openAiClient against a local OpenAI-compatible server (test/llm/mock-openai.ts): streaming and JSON
 * replies, retries with retry-after, timeouts, cancellation, redaction before sending, scrubbed errors.
 */
import { LlmError } from 'rearview/core';
import { type LlmRequest, openAiClient } from 'rearview/llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockOpenAi, startMockOpenAi } from '../llm/mock-openai';

let mock: MockOpenAi;
beforeAll(async () => {
  mock = await startMockOpenAi();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const request: LlmRequest = {
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Mail jane.doe@corp.io the report, key sk-ant-api03-abcdefghijklmnopqrstuvwx' },
  ],
  maxTokens: 64,
  temperature: 0,
};
const fast = { baseDelayMs: 1, maxDelayMs: 5, jitter: 0 };

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error('expected an LlmError');
}

describe('openAiClient', () => {
  it('streams a reply (SSE), sends the system prompt first and the usage is read from the last chunk', async () => {
    mock.script([{ kind: 'reply', text: 'One prime: 7.', usage: [42, 6], chunks: 4 }]);
    const llm = openAiClient({ baseURL: mock.url, model: 'qwen2.5:7b' });
    const res = await llm.complete(request);
    expect(res).toMatchObject({
      text: 'One prime: 7.',
      usage: { inputTokens: 42, outputTokens: 6 },
      model: 'qwen2.5:7b',
      stopReason: 'stop',
      attempts: 1,
    });
    const sent = mock.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toMatchObject({ model: 'qwen2.5:7b', stream: true, max_tokens: 64, temperature: 0 });
    expect(sent.body.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('redacts before sending: no address or key reaches the server', async () => {
    mock.script([{ kind: 'reply', text: 'ok' }]);
    await openAiClient({ baseURL: `${mock.url}/` }).complete(request);
    const sent = JSON.stringify(mock.requests[0]!.body);
    expect(sent).not.toContain('jane.doe@corp.io');
    expect(sent).not.toContain('sk-ant-api03');
    expect(sent).toContain('[email-1]');
    // redact: false sends the text as given (the caller redacted already).
    await openAiClient({ baseURL: mock.url, redact: false }).complete(request);
    expect(JSON.stringify(mock.requests[1]!.body)).toContain('jane.doe@corp.io');
  });

  it('reads a JSON reply when streaming is off', async () => {
    mock.script([{ kind: 'reply', text: '{"a":1}', usage: [3, 2] }]);
    const res = await openAiClient({ baseURL: mock.url, stream: false }).complete(request);
    expect(res.text).toBe('{"a":1}');
    expect(res.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
    expect(mock.requests[0]!.body.stream).toBeUndefined();
  });

  it('retries 429 (honouring retry-after), 503, a dropped connection, a malformed body and a cut stream', async () => {
    mock.script([
      { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
      { kind: 'status', status: 503 },
      { kind: 'drop' },
      { kind: 'cut' },
      { kind: 'reply', text: 'finally' },
    ]);
    const waits: number[] = [];
    const llm = openAiClient({
      baseURL: mock.url,
      maxRetries: 4,
      retry: { ...fast, onRetry: (i) => waits.push(i.delayMs) },
    });
    const res = await llm.complete(request);
    expect(res.text).toBe('finally');
    expect(res.attempts).toBe(5);
    expect(waits[0]).toBe(0); // retry-after: 0
    mock.script([{ kind: 'malformed' }, { kind: 'reply', text: 'json ok' }]);
    const json = await openAiClient({ baseURL: mock.url, stream: false, retry: fast }).complete(request);
    expect(json).toMatchObject({ text: 'json ok', attempts: 2 });
  });

  it('never retries a 4xx other than 408/409/429, and names the failure', async () => {
    mock.script([{ kind: 'status', status: 404, body: { error: { message: 'model "nope" not found' } } }]);
    const err = await failure(openAiClient({ baseURL: mock.url, retry: fast }).complete(request));
    expect(err.code).toBe('llm_not_found');
    expect(err.status).toBe(404);
    expect(err.message).toContain('model "nope" not found');
    expect(mock.requests).toHaveLength(1);
  });

  it('times out per attempt (the streamed body included) and retries', async () => {
    mock.script([{ kind: 'reply', text: 'slow', delayMs: 400 }]);
    const err = await failure(
      openAiClient({ baseURL: mock.url, timeoutMs: 50, maxRetries: 1, retry: fast }).complete(request),
    );
    expect(err.code).toBe('llm_timeout');
    expect(err.attempts).toBe(2);
  });

  it('the timeout covers a streamed body that stalls after its headers', async () => {
    // The body's chunks come 20 s apart: a timeout that stopped at the headers would let the call
    // run past the test's timeout; a timeout covering the body ends it.
    mock.script([{ kind: 'reply', text: 'slow body', chunks: 3, chunkDelayMs: 20_000 }]);
    const err = await failure(
      openAiClient({ baseURL: mock.url, timeoutMs: 100, maxRetries: 0 }).complete(request),
    );
    expect(err.code).toBe('llm_timeout');
  });

  it('a non-streamed request times out too (llm_timeout)', async () => {
    mock.script([{ kind: 'reply', text: 'slow', delayMs: 400 }]);
    const err = await failure(
      openAiClient({ baseURL: mock.url, stream: false, timeoutMs: 50, maxRetries: 0 }).complete(request),
    );
    expect(err.code).toBe('llm_timeout');
  });

  it('a caller abort cancels at once', async () => {
    // The reply would come after the test's timeout: only the abort can settle the call in time.
    mock.script([{ kind: 'reply', text: 'slow', delayMs: 50_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const err = await failure(
      openAiClient({ baseURL: mock.url }).complete({ ...request, signal: controller.signal }),
    );
    expect(err.code).toBe('llm_aborted');
  });

  it('an unreachable server is a connection error; a key is sent as a bearer and never echoed', async () => {
    const err = await failure(
      openAiClient({ baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 }).complete(request),
    );
    expect(err.code).toBe('llm_connection');
    const apiKey = 'local-secret-0123456789';
    mock.script([{ kind: 'status', status: 401, body: { error: { message: `bad key ${apiKey}` } } }]);
    const auth = await failure(openAiClient({ baseURL: mock.url, apiKey }).complete(request));
    expect(auth.code).toBe('llm_auth');
    expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(auth.message).not.toContain(apiKey);
    expect(auth.cause).toBeUndefined();
  });
});

/**
 * The LLM layer in real Chromium: the official SDK (with dangerouslyAllowBrowser) against the local
 * Messages API server across origins (CORS), JSON and streaming replies, retry-after, abort, and a
 * proxy URL with no key in the page.
 */

import { anthropicClient, type LlmRequest } from 'rearview/llm';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import type { MockStep } from '../llm/mock-anthropic';

const url = inject('mockAnthropicUrl');
const request: LlmRequest = {
  messages: [{ role: 'user', content: 'hello from the browser' }],
  maxTokens: 32,
};

async function script(steps: MockStep[]) {
  await fetch(`${url}/__script`, { method: 'POST', body: JSON.stringify(steps) });
}
async function received(): Promise<{ headers: Record<string, string> }[]> {
  return (await fetch(`${url}/__requests`)).json();
}

describe('anthropicClient in Chromium', () => {
  beforeEach(() => fetch(`${url}/__reset`, { method: 'POST' }).then(() => undefined));

  it('runs in a real browser page', () => {
    expect(typeof window).toBe('object');
    expect(navigator.userAgent).toMatch(/Chrome/);
  });

  it('completes a JSON request through the SDK', async () => {
    await script([{ kind: 'json', text: 'hi browser' }]);
    const llm = anthropicClient({ apiKey: 'sk-ant-browser', baseURL: url, dangerouslyAllowBrowser: true });
    const res = await llm.complete(request);
    expect(res).toMatchObject({ text: 'hi browser', attempts: 1 });
    const [req] = await received();
    expect(req!.headers.authorization).toBe('Bearer sk-ant-browser');
  });

  it('streams server-sent events', async () => {
    await script([{ kind: 'sse', text: 'a streamed browser reply', chunks: 6 }]);
    const llm = anthropicClient({ apiKey: 'k', baseURL: url, dangerouslyAllowBrowser: true });
    expect((await llm.complete({ ...request, stream: true })).text).toBe('a streamed browser reply');
  });

  it('retries a 429 after its retry-after-ms and a 529', async () => {
    await script([
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '50' } },
      { kind: 'status', status: 529 },
      { kind: 'json', text: 'third time' },
    ]);
    const llm = anthropicClient({
      apiKey: 'k',
      baseURL: url,
      dangerouslyAllowBrowser: true,
      retry: { baseDelayMs: 20 },
    });
    const res = await llm.complete(request);
    expect(res).toMatchObject({ text: 'third time', attempts: 3 });
    expect(await received()).toHaveLength(3);
  });

  it('aborts during a backoff wait', async () => {
    // A 50 s hint (under the 60 s cap, so it is waited for) outlasts the test's timeout: a wait the
    // abort did not end fails the test, however busy the machine, without timing anything.
    await script([{ kind: 'status', status: 429, headers: { 'retry-after': '50' } }]);
    const llm = anthropicClient({ apiKey: 'k', baseURL: url, dangerouslyAllowBrowser: true });
    await expect(llm.complete({ ...request, signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
      code: 'llm_aborted',
    });
  });

  it('keeps a key the server echoes out of the error message', async () => {
    const key = 'sk-ant-browser-echoed-7Hq2Zr9Lw4';
    await script([
      {
        kind: 'status',
        status: 401,
        body: {
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key: ${key}` },
        },
      },
    ]);
    const llm = anthropicClient({ apiKey: key, baseURL: url, dangerouslyAllowBrowser: true });
    const err = (await llm.complete(request).catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.code).toBe('llm_auth');
    expect(err.message).toContain('Messages API answered 401');
    expect(err.message).not.toContain(key);
  });

  it('calls a proxy with no key in the page', async () => {
    await script([{ kind: 'json', text: 'proxied' }]);
    const llm = anthropicClient({ baseURL: url });
    expect((await llm.complete(request)).text).toBe('proxied');
    const [req] = await received();
    expect(req!.headers.authorization).toBeUndefined();
  });
});

import { type KeyValueStore, memoryStore } from 'rearview/kv';
import { anthropicClient, type LlmClient } from 'rearview/llm';
import { createRearview, reflectSession } from 'rearview/session';
import { playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { rejectionOf, scriptedLlm } from '../llm/scripted';
import { useMockAnthropic } from '../llm/use-mock';

const quiet = { broadcast: false as const, onWarning: () => {} };
const ANTHROPIC_KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-QrStUvWx';
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}F6g7H8`;
/** A key of no known shape: only the exact-string scrub can catch it. */
const PROXY_KEY = 'proxy-credential-7Hq2Zr9Lw4';

const chat = () => [
  { role: 'user', content: 'How do I install the dependencies?' },
  { role: 'assistant', content: 'Run npm install.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
];

/** Everything the key-value store holds (playbooks, versions, the change log), as one string. */
async function dump(kv: KeyValueStore): Promise<string> {
  const keys = await kv.keys();
  return JSON.stringify(await Promise.all(keys.map(async (k) => [k, await kv.get(k)])));
}

describe('redaction of what is stored and injected', () => {
  it('a Curator ADD or UPDATE holding keys reaches neither the store nor systemPrompt', async () => {
    const kv = memoryStore();
    const store = playbookStore(kv, quiet);
    await createRearview({ store }).endSession({ messages: chat() });
    const llm = scriptedLlm([
      JSON.stringify({ analysis: `Deploys use ${ANTHROPIC_KEY}.`, bullet_tags: [] }),
      JSON.stringify({
        operations: [
          {
            type: 'ADD',
            section: 'PROJECT CONTEXT',
            text: `Deploy with ${ANTHROPIC_KEY} and ${GITHUB_TOKEN}.`,
          },
          { type: 'UPDATE', name: 'mis-001', text: `Use pnpm; the registry token is ${GITHUB_TOKEN}.` },
        ],
      }),
    ]);
    const rv = createRearview({ store, llm });
    const s = await rv.endSession({ messages: [{ role: 'user', content: 'deploy it' }] });
    expect(s.errors).toEqual([]);
    expect(s.added.map((a) => a.text)).toEqual(['Deploy with [anthropic-key-1] and [github-token-1].']);
    expect(s.analysis).toBe('Deploys use [anthropic-key-1].');
    const everything = await dump(kv);
    expect(everything).toContain('[github-token-1]');
    for (const secret of [ANTHROPIC_KEY, GITHUB_TOKEN]) {
      expect(everything).not.toContain(secret);
      expect(await rv.systemPrompt({ query: 'deploy pnpm registry' })).not.toContain(secret);
      expect(JSON.stringify(s)).not.toContain(secret);
    }
    expect(await rv.systemPrompt({ query: 'deploy' })).toContain('Deploy with [anthropic-key-1]');
    // The Curator's prompt carried the Reflector's analysis redacted as well.
    expect(llm.requests[1]!.messages[0]!.content).not.toContain(ANTHROPIC_KEY);
  });

  it('redaction is the session option: redact: false stores the Curator text as given', async () => {
    const kv = memoryStore();
    const llm = scriptedLlm([
      JSON.stringify({ analysis: 'Something to keep.', bullet_tags: [] }),
      JSON.stringify({ operations: [{ type: 'ADD', section: 'OTHERS', text: `Token ${GITHUB_TOKEN}.` }] }),
    ]);
    const rv = createRearview({ store: kv, storeOptions: quiet, llm, redact: false });
    await rv.endSession({ messages: chat() });
    expect(await dump(kv)).toContain(GITHUB_TOKEN);
  });

  it('reflectSession redacts the text of a merge of near-duplicates stored before redaction', async () => {
    const store = playbookStore(memoryStore(), quiet);
    await store.applyDelta('default', [
      {
        type: 'ADD',
        section: 'PROJECT CONTEXT',
        text: `CI pushes release tags with ${GITHUB_TOKEN} as the token.`,
      },
      {
        type: 'ADD',
        section: 'PROJECT CONTEXT',
        text: `CI pushes release tags with ${GITHUB_TOKEN} as its token.`,
      },
    ]);
    const llm = scriptedLlm([
      JSON.stringify({ analysis: 'Nothing new.', bullet_tags: [] }),
      JSON.stringify({ operations: [] }),
    ]);
    const out = await reflectSession(chat(), store, { llm });
    expect(out.merged).toHaveLength(1);
    expect(out.applied.map((op) => op.type)).toEqual(['MERGE']);
    const texts = out.playbook.sections['PROJECT CONTEXT'].map((k) => k.text);
    expect(texts).toEqual(['CI pushes release tags with [github-token-1] as the token.']);
    expect(JSON.stringify(await store.load('default'))).not.toContain(GITHUB_TOKEN);
  });

  it('key points stored before redaction (or by another writer) are redacted in systemPrompt and select', async () => {
    const store = playbookStore(memoryStore(), quiet);
    await store.applyDelta('default', [
      { type: 'ADD', section: 'PROJECT CONTEXT', text: `CI pushes with ${GITHUB_TOKEN} as the token.` },
    ]);
    const rv = createRearview({ store });
    const prompt = await rv.systemPrompt({ query: 'CI token' });
    expect(prompt).toContain('CI pushes with [github-token-1] as the token.');
    expect(prompt).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(await rv.select({ query: 'CI' }))).not.toContain(GITHUB_TOKEN);
    const raw = createRearview({ store, redact: false });
    expect(await raw.systemPrompt({ query: 'CI token' })).toContain(GITHUB_TOKEN);
  });
});

describe('a key echoed by the server', () => {
  const mock = useMockAnthropic();
  const echo = (status: number, key: string) => ({
    kind: 'status' as const,
    status,
    body: {
      type: 'error',
      error: {
        type: status === 401 ? 'authentication_error' : 'invalid_request_error',
        message: `invalid x-api-key: ${key}`,
      },
      request: { headers: { 'x-api-key': key } },
    },
  });
  const client = (apiKey: string) =>
    anthropicClient({ apiKey, baseURL: mock.url, retry: { random: () => 0, sleep: async () => {} } });

  it.each([
    [401, ANTHROPIC_KEY, 'llm_auth'],
    [400, ANTHROPIC_KEY, 'llm_bad_request'],
    [401, PROXY_KEY, 'llm_auth'],
    [400, PROXY_KEY, 'llm_bad_request'],
  ])('is not in LlmError.message (%i, %s)', async (status, key, code) => {
    mock.script([echo(status, key)]);
    const err = await rejectionOf(
      client(key).complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 8 }),
    );
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.message).toContain(`Messages API answered ${status}`);
    expect(err.message).not.toContain(key);
    expect(String(err.stack)).not.toContain(key);
    expect(err.cause).toBeUndefined(); // the SDK error holds the raw body
    expect(mock.requests).toHaveLength(1); // 4xx: no retry
  });

  it('is scrubbed from messages of retried errors too (what retry.onRetry sees)', async () => {
    mock.script([
      { ...echo(500, PROXY_KEY), status: 500 },
      { kind: 'json', text: 'ok' },
    ]);
    const seen: string[] = [];
    const llm = anthropicClient({
      apiKey: PROXY_KEY,
      baseURL: mock.url,
      retry: { sleep: async () => {}, onRetry: (r) => seen.push(r.error.message) },
    });
    expect((await llm.complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 8 })).text).toBe(
      'ok',
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(PROXY_KEY);
  });

  it.each([
    [401, ANTHROPIC_KEY],
    [400, PROXY_KEY],
  ])('is not in endSession().errors (%i, %s)', async (status, key) => {
    mock.script([echo(status, key)]);
    const reported: string[] = [];
    const rv = createRearview({
      store: memoryStore(),
      storeOptions: quiet,
      llm: client(key),
      onError: (e) => reported.push(e.message),
    });
    const s = await rv.endSession({ messages: chat() });
    expect(s.errors.length).toBeGreaterThan(0);
    expect(s.errors[0]).toMatchObject({
      stage: 'reflector',
      code: status === 401 ? 'llm_auth' : 'llm_bad_request',
    });
    expect(JSON.stringify(s)).not.toContain(key);
    expect(reported.join('\n')).not.toContain(key);
  });

  it('custom clients: a thrown message holding a key is scrubbed in endSession().errors', async () => {
    const llm: LlmClient = {
      complete: () => Promise.reject(new Error(`upstream refused key ${ANTHROPIC_KEY}`)),
    };
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet, llm });
    const s = await rv.endSession({ messages: chat() });
    expect(s.errors[0]!.message).toContain('[anthropic-key-1]');
    expect(JSON.stringify(s.errors)).not.toContain(ANTHROPIC_KEY);
  });
});

/**
 * examples/vercel-edge: the handler bundled from dist/ as an IIFE and called with Requests inside the
 * Vercel edge runtime's VM (@edge-runtime/vm), configured from its process.env, reflecting through the
 * local Messages API server with fetch. Every request needs a valid token (or the deployer's own
 * authenticate hook), and a caller reaches only its own playbook.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { root } from './runtimes';

const KEY = 'sk-ant-api03-vercel-example-secret-0123456789';
const SECRET = 'vercel-example-auth-secret-0123456789';
type Handler = {
  call: (r: {
    method?: string;
    url: string;
    body?: string;
    headers?: Record<string, string>;
  }) => Promise<{ status: number; body: string }>;
  evaluate: (code: string) => Promise<unknown>;
  file: string;
};
type IssueToken = (secret: string, principal: string) => string;
let mock: MockAnthropic;
let handler: Handler;
let issueToken: IssueToken;
/** Headers of a request made as `principal`. */
const as = (principal: string, secret = SECRET) => ({
  authorization: `Bearer ${issueToken(secret, principal)}`,
});

beforeAll(async () => {
  if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  mock = await startMockAnthropic();
  ({ issueToken } = (await import(join(root, 'examples/shared/token.mjs'))) as { issueToken: IssueToken });
  const { loadEdgeHandler } = await import(join(root, 'examples/vercel-edge/run.mjs'));
  handler = await loadEdgeHandler({
    env: { REARVIEW_AUTH_SECRET: SECRET, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url },
  });
});

afterAll(async () => {
  await mock?.close();
});

const chat = JSON.stringify([
  { role: 'user', content: 'Deploy it. Ping me at ops@example.com' },
  { role: 'assistant', content: 'Deploying with npm run deploy.' },
  { role: 'user', content: 'No, use the deploy script instead of npm run deploy.' },
]);

describe('examples/vercel-edge in @edge-runtime/vm', () => {
  it('is a Request → Response function that reflects with the key from its environment', async () => {
    mock.script([
      { kind: 'json', text: JSON.stringify({ analysis: 'Deploys go through the script.', bullet_tags: [] }) },
      { kind: 'json', text: JSON.stringify({ reasoning: 'none', operations: [] }) },
    ]);
    const res = await handler.call({
      method: 'POST',
      url: 'https://app.example/api/reflect',
      headers: as('ops'),
      body: chat,
    });
    expect(res.status, res.body).toBe(200);
    expect(res.body).not.toContain(KEY);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ llm: true, errors: [], analysis: 'Deploys go through the script.' });
    expect(body.insights[0].category).toBe('correction');
    expect(body.added[0]).toMatchObject({
      name: 'mis-001',
      text: 'Use the deploy script instead of npm run deploy.',
    });
    expect(mock.requests).toHaveLength(2);
    for (const r of mock.requests) {
      expect(`${r.headers['x-api-key'] ?? ''} ${r.headers.authorization ?? ''}`).toContain(KEY);
      expect(JSON.stringify(r.body)).not.toContain('ops@example.com');
    }

    const next = await handler.call({
      url: 'https://app.example/api/reflect?q=deploy&budget=300',
      headers: as('ops'),
    });
    const { prompt } = JSON.parse(next.body) as { prompt: string };
    expect(prompt).toContain('- [mis-001] Use the deploy script instead of npm run deploy.');
    expect(prompt).toContain('cite its ID');
  });

  it('rejects bad input with a located 400 and other methods with 405', async () => {
    const bad = await handler.call({
      method: 'POST',
      url: 'https://app.example/',
      headers: as('ops'),
      body: '{"role":"user","content":"a"}\n{x\n',
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/\(line 2, column \d+\)$/);
    const put = { method: 'PUT', url: 'https://app.example/', headers: as('ops'), body: 'x' };
    expect((await handler.call(put)).status).toBe(405);
  });

  it('refuses requests without a valid token (401) and keeps each caller to its own playbook', async () => {
    const before = mock.requests.length;
    const aliceToken = issueToken(SECRET, 'alice');
    for (const headers of [
      {},
      as('alice', 'some-other-secret-0123456789'),
      { authorization: `Bearer mallory.${aliceToken.split('.')[1]}` },
      { authorization: aliceToken },
    ]) {
      for (const method of ['POST', 'GET']) {
        const res = await handler.call({
          method,
          url: 'https://app.example/api/reflect',
          headers,
          ...(method === 'POST' ? { body: chat } : {}),
        });
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body).not.toContain(SECRET);
      }
    }
    expect(mock.requests.length).toBe(before);

    mock.script([{ kind: 'status', status: 401 }]);
    const reflect = (principal: string, query = '') =>
      handler.call({
        method: 'POST',
        url: `https://app.example/api/reflect${query}`,
        headers: as(principal),
        body: chat,
      });
    expect((await reflect('alice', '?playbook=user-bob')).status).toBe(400);
    expect((await reflect('alice')).status).toBe(200);
    const read = async (principal: string) =>
      JSON.parse(
        (await handler.call({ url: 'https://app.example/api/reflect?q=deploy', headers: as(principal) }))
          .body,
      ) as {
        prompt: string;
        playbook: { sections: Record<string, { text: string }[]> };
      };
    const alice = await read('alice');
    expect(alice.prompt).toContain('Use the deploy script instead of npm run deploy.');
    const bob = await read('bob');
    expect(Object.values(bob.playbook.sections).flat()).toEqual([]);
    expect(bob.prompt).not.toContain('deploy script');
  });

  it("run.mjs serves it over HTTP with the request's headers: the README's curl gets a 200", async () => {
    const { startEdgeServer } = await import(join(root, 'examples/vercel-edge/run.mjs'));
    const server = await startEdgeServer({
      port: 0,
      env: { REARVIEW_AUTH_SECRET: SECRET, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url },
      file: handler.file,
    });
    try {
      mock.script([
        {
          kind: 'json',
          text: JSON.stringify({ analysis: 'Deploys go through the script.', bullet_tags: [] }),
        },
        { kind: 'json', text: JSON.stringify({ reasoning: 'none', operations: [] }) },
      ]);
      const url = `${server.url}/api/reflect`;
      const res = await fetch(url, { method: 'POST', headers: as('carol'), body: chat });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.added.map((a: { text: string }) => a.text)).toEqual([
        'Use the deploy script instead of npm run deploy.',
      ]);
      const denied = await fetch(url, { method: 'POST', body: chat });
      expect(denied.status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('the default handler refuses everyone (503) until REARVIEW_AUTH_SECRET is set', async () => {
    const { loadEdgeHandler } = await import(join(root, 'examples/vercel-edge/run.mjs'));
    // The same bundle, in a fresh VM whose environment has no secret.
    const open = (await loadEdgeHandler({ env: { ANTHROPIC_API_KEY: KEY }, file: handler.file })) as Handler;
    const res = await open.call({ method: 'POST', url: 'https://app.example/', body: chat });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body).error).toContain('REARVIEW_AUTH_SECRET');
  });

  it("createHandler needs an authenticate hook; the deployer's own hook decides the principal", async () => {
    const out = (await handler.evaluate(`(async () => {
      let refused = '';
      try { VercelEdgeExample.createHandler({}); } catch (err) { refused = err.message; }
      // A verify function the deployer supplies (here: a header its own gateway sets).
      const h = VercelEdgeExample.createHandler({
        authenticate: (request) =>
          request.headers.get('x-gateway-user') === 'svc' ? { id: 'svc', playbookId: 'svc-playbook' } : null,
      });
      const post = (headers) => h(new Request('https://x/', { method: 'POST', headers, body: ${JSON.stringify(chat)} }));
      const denied = await post({});
      const res = await post({ 'x-gateway-user': 'svc' });
      return JSON.stringify({ refused, denied: denied.status, status: res.status, body: await res.json() });
    })()`)) as string;
    const r = JSON.parse(out);
    expect(r.refused).toMatch(/needs authenticate or authSecret/);
    expect(r.denied).toBe(401);
    expect(r.status).toBe(200);
    expect(r.body.llm).toBe(false);
    expect(r.body.added.map((a: { name: string }) => a.name)).toEqual(['mis-001']);
  });
});

/**
 * examples/vercel-edge: the handler bundled from dist/ as an IIFE and called with Requests inside the
 * Vercel edge runtime's VM (@edge-runtime/vm), configured from its process.env, reflecting through the
 * local Messages API server with fetch.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { root } from './runtimes';

const KEY = 'sk-ant-api03-vercel-example-secret-0123456789';
type Handler = {
  call: (r: { method?: string; url: string; body?: string }) => Promise<{ status: number; body: string }>;
  evaluate: (code: string) => Promise<unknown>;
};
let mock: MockAnthropic;
let handler: Handler;

beforeAll(async () => {
  if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  mock = await startMockAnthropic();
  const { loadEdgeHandler } = await import(join(root, 'examples/vercel-edge/run.mjs'));
  handler = await loadEdgeHandler({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url } });
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
    const res = await handler.call({ method: 'POST', url: 'https://app.example/api/reflect', body: chat });
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

    const next = await handler.call({ url: 'https://app.example/api/reflect?q=deploy&budget=300' });
    const { prompt } = JSON.parse(next.body) as { prompt: string };
    expect(prompt).toContain('- [mis-001] Use the deploy script instead of npm run deploy.');
    expect(prompt).toContain('cite its ID');
  });

  it('rejects bad input with a located 400 and other methods with 405', async () => {
    const bad = await handler.call({
      method: 'POST',
      url: 'https://app.example/',
      body: '{"role":"user","content":"a"}\n{x\n',
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/\(line 2\)$/);
    expect((await handler.call({ method: 'PUT', url: 'https://app.example/', body: 'x' })).status).toBe(405);
  });

  it('createHandler works without a model, on any KeyValueStore', async () => {
    const out = await handler.evaluate(`(async () => {
      const h = VercelEdgeExample.createHandler();
      const res = await h(new Request('https://x/', { method: 'POST', body: ${JSON.stringify(chat)} }));
      return res.text();
    })()`);
    const body = JSON.parse(out as string);
    expect(body.llm).toBe(false);
    expect(body.added.map((a: { name: string }) => a.name)).toEqual(['mis-001']);
  });
});

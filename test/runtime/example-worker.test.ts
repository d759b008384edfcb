/**
 * examples/edge-worker in workerd, started exactly as its README says (examples/edge-worker/run.mjs):
 * bundled from dist/, a real Workers KV binding (in-memory KV backend), the API key bound from the
 * environment, outbound calls to the local Messages API server. The key reaches only that server; the
 * response carries insights and no key; the playbook is in KV and injected into the next prompt.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { root } from './runtimes';

const KEY = 'sk-ant-api03-example-worker-secret-key-0123456789';

let mock: MockAnthropic;
let worker: { url: string; kvUrl: string; stop: () => Promise<void> };
let heuristicOnly: { url: string; kvUrl: string; stop: () => Promise<void> };

beforeAll(async () => {
  if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  mock = await startMockAnthropic();
  const { startEdgeWorker } = await import(join(root, 'examples/edge-worker/run.mjs'));
  worker = await startEdgeWorker({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url } });
  heuristicOnly = await startEdgeWorker({
    env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined },
  });
});

afterAll(async () => {
  await worker?.stop();
  await heuristicOnly?.stop();
  await mock?.close();
});

const TRANSCRIPT = [
  { role: 'user', content: 'Set up the project for me. My email is jane.doe@example.com' },
  { role: 'assistant', content: 'Running npm install now.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
  { role: 'assistant', content: 'Done with pnpm install.' },
]
  .map((m) => JSON.stringify(m))
  .join('\n');

const REFLECTION = JSON.stringify({ analysis: 'The user prefers pnpm over npm.', bullet_tags: [] });
const CURATION = JSON.stringify({
  reasoning: 'New project fact.',
  operations: [{ type: 'ADD', section: 'PROJECT CONTEXT', text: 'The project uses pnpm workspaces.' }],
});

describe('examples/edge-worker in workerd', () => {
  it('reflects with the key held in the Worker and stores the playbook in KV', async () => {
    mock.script([
      { kind: 'json', text: REFLECTION },
      { kind: 'json', text: CURATION },
    ]);
    const res = await fetch(`${worker.url}/reflect?playbook=team`, { method: 'POST', body: TRANSCRIPT });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain(KEY);
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      format: 'jsonl',
      messages: 4,
      llm: true,
      errors: [],
      analysis: 'The user prefers pnpm over npm.',
    });
    expect(body.insights[0]).toMatchObject({
      category: 'correction',
      recommendation: 'use pnpm instead of npm',
    });
    expect(body.added).toEqual([
      { name: 'mis-001', section: 'MISTAKES TO AVOID', text: 'Use pnpm instead of npm.', by: 'heuristic' },
      {
        name: 'ctx-001',
        section: 'PROJECT CONTEXT',
        text: 'The project uses pnpm workspaces.',
        by: 'curator',
      },
    ]);

    // The key went to the Messages API server only, and no personal data did.
    expect(mock.requests).toHaveLength(2);
    for (const r of mock.requests) {
      expect(`${r.headers['x-api-key'] ?? ''} ${r.headers.authorization ?? ''}`).toContain(KEY);
      expect(JSON.stringify(r.body)).not.toContain('jane.doe@example.com');
    }
    expect(JSON.stringify(mock.requests[0]!.body)).toContain('[email-1]');

    // The playbook is in Workers KV.
    const keys = (await (await fetch(`${worker.kvUrl}/?prefix=pb:`)).json()) as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).toContain('pb:team:doc');
    const doc = await (
      await fetch(`${worker.kvUrl}/${encodeURIComponent('pb:team:doc')}?urlencoded=true`)
    ).text();
    expect(doc).toContain('Use pnpm instead of npm.');
    expect(doc).not.toContain(KEY);

    // …and injected into the next system prompt, with the citation directive.
    const pb = (await (await fetch(`${worker.url}/playbook?playbook=team&q=install`)).json()) as {
      prompt: string;
    };
    expect(pb.prompt).toContain('- [mis-001] Use pnpm instead of npm.');
    expect(pb.prompt).toContain('cite its ID');
  });

  it('a second session deduplicates; model failures degrade and never leak the key', async () => {
    mock.script([{ kind: 'status', status: 401 }]);
    const res = await fetch(`${worker.url}/reflect?playbook=team`, {
      method: 'POST',
      body: JSON.stringify([{ role: 'user', content: `No, use pnpm instead of npm! (key ${KEY})` }]),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(KEY);
    const body = JSON.parse(text);
    expect(body.duplicates.map((d: { of: string }) => d.of)).toEqual(['mis-001']);
    expect(body.errors.some((e: { code?: string }) => e.code === 'llm_auth')).toBe(true);
    // The transcript's copy of the key was redacted before the model saw it.
    for (const r of mock.requests) expect(JSON.stringify(r.body)).not.toContain(KEY);
  });

  it('answers bad input with a located 400, wrong methods with 405', async () => {
    const bad = await fetch(`${worker.url}/reflect`, {
      method: 'POST',
      body: '{"role":"user","content":"a"}\n{oops\n',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/\(line 2\)$/);
    expect((await fetch(`${worker.url}/reflect`)).status).toBe(405);
    expect(
      (await fetch(`${worker.url}/reflect?playbook=${encodeURIComponent('../x')}`, { method: 'POST' }))
        .status,
    ).toBe(400);
    expect((await fetch(`${worker.url}/elsewhere`)).status).toBe(404);
  });

  it('without a key only the heuristics run', async () => {
    const res = await fetch(`${heuristicOnly.url}/reflect`, { method: 'POST', body: TRANSCRIPT });
    const body = (await res.json()) as { llm: boolean; added: { name: string }[] };
    expect(body.llm).toBe(false);
    expect(body.added.map((a) => a.name)).toEqual(['mis-001']);
  });
});

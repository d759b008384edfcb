/**
 * examples/edge-worker in workerd, started exactly as its README says (examples/edge-worker/run.mjs):
 * bundled from dist/, a real Workers KV binding (in-memory KV backend), the API key and the auth
 * secret bound from the environment, outbound calls to the local Messages API server. The key reaches
 * only that server; the response carries insights and no key; the playbook is in KV and injected into
 * the next prompt. Requests without a valid token are refused, and a caller reaches only its own
 * playbook. 200 concurrent tag increments all land (one G-counter slot per isolate, not per colo).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { root } from './runtimes';

type IssueToken = (secret: string, principal: string) => string;
let issueToken: IssueToken;
/** Headers of a request made as `principal`. */
const as = (principal: string, secret = SECRET) => ({
  authorization: `Bearer ${issueToken(secret, principal)}`,
});

const KEY = 'sk-ant-api03-example-worker-secret-key-0123456789';
const SECRET = 'example-worker-auth-secret-0123456789';

let mock: MockAnthropic;
let worker: { url: string; kvUrl: string; stop: () => Promise<void> };
let heuristicOnly: { url: string; kvUrl: string; stop: () => Promise<void> };

beforeAll(async () => {
  if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  mock = await startMockAnthropic();
  ({ issueToken } = (await import(join(root, 'examples/shared/token.mjs'))) as { issueToken: IssueToken });
  const { startEdgeWorker } = await import(join(root, 'examples/edge-worker/run.mjs'));
  worker = await startEdgeWorker({
    env: { REARVIEW_AUTH_SECRET: SECRET, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url },
  });
  heuristicOnly = await startEdgeWorker({
    env: { REARVIEW_AUTH_SECRET: SECRET, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined },
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
    const res = await fetch(`${worker.url}/reflect`, {
      method: 'POST',
      headers: as('team'),
      body: TRANSCRIPT,
    });
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
    expect(keys.keys.map((k) => k.name)).toContain('pb:user-team:doc');
    const doc = await (
      await fetch(`${worker.kvUrl}/${encodeURIComponent('pb:user-team:doc')}?urlencoded=true`)
    ).text();
    expect(doc).toContain('Use pnpm instead of npm.');
    expect(doc).not.toContain(KEY);

    // …and injected into the next system prompt, with the citation directive.
    const pb = (await (await fetch(`${worker.url}/playbook?q=install`, { headers: as('team') })).json()) as {
      prompt: string;
    };
    expect(pb.prompt).toContain('- [mis-001] Use pnpm instead of npm.');
    expect(pb.prompt).toContain('cite its ID');
  });

  it('a second session deduplicates; model failures degrade and never leak the key', async () => {
    mock.script([{ kind: 'status', status: 401 }]);
    const res = await fetch(`${worker.url}/reflect`, {
      method: 'POST',
      headers: as('team'),
      body: JSON.stringify([
        { role: 'user', content: 'Install the dependencies.' },
        { role: 'assistant', content: 'Running npm install.' },
        { role: 'user', content: `No, use pnpm instead of npm! (key ${KEY})` },
      ]),
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
      headers: as('team'),
      body: '{"role":"user","content":"a"}\n{oops\n',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/\(line 2, column \d+\)$/);
    expect((await fetch(`${worker.url}/reflect`, { headers: as('team') })).status).toBe(405);
    expect((await fetch(`${worker.url}/elsewhere`)).status).toBe(404);
  });

  it('without a key only the heuristics run', async () => {
    const res = await fetch(`${heuristicOnly.url}/reflect`, {
      method: 'POST',
      headers: as('solo'),
      body: TRANSCRIPT,
    });
    const body = (await res.json()) as { llm: boolean; added: { name: string }[] };
    expect(body.llm).toBe(false);
    expect(body.added.map((a) => a.name)).toEqual(['mis-001']);
  });

  it('refuses requests without a valid token (401) and never lets a caller pick the playbook', async () => {
    const reflect = (headers: Record<string, string>, query = '') =>
      fetch(`${worker.url}/reflect${query}`, { method: 'POST', headers, body: TRANSCRIPT });
    const before = mock.requests.length;
    // No token, a token signed with another secret, a forged principal, a malformed header.
    const aliceToken = issueToken(SECRET, 'alice');
    for (const headers of [
      {},
      as('alice', 'some-other-secret-0123456789'),
      { authorization: `Bearer mallory.${aliceToken.split('.')[1]}` },
      { authorization: `Basic ${btoa('alice:x')}` },
      { authorization: `Bearer ${aliceToken}x` },
    ]) {
      const res = await reflect(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(await res.text()).not.toContain(SECRET);
    }
    expect((await fetch(`${worker.url}/playbook?q=x`)).status).toBe(401);
    // Nothing was analysed, sent to the model or stored for them.
    expect(mock.requests.length).toBe(before);
    const stored = (await (await fetch(`${worker.kvUrl}/?prefix=pb:`)).json()) as {
      keys: { name: string }[];
    };
    expect(stored.keys.some((k) => /^pb:(user-)?(alice|mallory|default)[:]/.test(k.name))).toBe(false);

    // alice cannot write bob's playbook: the playbook comes from her token, never from the request.
    mock.script([{ kind: 'status', status: 401 }]);
    expect((await reflect(as('alice'), '?playbook=user-bob')).status).toBe(400);
    const own = await reflect(as('alice'));
    expect(own.status).toBe(200);
    const keys = (await (await fetch(`${worker.kvUrl}/?prefix=pb:`)).json()) as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).toContain('pb:user-alice:doc');
    expect(keys.keys.map((k) => k.name)).not.toContain('pb:user-bob:doc');
    const bob = (await (await fetch(`${worker.url}/playbook?q=install`, { headers: as('bob') })).json()) as {
      prompt: string;
      playbook: { sections: Record<string, unknown[]> };
    };
    expect(Object.values(bob.playbook.sections).flat()).toEqual([]);
    expect(bob.prompt).not.toContain('pnpm');
  });

  it('200 concurrent tag increments from one data centre all land', async () => {
    const principal = 'load';
    // The key point to tag, then a reply that tags it helpful for every later session (the mock
    // repeats its last step: it serves as the Reflector's and the Curator's reply).
    mock.script([
      {
        kind: 'json',
        text: JSON.stringify({
          analysis: 'mis-001 was followed.',
          bullet_tags: [{ name: 'mis-001', tag: 'helpful' }],
          reasoning: 'Nothing to change.',
          operations: [],
        }),
      },
    ]);
    const first = await fetch(`${worker.url}/reflect`, {
      method: 'POST',
      headers: as(principal),
      body: TRANSCRIPT,
    });
    expect(first.status).toBe(200);
    const helpful = async () => {
      const res = await fetch(`${worker.url}/playbook`, { headers: as(principal) });
      const { playbook } = (await res.json()) as {
        playbook: { sections: Record<string, { name: string; helpful: number }[]> };
      };
      return Object.values(playbook.sections)
        .flat()
        .find((k) => k.name === 'mis-001')!.helpful;
    };
    const start = await helpful();
    const session = JSON.stringify([
      { role: 'user', content: 'Add lodash' },
      { role: 'assistant', content: 'Following [mis-001]: pnpm add lodash.' },
    ]);
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${worker.url}/reflect`, { method: 'POST', headers: as(principal), body: session }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as { tags: { applied: number } | null } }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(results.reduce((n, r) => n + (r.body.tags?.applied ?? 0), 0)).toBe(200);
    expect(await helpful()).toBe(start + 200);
  }, 120_000);
});

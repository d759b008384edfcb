#!/usr/bin/env -S npx tsx
/**
 * Runs each example the way examples/README.md documents it — `node examples/<name>/…` as its own
 * process, configured only through the environment — against the local Messages API mock
 * (test/llm/mock-anthropic.ts), sends the request its README shows and checks the answer:
 *
 * - web-chat: the page is served; `POST /v1/messages` from the page's origin gets the model's reply
 *   with the key added server-side; without an `Origin` it is refused (403);
 * - edge-worker and vercel-edge: a token from `examples/shared/token.mjs`, then the README's curl
 *   (`POST` a transcript) adds the correction as a key point, and the `GET` finds it in the prompt;
 *   without the token, 401.
 *
 * Each server is stopped by its PID. Used by .ci/run on a fresh clone (after `npm start` built
 * dist/); exits 1 on the first failed check. `npx tsx scripts/check-examples.ts [web-chat …]`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type MockAnthropic, startMockAnthropic } from '../test/llm/mock-anthropic';

const root = join(import.meta.dirname, '..');
const KEY = 'sk-ant-api03-ci-examples-secret-0123456789';
const SECRET = 'change-me-0123456789';
const CHAT = JSON.stringify([
  { role: 'user', content: 'Deploy it.' },
  { role: 'assistant', content: 'Deploying with npm run deploy.' },
  { role: 'user', content: 'No, use the deploy script instead of npm run deploy.' },
]);
const KEY_POINT = 'Use the deploy script instead of npm run deploy.';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function check(ok: unknown, what: string, detail = ''): void {
  if (!ok) throw new Error(`${what}${detail ? `: ${detail}` : ''}`);
  console.log(`  ✓ ${what}`);
}

/** Starts `node <args>` with `env` added, and waits until `url` answers (any status). */
async function serve(args: string[], env: Record<string, string>, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with code ${child.exitCode}`);
    try {
      await fetch(url);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  stop(child);
  throw new Error(`${url} did not answer within 180 s`);
}

/** Stops a server by its PID and waits for it to exit. */
async function stopAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  stop(child);
  await exited;
}

function stop(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
}

function token(principal: string): string {
  const r = spawnSync(process.execPath, ['examples/shared/token.mjs', principal], {
    cwd: root,
    env: { ...process.env, REARVIEW_AUTH_SECRET: SECRET },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`token.mjs failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** The key reached the mock, and only as the upstream's credential. */
function keyOnlyUpstream(mock: MockAnthropic): void {
  check(mock.requests.length > 0, 'the model was called');
  for (const r of mock.requests) {
    const h = r.headers;
    check(`${h['x-api-key'] ?? ''} ${h.authorization ?? ''}`.includes(KEY), 'the key went upstream');
  }
}

async function webChat(mock: MockAnthropic): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await serve(
    ['examples/web-chat/serve.mjs', '--port', String(port)],
    { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url },
    url,
  );
  try {
    const page = await fetch(url);
    check(page.status === 200 && (await page.text()).includes('<html'), 'the chat page is served');
    mock.script([{ kind: 'json', text: 'Run pnpm install.' }]);
    const body = JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'How do I install?' }],
    });
    const res = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { origin: url, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body,
    });
    const answer = (await res.json()) as { content?: { text: string }[] };
    check(res.status === 200, 'POST /v1/messages from the page answers 200', String(res.status));
    check(answer.content?.[0]?.text === 'Run pnpm install.', "the answer is the model's reply");
    keyOnlyUpstream(mock);
    const bare = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    check(bare.status === 403, 'a request without Origin is refused (403)', String(bare.status));
  } finally {
    await stopAndWait(child);
  }
}

/** edge-worker and vercel-edge: the README's token, POST and GET. */
async function edge(
  mock: MockAnthropic,
  script: string,
  paths: { reflect: string; playbook: string },
): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await serve(
    [script, '--port', String(port)],
    { REARVIEW_AUTH_SECRET: SECRET, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: mock.url },
    url,
  );
  try {
    const auth = { authorization: `Bearer ${token('alice')}` };
    mock.script([
      { kind: 'json', text: JSON.stringify({ analysis: 'Deploys go through the script.', bullet_tags: [] }) },
      { kind: 'json', text: JSON.stringify({ reasoning: 'none', operations: [] }) },
    ]);
    const res = await fetch(`${url}${paths.reflect}`, { method: 'POST', headers: auth, body: CHAT });
    const text = await res.text();
    check(res.status === 200, `POST ${paths.reflect} with the token answers 200`, `${res.status} ${text}`);
    const body = JSON.parse(text) as { added?: { text: string }[]; llm?: boolean };
    check(body.llm === true, 'it reflected with the model');
    check(
      body.added?.some((a) => a.text === KEY_POINT),
      'the correction became a key point',
      JSON.stringify(body.added),
    );
    check(!text.includes(KEY), 'the key is not in the answer');
    keyOnlyUpstream(mock);
    const got = await fetch(`${url}${paths.playbook}`, { headers: auth });
    const prompt = ((await got.json()) as { prompt?: string }).prompt ?? '';
    check(got.status === 200 && prompt.includes(KEY_POINT), `GET ${paths.playbook} has it in the prompt`);
    const denied = await fetch(`${url}${paths.reflect}`, { method: 'POST', body: CHAT });
    check(denied.status === 401, 'without the token: 401', String(denied.status));
  } finally {
    await stopAndWait(child);
  }
}

const examples: Record<string, (mock: MockAnthropic) => Promise<void>> = {
  'web-chat': webChat,
  'edge-worker': (mock) =>
    edge(mock, 'examples/edge-worker/run.mjs', { reflect: '/reflect', playbook: '/playbook?q=deploy' }),
  'vercel-edge': (mock) =>
    edge(mock, 'examples/vercel-edge/run.mjs', {
      reflect: '/api/reflect',
      playbook: '/api/reflect?q=deploy',
    }),
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(examples);
const mock = await startMockAnthropic();
let failed = 0;
for (const name of wanted) {
  const run = examples[name];
  if (!run) throw new Error(`unknown example ${name}`);
  console.log(`▶ example ${name}`);
  try {
    await run(mock);
  } catch (err) {
    failed++;
    console.log(`  ✗ ${name}: ${(err as Error).message}`);
  }
}
await mock.close();
console.log(`examples: ${wanted.length - failed} of ${wanted.length} answered as documented`);
process.exit(failed ? 1 : 0);

/**
 * examples/edge-worker/worker.ts with a Durable Object binding, in workerd: Durable Object playbooks per authenticated principal,
 * the session facade on durableObjectPlaybook, and the raw object endpoints behind the same auth.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from './build';
import { freePort, root, waitForHttp } from './runtimes';

const SECRET = 'durable-example-secret-0123456789';
let workerd: ChildProcess;
let url: string;
const storage = mkdtempSync(join(tmpdir(), 'rearview-do-example-'));

type IssueToken = (secret: string, principal: string) => string;
let issueToken: IssueToken;
const as = (principal: string) => ({ authorization: `Bearer ${issueToken(SECRET, principal)}` });

beforeAll(async () => {
  ({ issueToken } = (await import(join(root, 'examples/shared/token.mjs'))) as { issueToken: IssueToken });
  const dir = await ensureBuilt();
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(root, 'examples/edge-worker/worker.ts'),
    fileName: 'edge-durable.mjs',
    format: 'es',
  });
  const port = await freePort();
  writeFileSync(
    join(dir, 'edge-durable.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w), (name = "disk", disk = (path = ${JSON.stringify(storage)}, writable = true)) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "edge-durable.mjs", esModule = embed "edge-durable.mjs") ],
  compatibilityDate = "2025-06-01",
  durableObjectNamespaces = [ (className = "Playbooks", uniqueKey = "edge-durable", enableSql = true) ],
  durableObjectStorage = (localDisk = "disk"),
  bindings = [
    (name = "PLAYBOOK_OBJECTS", durableObjectNamespace = "Playbooks"),
    (name = "REARVIEW_AUTH_SECRET", text = "${SECRET}"),
  ],
);
`,
  );
  workerd = spawn(join(root, 'node_modules/.bin/workerd'), ['serve', join(dir, 'edge-durable.capnp')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/none`);
});

afterAll(() => {
  workerd?.kill('SIGTERM');
  rmSync(storage, { recursive: true, force: true });
});

const rpc = (principal: string | undefined, method: string, args: unknown[]) =>
  fetch(`${url}/playbook/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(principal ? as(principal) : {}) },
    body: JSON.stringify({ method, args }),
  });

it('refuses requests without a valid token, on every route', async () => {
  expect((await fetch(`${url}/playbook`)).status).toBe(401);
  expect((await rpc(undefined, 'list', [])).status).toBe(401);
  const forged = await fetch(`${url}/playbook/rpc`, {
    method: 'POST',
    headers: { authorization: 'Bearer alice.not-a-signature' },
    body: '{"method":"list","args":[]}',
  });
  expect(forged.status).toBe(401);
});

it('serves each principal its own object through the session facade and the raw endpoints', async () => {
  const added = await rpc('alice', 'applyDelta', [
    'default',
    [{ type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'Alice checks units twice' }],
  ]);
  expect(added.status).toBe(200);
  const alice = (await (await fetch(`${url}/playbook?q=units`, { headers: as('alice') })).json()) as {
    prompt: string;
  };
  expect(alice.prompt).toContain('Alice checks units twice');
  const bob = (await (await fetch(`${url}/playbook?q=units`, { headers: as('bob') })).json()) as {
    prompt: string;
  };
  expect(bob.prompt).not.toContain('Alice');

  const reflect = await fetch(`${url}/reflect`, {
    method: 'POST',
    headers: as('alice'),
    body: 'User: convert 5 km to miles\nAssistant: 5 km is about 3.11 miles.\nUser: thanks, that is right',
  });
  expect(reflect.status).toBe(200);
  const versions = (await (await rpc('alice', 'history', ['default'])).json()) as { result: unknown[] };
  expect(versions.result.length).toBeGreaterThanOrEqual(1);
});

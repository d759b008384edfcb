/**
 * The LLM layer in workerd: a module worker built from dist/ calls the local Messages API server
 * through the real SDK, with the key held in the worker's environment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { ensureBuilt } from './build';
import { freePort, root, waitForHttp } from './runtimes';

let mock: MockAnthropic;
let workerd: ChildProcess;
let workerUrl: string;

beforeAll(async () => {
  mock = await startMockAnthropic();
  const dir = await ensureBuilt();
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(root, 'test/runtime/workers/llm-worker.ts'),
    fileName: 'llm-worker.mjs',
    format: 'es',
  });
  const port = await freePort();
  writeFileSync(
    join(dir, 'llm-workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .llmWorker),
    # Outbound fetches may reach loopback only: the local Messages API server.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const llmWorker :Workerd.Worker = (
  modules = [ (name = "llm-worker.mjs", esModule = embed "llm-worker.mjs") ],
  compatibilityDate = "2025-06-01",
  bindings = [ (name = "ANTHROPIC_API_KEY", text = "sk-ant-worker-secret") ],
  globalOutbound = "loopback",
);
`,
  );
  workerd = spawn(join(root, 'node_modules/.bin/workerd'), ['serve', join(dir, 'llm-workerd.capnp')], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  workerUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${workerUrl}/?base=${encodeURIComponent('http://127.0.0.1:1')}&maxRetries=0`);
});

afterAll(async () => {
  workerd?.kill('SIGTERM');
  await mock?.close();
});
beforeEach(() => mock.reset());

async function callWorker(query: string) {
  const res = await fetch(`${workerUrl}/?base=${encodeURIComponent(mock.url)}${query}`);
  return res.json() as Promise<Record<string, unknown>>;
}

describe('anthropicClient in workerd', () => {
  it('completes a request with the key from the worker environment', async () => {
    mock.script([{ kind: 'json', text: 'hello worker' }]);
    expect(await callWorker('')).toMatchObject({ ok: true, text: 'hello worker', attempts: 1 });
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer sk-ant-worker-secret');
  });

  it('streams', async () => {
    mock.script([{ kind: 'sse', text: 'streamed inside workerd', chunks: 4 }]);
    expect(await callWorker('&stream=1')).toMatchObject({ ok: true, text: 'streamed inside workerd' });
  });

  it('retries 429 and 529, then succeeds', async () => {
    mock.script([
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '30' } },
      { kind: 'status', status: 529 },
      { kind: 'json', text: 'third' },
    ]);
    expect(await callWorker('')).toMatchObject({ ok: true, text: 'third', attempts: 3 });
    expect(mock.requests).toHaveLength(3);
  });

  it('reports a 401 without retrying', async () => {
    mock.script([{ kind: 'status', status: 401 }]);
    expect(await callWorker('')).toMatchObject({ ok: false, code: 'llm_auth', status: 401, attempts: 1 });
    expect(mock.requests).toHaveLength(1);
  });

  // A 50 s hint (under the 60 s cap, so it is waited for) outlasts this test's 30 s timeout: a wait
  // the abort did not end fails the test, however busy the machine, without timing anything.
  it('aborts during a backoff wait', { timeout: 30_000 }, async () => {
    mock.script([{ kind: 'status', status: 429, headers: { 'retry-after': '50' } }]);
    expect(await callWorker('&abortMs=100')).toMatchObject({ ok: false, code: 'llm_aborted' });
  });
});

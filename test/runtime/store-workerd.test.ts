/**
 * rearview/store in workerd with a REAL Workers KV binding: the capnp config binds `KV` with
 * `kvNamespace` to a service, here a tiny KV backend worker (an in-memory Map speaking the HTTP
 * protocol workerd's KV client uses: GET/PUT/DELETE /<key>?urlencoded=true, GET /?prefix=&cursor=).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KV_BACKEND } from '../../scripts/kv-backend.mjs';
import { ensureBuilt } from './build';
import { freePort, root, waitForHttp } from './runtimes';

let workerd: ChildProcess;
let url: string;

beforeAll(async () => {
  const dir = await ensureBuilt();
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(root, 'test/runtime/workers/store-worker.ts'),
    fileName: 'store-worker.mjs',
    format: 'es',
  });
  writeFileSync(join(dir, 'kv-backend.mjs'), KV_BACKEND);
  const port = await freePort();
  writeFileSync(
    join(dir, 'store-workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .storeWorker),
    (name = "kv-backend", worker = .kvBackend),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const storeWorker :Workerd.Worker = (
  modules = [ (name = "store-worker.mjs", esModule = embed "store-worker.mjs") ],
  compatibilityDate = "2025-06-01",
  bindings = [ (name = "KV", kvNamespace = "kv-backend") ],
);
const kvBackend :Workerd.Worker = (
  modules = [ (name = "kv-backend.mjs", esModule = embed "kv-backend.mjs") ],
  compatibilityDate = "2025-06-01",
);
`,
  );
  workerd = spawn(join(root, 'node_modules/.bin/workerd'), ['serve', join(dir, 'store-workerd.capnp')], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/none`);
});

afterAll(() => {
  workerd?.kill('SIGTERM');
});

const call = async (path: string) =>
  (await fetch(`${url}${path}`)).json() as Promise<Record<string, unknown>>;

describe('rearview/store in workerd on a real KV binding', () => {
  it('workersKvStore passes the shared KeyValueStore contract', async () => {
    const report = (await call('/contract')) as {
      ok: boolean;
      results: { name: string; ok: boolean; error?: string }[];
    };
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
    expect(report.results.length).toBeGreaterThan(10);
  });

  it('two writers on one namespace: each owns its counter record, nothing is lost', async () => {
    const r = await call('/replicas');
    expect(r).toMatchObject({
      ok: true,
      keyPoint: { name: 'pat-001', text: 'shared', helpful: 30, harmful: 20 },
      counterKeys: ['pb:p:c:colo-a', 'pb:p:c:colo-b'],
    });
  });

  it('memoryEntryStore stays bounded on KV', async () => {
    expect(await call('/memory-entries')).toEqual({ ok: true, values: [4, 5, 6, 7, 8] });
  });
});

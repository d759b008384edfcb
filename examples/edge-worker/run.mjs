#!/usr/bin/env node
// Runs examples/edge-worker/worker.ts in workerd (no wrangler, no account): bundles it against the
// built library, binds an in-memory Workers KV namespace and the API key FROM THE ENVIRONMENT (never
// written to a file), and serves it on 127.0.0.1.
//
//   npm run build:lib && REARVIEW_AUTH_SECRET=… ANTHROPIC_API_KEY=sk-ant-… node examples/edge-worker/run.mjs [--port 8787]
//
// Tests import startEdgeWorker() to run the same thing against the local Messages API server.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { KV_BACKEND } from '../../scripts/kv-backend.mjs';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const outDir = join(root, '.cache/examples/edge-worker');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, timeoutMs = 20_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`workerd exited with code ${child.exitCode}`);
    try {
      return await fetch(url);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Builds the worker and starts workerd.
 * @param {{ port?: number, kvPort?: number, env?: Record<string, string | undefined>, stdio?: 'inherit' | 'ignore' }} [options]
 *   `env` holds REARVIEW_AUTH_SECRET, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL (default:
 *   this process's environment).
 * @returns {Promise<{ url: string, kvUrl: string, stop: () => Promise<void> }>}
 */
export async function startEdgeWorker(options = {}) {
  if (!existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  mkdirSync(outDir, { recursive: true });
  await bundleAgainstDist({
    entry: join(root, 'examples/edge-worker/worker.ts'),
    fileName: 'worker.mjs',
    format: 'es',
    outDir,
  });
  writeFileSync(join(outDir, 'kv-backend.mjs'), KV_BACKEND);
  const port = options.port ?? (await freePort());
  const kvPort = options.kvPort ?? (await freePort());
  const config = join(outDir, `workerd-${port}.capnp`);
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .edgeWorker),
    (name = "kv-backend", worker = .kvBackend),
    # Outbound: the public internet (api.anthropic.com) and loopback (a local Messages API server).
    (name = "net", network = (allow = ["public", "local"], tlsOptions = (trustBrowserCas = true))),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:${port}", http = (), service = "main"),
    # The KV namespace itself, for inspection: GET /?prefix=pb: lists the stored keys.
    (name = "kv", address = "127.0.0.1:${kvPort}", http = (), service = "kv-backend"),
  ],
);
const edgeWorker :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
  compatibilityDate = "2025-06-01",
  bindings = [
    (name = "PLAYBOOKS", kvNamespace = "kv-backend"),
    (name = "REARVIEW_AUTH_SECRET", fromEnvironment = "REARVIEW_AUTH_SECRET"),
    (name = "ANTHROPIC_API_KEY", fromEnvironment = "ANTHROPIC_API_KEY"),
    (name = "ANTHROPIC_BASE_URL", fromEnvironment = "ANTHROPIC_BASE_URL"),
    (name = "ANTHROPIC_MODEL", fromEnvironment = "ANTHROPIC_MODEL"),
  ],
  globalOutbound = "net",
);
const kvBackend :Workerd.Worker = (
  modules = [ (name = "kv-backend.mjs", esModule = embed "kv-backend.mjs") ],
  compatibilityDate = "2025-06-01",
);
`,
  );
  const env = { ...process.env };
  for (const name of ['REARVIEW_AUTH_SECRET', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL']) {
    if (options.env && name in options.env) {
      if (options.env[name] === undefined) delete env[name];
      else env[name] = options.env[name];
    }
  }
  const child = spawn(join(root, 'node_modules/.bin/workerd'), ['serve', config], {
    cwd: outDir,
    env,
    stdio: ['ignore', options.stdio ?? 'inherit', options.stdio ?? 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/health`, child);
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return {
    url,
    kvUrl: `http://127.0.0.1:${kvPort}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 8787;
  const { url, kvUrl, stop } = await startEdgeWorker({ port });
  console.log(`edge worker on ${url}  (KV inspection on ${kvUrl})`);
  console.log(
    process.env.ANTHROPIC_API_KEY
      ? 'model: on (key from the environment)'
      : 'model: off (no ANTHROPIC_API_KEY): heuristics only',
  );
  if (!process.env.REARVIEW_AUTH_SECRET) {
    console.log('auth: REARVIEW_AUTH_SECRET is not set, so every request is refused (503)');
  }
  console.log(
    `try: curl -H "Authorization: Bearer $TOKEN" -X POST --data-binary @transcript.jsonl '${url}/reflect'`,
  );
  console.log('(a token for principal alice: node examples/shared/token.mjs alice)');
  const quit = async () => {
    await stop();
    process.exit(0);
  };
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
}

/**
 * Node side of the Durable Object tests and benchmark: bundles test/runtime/workers/durable-worker.ts
 * against dist/ and runs it in workerd with SQLite-backed Durable Objects on local disk (a directory
 * the caller owns, so a restarted workerd finds the same storage) and a KV backend for comparison.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KV_BACKEND } from '../../../scripts/kv-backend.mjs';
import { ensureBuilt } from '../build';
import { freePort, root, waitForHttp } from '../runtimes';

/** Builds dist/ and the worker bundle; returns the bundle folder. */
export async function buildDurableWorker(): Promise<string> {
  const dir = await ensureBuilt();
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(root, 'test/runtime/workers/durable-worker.ts'),
    fileName: 'durable-worker.mjs',
    format: 'es',
  });
  writeFileSync(join(dir, 'durable-kv-backend.mjs'), KV_BACKEND);
  return dir;
}

export interface DurableServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Stops workerd (SIGKILL simulates a crash) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts workerd on `storageDir` (created if missing); `port` reuses an address after a restart. */
export async function startDurableWorkerd(
  dir: string,
  storageDir: string,
  port?: number,
): Promise<DurableServer> {
  mkdirSync(storageDir, { recursive: true });
  const listen = port ?? (await freePort());
  const config = join(dir, `durable-${listen}.capnp`);
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .durableWorker),
    (name = "do-disk", disk = (path = ${JSON.stringify(storageDir)}, writable = true)),
    (name = "kv-backend", worker = .kvBackend),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${listen}", http = (), service = "main") ],
);
const durableWorker :Workerd.Worker = (
  modules = [ (name = "durable-worker.mjs", esModule = embed "durable-worker.mjs") ],
  compatibilityDate = "2025-06-01",
  durableObjectNamespaces = [
    (className = "Playbooks", uniqueKey = "rearview-playbooks", enableSql = true),
    (className = "ContractObject", uniqueKey = "rearview-contract", enableSql = true),
  ],
  durableObjectStorage = (localDisk = "do-disk"),
  bindings = [
    (name = "PLAYBOOKS", durableObjectNamespace = "Playbooks"),
    (name = "CONTRACT", durableObjectNamespace = "ContractObject"),
    (name = "KV", kvNamespace = "kv-backend"),
  ],
);
const kvBackend :Workerd.Worker = (
  modules = [ (name = "durable-kv-backend.mjs", esModule = embed "durable-kv-backend.mjs") ],
  compatibilityDate = "2025-06-01",
);
`,
  );
  const child = spawn(join(root, 'node_modules/.bin/workerd'), ['serve', config], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${listen}`;
  await waitForHttp(`${url}/health`);
  return {
    url,
    port: listen,
    child,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // workerd drains open WebSockets on SIGTERM; a test that failed may have left some open.
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** The `ws` package (a dev-dependency of the browser runner) has no bundled types: the part used. */
interface NodeWebSocket {
  send(message: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: { data: unknown }) => void): void;
  once(type: string, listener: (...args: unknown[]) => void): void;
}
type NodeWebSocketClass = new (url: string, options?: { headers?: Record<string, string> }) => NodeWebSocket;

let wsClass: NodeWebSocketClass | undefined;
async function loadWs(): Promise<NodeWebSocketClass> {
  const name = 'ws';
  wsClass ??= ((await import(name)) as { WebSocket: NodeWebSocketClass }).WebSocket;
  return wsClass;
}

/** A Node WebSocket to an `http://` URL, with request headers (credentials). */
export async function nodeSocket(url: string, headers: Record<string, string> = {}): Promise<NodeWebSocket> {
  const WS = await loadWs();
  return new WS(url.replace(/^http/, 'ws'), { headers });
}

/** A raw change subscriber: every message it received, once the object said hello. */
export async function rawSubscriber(
  url: string,
  headers: Record<string, string>,
): Promise<{ hello: { seq: number }; messages: Record<string, unknown>[]; close(): void }> {
  const ws = await nodeSocket(url, headers);
  const messages: Record<string, unknown>[] = [];
  const hello = new Promise<{ seq: number }>((resolve, reject) => {
    ws.once('unexpected-response', (req, res) => {
      (req as { destroy(): void }).destroy();
      reject(new Error(`subscribe refused: ${(res as { statusCode?: number }).statusCode}`));
    });
    ws.once('error', (err) => reject(err));
    ws.addEventListener('message', (event) => {
      const m = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (m.type === 'hello') resolve(m as unknown as { seq: number });
      else messages.push(m);
    });
  });
  return { hello: await hello, messages, close: () => ws.close(1000, 'done') };
}

/** Polls `ready` every 20 ms until it is true or `timeoutMs` passes. */
export async function waitUntil(ready: () => boolean, timeoutMs = 15_000): Promise<boolean> {
  const started = Date.now();
  while (!ready()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

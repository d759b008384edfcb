/**
 * Launchers for the runtime matrix. Each one loads the conformance bundle (built from dist/) in a
 * real runtime and returns the report it prints. Everything binds to 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../chromium';
import type { ConformanceReport } from '../conformance/suite';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const bin = (name: string) => join(root, 'node_modules/.bin', name);

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs a command to completion with a hard timeout; never inherits stdin. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
) {
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? root,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${cmd} ${args.join(' ')} timed out after ${opts.timeoutMs ?? 120_000} ms\n${stderr}`),
      );
    }, opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

/** Parses the last JSON line a runtime printed, with its stderr in the error when it is missing. */
export function parseReport(name: string, result: RunResult): ConformanceReport {
  const line = result.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line)
    throw new Error(
      `${name} printed no report (exit ${result.code}).\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  return JSON.parse(line) as ConformanceReport;
}

function writeRunner(dir: string, runtime: string): string {
  const file = join(dir, `run-${runtime}.mjs`);
  writeFileSync(
    file,
    `import { runConformance } from './conformance.mjs';\nconsole.log(JSON.stringify(await runConformance(${JSON.stringify(runtime)})));\n`,
  );
  return file;
}

export async function runNode(dir: string): Promise<ConformanceReport> {
  return parseReport('node', await run(process.execPath, [writeRunner(dir, 'node')]));
}

export async function runDeno(dir: string): Promise<ConformanceReport> {
  const result = await run(
    bin('deno'),
    ['run', '--quiet', '--no-prompt', `--allow-read=${dir}`, writeRunner(dir, 'deno')],
    {
      env: { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(root, '.cache/deno'), NO_COLOR: '1' },
    },
  );
  return parseReport('deno', result);
}

export async function runBun(dir: string): Promise<ConformanceReport> {
  return parseReport('bun', await run(bin('bun'), [writeRunner(dir, 'bun')], { env: { NO_COLOR: '1' } }));
}

export async function runEdge(dir: string): Promise<ConformanceReport> {
  const { EdgeVM } = await import('@edge-runtime/vm');
  const vm = new EdgeVM();
  vm.evaluate(readFileSync(join(dir, 'conformance.iife.js'), 'utf8'));
  // Serialize inside the VM: objects from another realm are compared as plain JSON.
  const json = await vm.evaluate<Promise<string>>(
    'RearviewConformance.runConformance("edge-runtime").then((r) => JSON.stringify(r))',
  );
  return JSON.parse(json) as ConformanceReport;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<Response> {
  const started = Date.now();
  let lastError: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      return await fetch(url);
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}

export async function runWorkerd(dir: string): Promise<ConformanceReport> {
  const port = await freePort();
  writeFileSync(
    join(dir, 'worker.mjs'),
    `import { runConformance } from './conformance.mjs';
export default {
  async fetch() {
    return new Response(JSON.stringify(await runConformance('workerd')), { headers: { 'content-type': 'application/json' } });
  },
};
`,
  );
  writeFileSync(
    join(dir, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .mainWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const mainWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "conformance.mjs", esModule = embed "conformance.mjs"),
  ],
  compatibilityDate = "2025-06-01",
);
`,
  );
  const child = spawn(bin('workerd'), ['serve', join(dir, 'workerd.capnp')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  try {
    const res = await waitForHttp(`http://127.0.0.1:${port}/`);
    const text = await res.text();
    if (!text.startsWith('{')) throw new Error(`workerd answered ${res.status}: ${text}\n${stderr}`);
    return JSON.parse(text) as ConformanceReport;
  } finally {
    child.kill('SIGTERM');
  }
}

/** Serves `dir` on 127.0.0.1 (a secure context, so crypto.subtle exists) for the browser. */
export async function serveDir(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>conformance</title>');
      return;
    }
    try {
      const body = readFileSync(join(dir, path.replace(/^\/+/, '').replace(/\.\.+/g, '')));
      res.writeHead(200, {
        'content-type':
          path.endsWith('.mjs') || path.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
      });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

export async function runChromium(dir: string): Promise<ConformanceReport> {
  const { chromium } = await import('playwright-core');
  const { url, server } = await serveDir(dir);
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    // A string, not a function: vitest rewrites `import()` inside test code for Node, which the page lacks.
    const json = await page.evaluate<string>(
      `import(${JSON.stringify(`${url}/conformance.mjs`)}).then((m) => m.runConformance('chromium')).then((r) => JSON.stringify(r))`,
    );
    return JSON.parse(json) as ConformanceReport;
  } finally {
    await browser.close();
    server.close();
  }
}

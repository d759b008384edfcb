#!/usr/bin/env node
// Runs examples/vercel-edge/handler.ts in the Vercel edge runtime's VM (@edge-runtime/vm), served on
// 127.0.0.1 so you can curl it. The handler reads REARVIEW_AUTH_SECRET / ANTHROPIC_API_KEY /
// ANTHROPIC_BASE_URL / ANTHROPIC_MODEL from the environment it is given, on its first request.
//
//   npm run build:lib && REARVIEW_AUTH_SECRET=… ANTHROPIC_API_KEY=sk-ant-… node examples/vercel-edge/run.mjs [--port 3000]
//
// Tests import loadEdgeHandler() to call the same bundle directly, and startEdgeServer() to go
// through HTTP as curl does.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const outDir = join(root, '.cache/examples/vercel-edge');

/**
 * Bundles the handler (an IIFE against dist/) and evaluates it in a fresh edge-runtime VM.
 * @param {{ env?: Record<string, string | undefined>, file?: string }} [options] the VM's
 *   `process.env`; `file`: a bundle an earlier call returned, evaluated again instead of rebuilt
 * @returns {Promise<{ call: (request: { method?: string, url: string, body?: string, headers?: Record<string, string> }) => Promise<{ status: number, headers: Record<string, string>, body: string }>, evaluate: (code: string) => Promise<unknown>, file: string }>}
 */
export async function loadEdgeHandler(options = {}) {
  const file = options.file ?? (await bundle());
  const { EdgeVM } = await import('@edge-runtime/vm');
  const env = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter(([, v]) => v !== undefined),
  );
  const vm = new EdgeVM({
    extend: (context) => {
      // Vercel exposes the project's environment variables as process.env on the edge.
      context.process = { env };
      return context;
    },
  });
  vm.evaluate(await readFile(file, 'utf8'));
  // Requests and responses cross the VM boundary as plain JSON.
  vm.evaluate(`globalThis.__callHandler = async (json) => {
    const r = JSON.parse(json);
    const res = await VercelEdgeExample.default(new Request(r.url, { method: r.method ?? 'GET', headers: r.headers ?? {}, body: r.body }));
    return JSON.stringify({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
  };`);
  return {
    async call(request) {
      return JSON.parse(await vm.evaluate(`__callHandler(${JSON.stringify(JSON.stringify(request))})`));
    },
    evaluate: (code) => vm.evaluate(code),
    file,
  };
}

/** Builds the handler as an IIFE against dist/ (building dist/ first when it is missing). */
async function bundle() {
  if (!existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  return bundleAgainstDist({
    entry: join(root, 'examples/vercel-edge/handler.ts'),
    fileName: 'handler.iife.js',
    format: 'iife',
    name: 'VercelEdgeExample',
    outDir,
  });
}

/**
 * Serves the handler over HTTP on 127.0.0.1: each request, with its method, URL, headers and body,
 * becomes a `Request` inside the VM.
 * @param {{ port?: number, env?: Record<string, string | undefined>, file?: string }} [options]
 *   `port` 0 picks a free one; `env` and `file` as for loadEdgeHandler
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startEdgeServer(options = {}) {
  const handler = await loadEdgeHandler({ env: options.env, file: options.file });
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString('utf8');
    // The handler authenticates from the headers (Authorization): without them every call is a 401.
    // Repeated headers arrive as arrays in Node and are joined as fetch's Headers joins them.
    const headers = {};
    for (const [name, value] of Object.entries(req.headersDistinct ?? {})) {
      if (value?.length) headers[name] = value.join(', ');
    }
    try {
      const out = await handler.call({
        method: req.method,
        url: `http://127.0.0.1:${server.address().port}${req.url}`,
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      });
      res.writeHead(out.status, out.headers);
      res.end(out.body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const { url } = await startEdgeServer({ port: i > 0 ? Number(process.argv[i + 1]) : 3000 });
  console.log(`vercel-edge example on ${url} (edge-runtime VM)`);
  console.log(
    `try: curl -H "Authorization: Bearer $TOKEN" -X POST --data-binary @transcript.jsonl '${url}/api/reflect'`,
  );
  console.log('(a token for principal alice: node examples/shared/token.mjs alice)');
}

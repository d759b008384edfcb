#!/usr/bin/env node
// Serves the web chat example and proxies the Messages API, adding the API key SERVER-SIDE: the page
// calls /v1/messages on its own origin and never sees the key.
//
//   ANTHROPIC_API_KEY=sk-ant-… node examples/web-chat/serve.mjs [--port 5180]
//
// Builds the page with Vite on start (into .cache/examples/web-chat). ANTHROPIC_BASE_URL changes the
// upstream (default https://api.anthropic.com). Tests import startChatServer() with a local upstream.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const root = join(here, '../..');
export const outDir = join(root, '.cache/examples/web-chat');
const MAX_BODY = 10 * 1024 * 1024;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};
/** Request headers passed upstream; everything else (cookies, any Authorization) stays here. */
const FORWARD = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta'];

/** Builds the page with the example's own Vite config. */
export async function buildChat() {
  const { build } = await import('vite');
  await build({ configFile: join(here, 'vite.config.ts'), logLevel: 'warn' });
  return outDir;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error('request body too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts the server (building the page first unless `build: false`).
 * @param {{ port?: number, host?: string, upstream?: string, apiKey?: string, build?: boolean }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startChatServer(options = {}) {
  const upstream = (
    options.upstream ??
    process.env.ANTHROPIC_BASE_URL ??
    'https://api.anthropic.com'
  ).replace(/\/+$/, '');
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
  if (options.build !== false) await buildChat();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === '/v1/messages') {
        if (req.method !== 'POST') {
          res.writeHead(405).end();
          return;
        }
        // Only this page may spend the key. Browsers send Origin on every POST, same-origin ones
        // included, so a request without it comes from outside a browser (any local process, curl):
        // refused like a cross-site one.
        const origin = req.headers.origin;
        if (origin !== `http://${req.headers.host}`) {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              type: 'error',
              error: {
                type: 'permission_error',
                message: origin
                  ? 'cross-origin request'
                  : 'missing Origin: only the chat page may call the model',
              },
            }),
          );
          return;
        }
        if (!apiKey) {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              type: 'error',
              error: { type: 'authentication_error', message: 'Start serve.mjs with ANTHROPIC_API_KEY set.' },
            }),
          );
          return;
        }
        const body = await readBody(req);
        const headers = { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' };
        for (const name of FORWARD) {
          const v = req.headers[name];
          if (typeof v === 'string') headers[name] = v;
        }
        const controller = new AbortController();
        res.on('close', () => controller.abort());
        const up = await fetch(`${upstream}/v1/messages`, {
          method: 'POST',
          headers,
          body,
          signal: controller.signal,
        });
        const out = {};
        for (const name of ['content-type', 'retry-after', 'retry-after-ms', 'request-id']) {
          const v = up.headers.get(name);
          if (v) out[name] = v;
        }
        res.writeHead(up.status, out);
        if (up.body) for await (const chunk of up.body) res.write(chunk); // streams SSE through
        res.end();
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
      }
      const rel = normalize(path === '/' ? '/index.html' : decodeURIComponent(path)).replace(
        /^(\.\.[/\\])+/,
        '',
      );
      const file = join(outDir, rel);
      if (!file.startsWith(outDir)) {
        res.writeHead(403).end();
        return;
      }
      const data = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    } catch (err) {
      if (res.headersSent) {
        res.end();
        return;
      }
      const status = err?.code === 'ENOENT' || err?.code === 'EISDIR' ? 404 : (err?.status ?? 502);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 404 ? 'not found' : String(err?.message ?? err));
    }
  });
  const port = options.port ?? 5180;
  const host = options.host ?? '127.0.0.1';
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: actual } = server.address();
  return {
    url: `http://${host}:${actual}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const { url } = await startChatServer({ port: i > 0 ? Number(process.argv[i + 1]) : 5180 });
  console.log(`web chat on ${url}`);
  if (!process.env.ANTHROPIC_API_KEY)
    console.log('warning: ANTHROPIC_API_KEY is not set: model calls will fail with 401');
}

/**
 * A local server that speaks the Anthropic Messages API on 127.0.0.1, for testing the LLM path
 * through the real `@anthropic-ai/sdk`: JSON and SSE replies, and scripted faults — 429 with
 * `retry-after`, 500, 529, a dropped connection, a malformed body, a slow response.
 *
 * Each request to POST /v1/messages takes the next step of the script (the last step repeats when
 * the script runs out; with no script it echoes). Browsers and workers script it over HTTP:
 * POST /__script with a JSON array of steps, GET /__requests for what was received, POST /__reset.
 * CORS is open so pages on other local origins can call it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type MockStep =
  | {
      kind: 'json';
      text: string;
      model?: string;
      usage?: { input_tokens: number; output_tokens: number };
      delayMs?: number;
    }
  | { kind: 'sse'; text: string; chunks?: number; model?: string; delayMs?: number }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  | { kind: 'drop' }
  | { kind: 'malformed' }
  | { kind: 'echo' };

export interface ReceivedRequest {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface MockAnthropic {
  url: string;
  server: Server;
  script(steps: MockStep[]): void;
  requests: ReceivedRequest[];
  reset(): void;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-expose-headers': 'retry-after, retry-after-ms, request-id',
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function message(text: string, model: string, usage = { input_tokens: 10, output_tokens: 5 }) {
  return {
    id: 'msg_mock',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

function sse(res: ServerResponse, text: string, model: string, chunks: number) {
  res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: {
      ...message('', model, { input_tokens: 10, output_tokens: 1 }),
      content: [],
      stop_reason: null,
    },
  });
  send('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  });
  send('ping', { type: 'ping' });
  const size = Math.max(1, Math.ceil(text.length / chunks));
  for (let i = 0; i < text.length; i += size) {
    send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: text.slice(i, i + size) },
    });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: Math.max(1, Math.ceil(text.length / 4)) },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockAnthropic(): Promise<MockAnthropic> {
  let steps: MockStep[] = [];
  let next = 0;
  const requests: ReceivedRequest[] = [];

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    const raw = await readBody(req);
    if (path === '/__script' && req.method === 'POST') {
      steps = JSON.parse(raw) as MockStep[];
      next = 0;
      requests.length = 0;
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    if (path === '/__requests') {
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify(requests));
      return;
    }
    if (path === '/__reset') {
      steps = [];
      next = 0;
      requests.length = 0;
      res.writeHead(200, CORS);
      res.end();
      return;
    }
    if (path !== '/v1/messages' || req.method !== 'POST') {
      res.writeHead(404, { ...CORS, 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `No route ${path}` } }),
      );
      return;
    }
    let body: { model?: string; stream?: boolean; messages?: { content: unknown }[] } = {};
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { ...CORS, 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'Body is not JSON' },
        }),
      );
      return;
    }
    requests.push({ at: Date.now(), method: req.method, path, headers: req.headers, body });
    const step: MockStep = steps.length ? steps[Math.min(next++, steps.length - 1)]! : { kind: 'echo' };
    const model = body.model ?? 'mock-model';
    if ('delayMs' in step && step.delayMs) await sleep(step.delayMs);
    switch (step.kind) {
      case 'drop':
        req.socket.destroy();
        return;
      case 'malformed':
        res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
        res.end('{"id": "msg_mock", "content": [ {"type": "te');
        return;
      case 'status':
        res.writeHead(step.status, { ...CORS, 'content-type': 'application/json', ...step.headers });
        res.end(
          JSON.stringify(
            step.body ?? { type: 'error', error: { type: 'api_error', message: `mock ${step.status}` } },
          ),
        );
        return;
      case 'sse':
        sse(res, step.text, step.model ?? model, step.chunks ?? 4);
        return;
      default: {
        const text =
          step.kind === 'json' ? step.text : `echo: ${JSON.stringify(body.messages?.at(-1)?.content ?? '')}`;
        if (body.stream) {
          sse(res, text, model, 3);
          return;
        }
        res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            message(
              text,
              step.kind === 'json' ? (step.model ?? model) : model,
              step.kind === 'json' ? step.usage : undefined,
            ),
          ),
        );
      }
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    script(s) {
      steps = s;
      next = 0;
      requests.length = 0;
    },
    reset() {
      steps = [];
      next = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A local server that speaks the OpenAI chat-completions API on 127.0.0.1, standing in for a model
 * server on the user's machine (llama.cpp, Ollama, LM Studio, vLLM): JSON and SSE replies, and scripted
 * faults — an HTTP status with `retry-after`, a dropped connection, a malformed body, a stream cut
 * short, a slow reply.
 *
 * Each POST /v1/chat/completions takes the next step of the script (the last step repeats; with no
 * script it echoes). A step answers in the mode the request asked for (`stream: true` → SSE) unless
 * it says otherwise. CORS is open, as local servers configure it for browser clients.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type OpenAiMockStep =
  | {
      kind: 'reply';
      text: string;
      model?: string;
      usage?: [number, number];
      delayMs?: number;
      chunks?: number;
    }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'drop' }
  | { kind: 'malformed' }
  | { kind: 'cut' }
  | { kind: 'echo' };

export interface OpenAiRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: {
    model?: string;
    stream?: boolean;
    max_tokens?: number;
    temperature?: number;
    messages?: { role: string; content: string }[];
    stream_options?: unknown;
  };
}

export interface MockOpenAi {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  url: string;
  server: Server;
  script(steps: OpenAiMockStep[]): void;
  requests: OpenAiRequest[];
  reset(): void;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-expose-headers': 'retry-after',
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sse(res: ServerResponse, text: string, model: string, chunks: number, usage: [number, number]) {
  res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model };
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const size = Math.max(1, Math.ceil(text.length / chunks));
  for (let i = 0; i < text.length; i += size) {
    send({
      ...base,
      choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }],
    });
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  send({ ...base, choices: [], usage: { prompt_tokens: usage[0], completion_tokens: usage[1] } });
  res.end('data: [DONE]\n\n');
}

function json(res: ServerResponse, text: string, model: string, usage: [number, number]) {
  res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-mock',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage[0], completion_tokens: usage[1], total_tokens: usage[0] + usage[1] },
    }),
  );
}

/** Starts the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockOpenAi(): Promise<MockOpenAi> {
  let steps: OpenAiMockStep[] = [];
  let next = 0;
  const requests: OpenAiRequest[] = [];
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    const raw = await readBody(req);
    if (path !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `No route ${path}`, type: 'not_found' } }));
      return;
    }
    let body: OpenAiRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Body is not JSON' } }));
      return;
    }
    requests.push({ path, headers: req.headers, body });
    const step: OpenAiMockStep = steps.length ? steps[Math.min(next++, steps.length - 1)]! : { kind: 'echo' };
    const model = body.model ?? 'mock-local';
    switch (step.kind) {
      case 'drop':
        req.socket.destroy();
        return;
      case 'malformed':
        res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-mock", "choices": [ {"mess');
        return;
      case 'cut':
        res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream' });
        res.end(': keep-alive\n\n');
        return;
      case 'status':
        res.writeHead(step.status, { ...CORS, 'content-type': 'application/json', ...step.headers });
        res.end(
          JSON.stringify(step.body ?? { error: { message: `mock ${step.status}`, type: 'server_error' } }),
        );
        return;
      default: {
        const reply = step.kind === 'reply' ? step : undefined;
        if (reply?.delayMs) await sleep(reply.delayMs);
        const text = reply ? reply.text : `echo: ${body.messages?.at(-1)?.content ?? ''}`;
        const usage = reply?.usage ?? [12, 5];
        if (body.stream) sse(res, text, reply?.model ?? model, reply?.chunks ?? 3, usage);
        else json(res, text, reply?.model ?? model, usage);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    server,
    requests,
    script(s) {
      steps = s;
      next = 0;
    },
    reset() {
      steps = [];
      next = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

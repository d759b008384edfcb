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
import type { Server, ServerResponse } from 'node:http';
import { corsHeaders, type MockRequest, sleep, startMockServer } from './mock-server';

export type OpenAiMockStep =
  | {
      kind: 'reply';
      text: string;
      model?: string;
      usage?: [number, number];
      delayMs?: number;
      chunks?: number;
      /** Streamed replies: a pause before each content chunk, after the headers have gone out. */
      chunkDelayMs?: number;
    }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'drop' }
  | { kind: 'malformed' }
  | { kind: 'cut' }
  | { kind: 'echo' };

export type OpenAiRequest = MockRequest<{
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  messages?: { role: string; content: string }[];
  stream_options?: unknown;
}>;

export interface MockOpenAi {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  url: string;
  server: Server;
  script(steps: OpenAiMockStep[]): void;
  requests: OpenAiRequest[];
  reset(): void;
  close(): Promise<void>;
}

const CORS = corsHeaders('retry-after');

async function sse(
  res: ServerResponse,
  text: string,
  model: string,
  chunks: number,
  usage: [number, number],
  chunkDelayMs = 0,
) {
  res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model };
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const size = Math.max(1, Math.ceil(text.length / chunks));
  for (let i = 0; i < text.length; i += size) {
    if (chunkDelayMs > 0) await sleep(chunkDelayMs);
    if (res.destroyed) return;
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
  const mock = await startMockServer<OpenAiMockStep, OpenAiRequest['body']>({
    route: '/v1/chat/completions',
    exposeHeaders: 'retry-after',
    errorBody: (kind, message) =>
      kind === 'not_found' ? { error: { message, type: 'not_found' } } : { error: { message } },
    async answer(step, body, req, res) {
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
          if (body.stream)
            await sse(res, text, reply?.model ?? model, reply?.chunks ?? 3, usage, reply?.chunkDelayMs);
          else json(res, text, reply?.model ?? model, usage);
        }
      }
    },
  });
  return { ...mock, url: `http://127.0.0.1:${mock.port}/v1` };
}

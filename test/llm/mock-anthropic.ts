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
import type { Server, ServerResponse } from 'node:http';
import { corsHeaders, type MockRequest, sleep, startMockServer } from './mock-server';

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

export type ReceivedRequest = MockRequest<unknown>;

export interface MockAnthropic {
  url: string;
  server: Server;
  script(steps: MockStep[]): void;
  requests: ReceivedRequest[];
  reset(): void;
  close(): Promise<void>;
}

const EXPOSE = 'retry-after, retry-after-ms, request-id';
const CORS = corsHeaders(EXPOSE);

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

/** Starts the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockAnthropic(): Promise<MockAnthropic> {
  type Body = { model?: string; stream?: boolean; messages?: { content: unknown }[] };
  const mock = await startMockServer<MockStep, Body>({
    route: '/v1/messages',
    exposeHeaders: EXPOSE,
    httpControl: true,
    scriptClearsRequests: true,
    errorBody: (kind, message) => ({
      type: 'error',
      error: { type: kind === 'not_found' ? 'not_found_error' : 'invalid_request_error', message },
    }),
    async answer(step, body, req, res) {
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
            step.kind === 'json'
              ? step.text
              : `echo: ${JSON.stringify(body.messages?.at(-1)?.content ?? '')}`;
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
    },
  });
  return { ...mock, url: `http://127.0.0.1:${mock.port}` };
}

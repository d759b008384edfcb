/**
 * The scaffold the local model-API mocks share (mock-anthropic.ts, mock-openai.ts): a server on
 * 127.0.0.1 with an ephemeral port and open CORS, one POST route that reads a JSON body, records the
 * request and takes the next step of a script (the last step repeats; with no script, `echo`), and
 * the script controls. Each mock supplies only its wire format: the error body and how a step answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** What one request to the mock's route looked like. */
export interface MockRequest<Body> {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Body;
}

export interface MockServerOptions<Step, Body> {
  /** The one POST route that answers from the script, e.g. `/v1/messages`. */
  route: string;
  /** `access-control-expose-headers`, so browser clients can read e.g. `retry-after`. */
  exposeHeaders: string;
  /** The API's error body for a 404 (`not_found`) or a body that is not JSON (`bad_request`). */
  errorBody(kind: 'not_found' | 'bad_request', message: string): unknown;
  /** Answers one request with `step`; every response carries {@link corsHeaders}. */
  answer(
    step: Step | { kind: 'echo' },
    body: Body,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> | void;
  /**
   * Also serve POST /__script (a JSON array of steps), GET /__requests and POST /__reset, for
   * browsers and workers that cannot call {@link MockServer.script} (default `false`).
   */
  httpControl?: boolean;
  /** Whether {@link MockServer.script} also forgets the requests received so far (default `false`). */
  scriptClearsRequests?: boolean;
}

export interface MockServer<Step, Body> {
  port: number;
  server: Server;
  requests: MockRequest<Body>[];
  script(steps: Step[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** Headers every response of a mock carries. */
export function corsHeaders(exposeHeaders: string): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-expose-headers': exposeHeaders,
  };
}

/** Starts a scripted mock on 127.0.0.1 with an ephemeral port. */
export async function startMockServer<Step, Body>(
  options: MockServerOptions<Step, Body>,
): Promise<MockServer<Step, Body>> {
  const cors = corsHeaders(options.exposeHeaders);
  let steps: Step[] = [];
  let next = 0;
  const requests: MockRequest<Body>[] = [];
  const script = (s: Step[]) => {
    steps = s;
    next = 0;
    if (options.scriptClearsRequests) requests.length = 0;
  };
  const reset = () => {
    steps = [];
    next = 0;
    requests.length = 0;
  };
  const sendJson = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { ...cors, 'content-type': 'application/json' });
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const raw = await readBody(req);
    if (options.httpControl) {
      if (path === '/__script' && req.method === 'POST') {
        steps = JSON.parse(raw) as Step[];
        next = 0;
        requests.length = 0;
        sendJson(res, 200, '{"ok":true}');
        return;
      }
      if (path === '/__requests') {
        sendJson(res, 200, requests);
        return;
      }
      if (path === '/__reset') {
        reset();
        res.writeHead(200, cors);
        res.end();
        return;
      }
    }
    if (path !== options.route || req.method !== 'POST') {
      sendJson(res, 404, options.errorBody('not_found', `No route ${path}`));
      return;
    }
    let body: Body;
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, options.errorBody('bad_request', 'Body is not JSON'));
      return;
    }
    requests.push({ at: Date.now(), method: req.method, path, headers: req.headers, body });
    const step = steps.length ? steps[Math.min(next++, steps.length - 1)]! : { kind: 'echo' as const };
    await options.answer(step, body, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    server,
    requests,
    script,
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

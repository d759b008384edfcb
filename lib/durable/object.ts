import { describeError, RearviewError } from '../core/index.js';
import { formatPlaybook } from '../playbook/index.js';
import { type PlaybookChange, type PlaybookStore, playbookStore } from '../store/index.js';
import { DEFAULT_MAX_BODY_BYTES, type DurableRedact, readBodyCapped, redactWriteArgs } from './intake.js';
import {
  CLIENT_HEADER,
  encodeResult,
  isWireMethod,
  statusOf,
  toWireError,
  type WireMethod,
} from './protocol.js';
import { durableStorageKv } from './storage-kv.js';
import type { ChangeMessage, DurableObjectStateLike, PlaybookObjectOptions, WebSocketLike } from './types.js';

/** Where the commit counter lives, outside the store's `pb:`/`meta:` keys. */
const SEQ_KEY = 'durable:seq';
const tagOf = (id: string) => `pb:${id}`;
/** Methods whose first argument is not a playbook id (imports name theirs in the options). */
const NOT_AN_ID: ReadonlySet<WireMethod> = new Set<WireMethod>([
  'kv.get',
  'kv.getMany',
  'kv.keys',
  'importDocument',
  'importJson',
]);

/**
 * A Durable Object owning the playbooks of one scope (a team, a user): the object's SQLite storage
 * holds them through the same {@link playbookStore} as every other backend, so history, revert,
 * quarantine, G-counters and migrations behave identically. Requests are run one at a time and each
 * write is one storage transaction, so counters stay exact however many users write at once.
 *
 * Every key point text a write carries is redacted before it is stored (option `redact`: `false`, or
 * `rearview/redact` options; default on), and an RPC body over `maxBodyBytes` (default 2 MiB, the most
 * one SQLite value holds) answers 413 `durable_too_large` before it is read whole.
 *
 * Speaks JSON: `POST …/rpc` with `{ method, args }` (a {@link PlaybookStore} method, `kv.get`,
 * `kv.getMany`, `kv.keys`, or `format` to get the prompt text); `GET …/subscribe?id=<playbook>` upgraded
 * to a hibernatable WebSocket that receives every change in commit order. Never route requests to it
 * by a name taken from the request: use {@link routePlaybookRequest}.
 *
 * Bind it with SQLite storage (`new_sqlite_classes` in wrangler, `enableSql = true` in workerd). To
 * configure, subclass: workerd constructs the class with `(ctx, env)` only.
 *
 * @example
 * ```ts
 * // worker.ts
 * import { PlaybookObject } from 'rearview/durable';
 * export class Playbooks extends PlaybookObject {
 *   constructor(ctx: DurableObjectState, env: unknown) {
 *     super(ctx, env, { maxVersions: 100 });
 *   }
 * }
 * ```
 */
export class PlaybookObject {
  /** The playbook store on this object's storage. */
  readonly store: PlaybookStore;
  private readonly ctx: DurableObjectStateLike;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly watched = new Set<string>();
  /** Client id of the request being run (requests run one at a time). */
  private currentClient: string | undefined;
  private readonly redact: DurableRedact;
  private readonly maxBodyBytes: number;

  constructor(ctx: DurableObjectStateLike, _env?: unknown, options: PlaybookObjectOptions = {}) {
    this.ctx = ctx;
    const { redact = true, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, ...storeOptions } = options;
    this.redact = redact;
    this.maxBodyBytes = maxBodyBytes;
    this.store = playbookStore(durableStorageKv(ctx.storage), { ...storeOptions, broadcast: false });
    // Woken from hibernation with subscribers still connected: listen for their playbooks again.
    for (const ws of ctx.getWebSockets()) {
      for (const tag of ctx.getTags?.(ws) ?? []) if (tag.startsWith('pb:')) this.watch(tag.slice(3));
    }
  }

  /** Handles `…/rpc` and `…/subscribe` (the last path segment decides; any prefix is ignored). */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const action = url.pathname.split('/').pop();
    try {
      if (action === 'subscribe') return this.subscribe(request, url);
      if (action === 'rpc' && request.method === 'POST') return await this.rpc(request);
      throw new RearviewError(
        'durable_bad_request',
        `No playbook endpoint ${request.method} ${url.pathname}`,
      );
    } catch (err) {
      const error = toWireError(err);
      return Response.json({ error }, { status: statusOf(error.code) });
    }
  }

  /** Hibernation API: answers `ping` with the current commit number; other messages are ignored. */
  webSocketMessage(ws: WebSocketLike, message: string | ArrayBuffer): void {
    if (message === 'ping') ws.send(JSON.stringify({ type: 'pong', seq: this.seq() }));
  }

  /** Hibernation API: completes the closing handshake. */
  webSocketClose(ws: WebSocketLike, code: number, reason: string): void {
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }

  private async rpc(request: Request): Promise<Response> {
    let body: { method?: unknown; args?: unknown };
    // Over the cap: 413 before the body is read whole (or parsed, or handed to storage).
    const text = await readBodyCapped(request, this.maxBodyBytes);
    try {
      body = JSON.parse(text) as typeof body;
    } catch (err) {
      throw new RearviewError('durable_bad_request', `Request body is not JSON: ${describeError(err)}`);
    }
    const { method, args = [] } = body ?? {};
    if (!isWireMethod(method)) {
      throw new RearviewError('durable_bad_request', `Unknown playbook method ${JSON.stringify(method)}`);
    }
    if (!Array.isArray(args))
      throw new RearviewError('durable_bad_request', `args of ${method} must be an array`);
    const client = request.headers.get(CLIENT_HEADER) ?? undefined;
    // Key point texts redacted before they reach the store, as every other write path does.
    const safe = redactWriteArgs(method, args, this.redact);
    const result = await this.serialize(client, () => this.call(method, safe));
    return Response.json({ result: encodeResult(method, result) ?? null });
  }

  /** Runs one call at a time, so changes are numbered and pushed in the order they commit. */
  private serialize<T>(client: string | undefined, task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      this.currentClient = client;
      try {
        return await task();
      } finally {
        this.currentClient = undefined;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private call(method: WireMethod, args: unknown[]): Promise<unknown> {
    const id = args[0];
    // Any call naming a playbook may change it: make sure its changes reach its sockets.
    if (typeof id === 'string' && !NOT_AN_ID.has(method)) this.watch(id);
    const { store } = this;
    const kv = store.kv;
    switch (method) {
      case 'kv.get':
        return kv.get(String(args[0]));
      case 'kv.getMany':
        return kv.getMany(Array.isArray(args[0]) ? args[0].map(String) : []);
      case 'kv.keys':
        return kv.keys(typeof args[0] === 'string' ? args[0] : undefined);
      case 'format':
        return store.load(String(args[0])).then((pb) => formatPlaybook(pb, (args[1] ?? {}) as never));
      case 'importDocument':
        // The target id is in the options; watch it before the write so its change is pushed.
        this.watchImport(args[1], (args[0] as { id?: unknown } | null)?.id);
        return store.importDocument(args[0] as never, args[1] as never);
      case 'importJson':
        this.watchImport(args[1], idInJson(args[0]));
        return store.importJson(args[0] as never, args[1] as never);
      default:
        return (store[method] as (...xs: unknown[]) => Promise<unknown>)(...args);
    }
  }

  private watchImport(options: unknown, docId: unknown): void {
    const id = (options as { id?: unknown } | null | undefined)?.id ?? docId;
    if (typeof id === 'string') this.watch(id);
  }

  /** Subscribes (once per wake-up) to the store's changes of `id`, fanning them out to its sockets. */
  private watch(id: string): void {
    if (this.watched.has(id)) return;
    this.watched.add(id);
    this.store.subscribe(id, (change) => this.publish(change));
  }

  private publish(change: PlaybookChange): void {
    const seq = this.seq() + 1;
    this.ctx.storage.kv.put(SEQ_KEY, seq);
    const message: ChangeMessage = {
      type: 'change',
      seq,
      id: change.id,
      kind: change.kind,
      version: change.version,
      ...(this.currentClient ? { client: this.currentClient } : {}),
    };
    const text = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets(tagOf(change.id))) {
      try {
        ws.send(text);
      } catch {
        // a socket closing right now; the runtime drops it
      }
    }
  }

  private seq(): number {
    const n = this.ctx.storage.kv.get(SEQ_KEY);
    return typeof n === 'number' ? n : 0;
  }

  private subscribe(request: Request, url: URL): Response {
    const id = url.searchParams.get('id');
    if (!id) throw new RearviewError('durable_bad_request', 'subscribe needs ?id=<playbook id>');
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') {
      throw new RearviewError('durable_bad_request', 'subscribe expects a WebSocket upgrade request');
    }
    const Pair = (globalThis as { WebSocketPair?: new () => Record<0 | 1, WebSocketLike> }).WebSocketPair;
    if (!Pair) throw new RearviewError('durable_unsupported', 'This runtime has no WebSocketPair');
    const pair = new Pair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [tagOf(id)]);
    this.watch(id);
    server.send(JSON.stringify({ type: 'hello', id, seq: this.seq() }));
    return new Response(null, { status: 101, webSocket: client } as ResponseInit);
  }
}

/** The `id` of a playbook document given as JSON text, if it has one (malformed text fails later). */
function idInJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return (JSON.parse(text) as { id?: unknown } | null)?.id;
  } catch {
    return undefined;
  }
}

import { describeError, StoreError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import type { PlaybookChange, PlaybookStore } from '../store/index.js';
import { CLIENT_HEADER, decodeResult, fromWireError, type WireError, type WireMethod } from './protocol.js';
import type { ChangeMessage, DurableObjectNamespaceLike, FetcherLike, WebSocketLike } from './types.js';

/** Options of {@link playbookClient} and {@link durableObjectPlaybook}. */
export interface PlaybookClientOptions {
  /**
   * Base URL of the endpoints (`<base>/rpc`, `<base>/subscribe`). Default `https://playbook/`, which
   * suits a Durable Object stub (the host is never resolved).
   */
  baseUrl?: string;
  /** Id echoed in the changes this client causes, so they arrive with `origin: 'local'`. Default: random. */
  clientId?: string;
  /** Extra request headers (credentials when calling a Worker over HTTP). */
  headers?: Record<string, string>;
  /**
   * Opens the change socket of playbook `id`. Default: a WebSocket upgrade through `fetch` (works on
   * a Durable Object stub in a Worker). Pass one for browsers and Node: `(url) => new WebSocket(url)`.
   */
  openSocket?: (url: string) => WebSocketLike | Promise<WebSocketLike>;
  /** Called with each problem of a change socket (it is not reopened). Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * A {@link PlaybookStore} whose every call runs in a {@link PlaybookObject} behind `fetcher` (a
 * Durable Object stub, or a Worker reached over HTTP). Errors keep their codes; `subscribe` opens
 * one WebSocket per playbook and delivers every change in commit order (`origin: 'local'` for
 * changes this client made). `kv` is a read-only view: writes go through the playbook methods.
 *
 * @example
 * ```ts
 * const playbooks = playbookClient(
 *   { fetch: (url, init) => fetch(url, init) },
 *   { baseUrl: 'https://example.com/playbook/', headers: { authorization: `Bearer ${token}` },
 *     openSocket: (url) => new WebSocket(url.replace(/^http/, 'ws')) },
 * );
 * await playbooks.applyTags('default', [{ name: 'pat-001', tag: 'helpful' }]);
 * ```
 */
export function playbookClient(fetcher: FetcherLike, options: PlaybookClientOptions = {}): PlaybookStore {
  const base = options.baseUrl ?? 'https://playbook/';
  const endpoint = (name: string) => new URL(name, base.endsWith('/') ? base : `${base}/`).toString();
  const clientId = options.clientId ?? crypto.randomUUID();
  const warn = options.onWarning ?? ((m: string) => console.warn(m));

  const call = async (method: WireMethod, ...args: unknown[]): Promise<never> => {
    let response: Response;
    try {
      response = await fetcher.fetch(endpoint('rpc'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLIENT_HEADER]: clientId, ...options.headers },
        body: JSON.stringify({ method, args }),
      });
    } catch (err) {
      throw new StoreError('store_failed', `Playbook object unreachable (${method}): ${describeError(err)}`, {
        cause: err,
      });
    }
    let body: { result?: unknown; error?: WireError };
    try {
      body = (await response.json()) as typeof body;
    } catch (err) {
      throw new StoreError(
        'store_failed',
        `Playbook object answered ${response.status} without JSON (${method})`,
        {
          cause: err,
        },
      );
    }
    if (body.error) throw fromWireError(body.error);
    if (!response.ok)
      throw new StoreError('store_failed', `Playbook object answered ${response.status} (${method})`);
    return decodeResult(method, body.result) as never;
  };

  const changes = changeSockets(endpoint('subscribe'), clientId, fetcher, options, warn);
  return {
    kv: remoteKv(call),
    replicaId: () => call('replicaId'),
    list: () => call('list'),
    open: (id) => call('open', id),
    load: (id) => call('load', id),
    save: (id, playbook) => call('save', id, playbook),
    applyTags: (id, tags) => call('applyTags', id, tags),
    applyDelta: (id, operations) => call('applyDelta', id, operations),
    history: (id) => call('history', id),
    revert: (id, version) => call('revert', id, version),
    exportDocument: (id) => call('exportDocument', id),
    importDocument: (doc, opts) => call('importDocument', doc, opts ?? {}),
    exportJson: (id) => call('exportJson', id),
    importJson: (json, opts) => call('importJson', json, opts ?? {}),
    subscribe: changes.subscribe,
    close: changes.close,
  };
}

/**
 * {@link playbookClient} for the Durable Object named `name` in `namespace` (`env.PLAYBOOKS`), so
 * `createRearview({ store: durableObjectPlaybook(env.PLAYBOOKS, team) })` works unchanged in a
 * Worker. `name` must come from an authenticated principal, never from the request as sent.
 *
 * @example
 * ```ts
 * import { createRearview } from 'rearview/session';
 * import { durableObjectPlaybook } from 'rearview/durable';
 * const rv = createRearview({ store: durableObjectPlaybook(env.PLAYBOOKS, `team:${teamId}`) });
 * ```
 */
export function durableObjectPlaybook<Id>(
  namespace: DurableObjectNamespaceLike<Id>,
  name: string,
  options: PlaybookClientOptions = {},
): PlaybookStore {
  return playbookClient(namespace.get(namespace.idFromName(name)), options);
}

function remoteKv(call: (method: WireMethod, ...args: unknown[]) => Promise<never>): KeyValueStore {
  const readOnly = async (): Promise<never> => {
    throw new StoreError(
      'store_read_only',
      'The kv of a Durable Object playbook client is read-only: write through the playbook methods',
    );
  };
  return {
    kind: 'durable-object-client',
    scope: 'shared',
    get: (key) => call('kv.get', key),
    getMany: (keys) => call('kv.getMany', keys),
    keys: (prefix) => call('kv.keys', prefix ?? ''),
    set: readOnly,
    delete: readOnly,
    update: readOnly,
    setMany: readOnly,
    deleteMany: readOnly,
    updateMany: readOnly,
    transact: readOnly,
  };
}

type Listener = (change: PlaybookChange) => void;

/** One socket per watched playbook, opened on the first listener and closed with the last. */
function changeSockets(
  url: string,
  clientId: string,
  fetcher: FetcherLike,
  options: PlaybookClientOptions,
  warn: (message: string) => void,
) {
  const listeners = new Map<string, Set<Listener>>();
  const sockets = new Map<string, Promise<WebSocketLike | undefined>>();

  const open = async (id: string): Promise<WebSocketLike> => {
    const target = `${url}?id=${encodeURIComponent(id)}`;
    if (options.openSocket) return options.openSocket(target);
    const response = await fetcher.fetch(target, { headers: { upgrade: 'websocket', ...options.headers } });
    const ws = (response as Response & { webSocket?: WebSocketLike | null }).webSocket;
    if (!ws)
      throw new StoreError('store_failed', `Subscribe answered ${response.status} without a WebSocket`);
    ws.accept?.();
    return ws;
  };

  const deliver = (id: string, data: unknown) => {
    let m: Partial<ChangeMessage>;
    try {
      m = JSON.parse(String(data)) as Partial<ChangeMessage>;
    } catch {
      return;
    }
    if (m.type !== 'change' || m.id !== id || typeof m.kind !== 'string') return;
    const change = {
      id,
      kind: m.kind as PlaybookChange['kind'],
      version: Number(m.version) || 0,
      origin: m.client === clientId ? 'local' : 'remote',
    } satisfies PlaybookChange;
    for (const l of listeners.get(id) ?? []) {
      try {
        l(change);
      } catch (err) {
        warn(`playbook subscriber threw: ${describeError(err)}`);
      }
    }
  };

  const connect = (id: string) => {
    const pending = Promise.resolve()
      .then(() => open(id))
      .then((ws) => {
        ws.addEventListener('message', (event) => deliver(id, event.data));
        ws.addEventListener('close', () => {
          if (sockets.get(id) === pending) sockets.delete(id);
        });
        if (!listeners.has(id)) ws.close(1000, 'unsubscribed');
        return ws;
      })
      .catch((err) => {
        sockets.delete(id);
        warn(`playbook change socket of ${id} failed: ${describeError(err)}`);
        return undefined;
      });
    sockets.set(id, pending);
  };

  const disconnect = (id: string) => {
    const pending = sockets.get(id);
    sockets.delete(id);
    void pending?.then((ws) => ws?.close(1000, 'unsubscribed'));
  };

  return {
    subscribe(id: string, listener: Listener): () => void {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      if (!sockets.has(id)) connect(id);
      return () => {
        const s = listeners.get(id);
        s?.delete(listener);
        if (s && !s.size) {
          listeners.delete(id);
          disconnect(id);
        }
      };
    },
    close(): void {
      listeners.clear();
      for (const id of [...sockets.keys()]) disconnect(id);
    },
  };
}

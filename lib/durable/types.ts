/**
 * The parts of the Cloudflare Workers runtime that rearview/durable uses, typed structurally so the
 * package needs neither `@cloudflare/workers-types` nor a `cloudflare:workers` import (which would
 * break every other runtime at load time).
 */
import type { PlaybookStoreOptions } from '../store/index.js';
import type { DurableRedact } from './intake.js';

/**
 * The synchronous key-value API of a SQLite-backed Durable Object (`ctx.storage.kv`).
 *
 * @example
 * ```ts
 * const n = (storage.kv.get('visits') as number | undefined) ?? 0;
 * storage.kv.put('visits', n + 1);
 * ```
 */
export interface SyncKvLike {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  delete(key: string): unknown;
  list(options?: { prefix?: string }): Iterable<[string, unknown]>;
}

/** The part of `ctx.storage` (SQLite-backed Durable Object storage) that {@link durableStorageKv} uses. */
export interface DurableStorageLike {
  readonly kv: SyncKvLike;
  /** Runs `fn` in one SQLite transaction: all its writes commit together, or none when it throws. */
  transactionSync<T>(fn: () => T): T;
}

/** A server- or client-side WebSocket as workerd, browsers and the `ws` package expose it. */
export interface WebSocketLike {
  /** workerd's client ends (from `response.webSocket`) must be accepted before use. */
  accept?(): void;
  send(message: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close' | 'error', listener: (event: unknown) => void): void;
}

/** The Durable Object state (`ctx`) a {@link PlaybookObject} is constructed with. */
export interface DurableObjectStateLike {
  readonly storage: DurableStorageLike;
  /** Hibernation API: the runtime keeps the socket open while the object is evicted from memory. */
  acceptWebSocket(ws: WebSocketLike, tags?: string[]): void;
  getWebSockets(tag?: string): WebSocketLike[];
  /** The tags a socket was accepted with. */
  getTags?(ws: WebSocketLike): string[];
}

/** What `fetch` is called on: a Durable Object stub, a service binding, or anything shaped like one. */
export interface FetcherLike {
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
}

/**
 * The part of a Durable Object namespace binding (`env.PLAYBOOKS`) that rearview/durable uses; `Id`
 * is the runtime's `DurableObjectId`.
 */
export interface DurableObjectNamespaceLike<Id = unknown> {
  idFromName(name: string): Id;
  get(id: Id): FetcherLike;
}

/** Options of a {@link PlaybookObject} (pass them from a subclass constructor). */
export type PlaybookObjectOptions = Omit<PlaybookStoreOptions, 'broadcast' | 'replicaId'> & {
  /**
   * Redaction of the key point texts a write carries, before they are stored: `rearview/redact`
   * options, or `false` when every writer redacts already. Default: on, with the default kinds.
   */
  redact?: DurableRedact;
  /** The largest RPC body read, in bytes; a larger one answers 413 `durable_too_large`. Default 2 MiB. */
  maxBodyBytes?: number;
};

/** A change as pushed to subscribers over the WebSocket. */
export interface ChangeMessage {
  type: 'change';
  /** Commit number within the object: 1, 2, 3… with no gap while the object's storage lives. */
  seq: number;
  id: string;
  kind: string;
  version: number;
  /** The client id sent with the request that made the change (`x-rearview-client`), if any. */
  client?: string;
}

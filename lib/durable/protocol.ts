/**
 * The wire format between {@link playbookClient} and {@link PlaybookObject}: `POST …/rpc` with
 * `{ method, args }` answering `{ result }` or `{ error: { code, message } }`, and `GET …/subscribe`
 * upgraded to a WebSocket that carries {@link ChangeMessage}s. Errors keep their stable `code` across
 * the hop so callers branch on it exactly as with a local store.
 */
import { describeError, errorCode, RearviewError, StoreError } from '../core/index.js';
import type { OpenedPlaybook } from '../store/index.js';

/** Store methods that can be called over the wire (each one a single call on the object's store). */
export const STORE_METHODS = [
  'replicaId',
  'list',
  'open',
  'load',
  'save',
  'applyTags',
  'applyDelta',
  'history',
  'revert',
  'exportDocument',
  'importDocument',
  'exportJson',
  'importJson',
] as const;

/** Read-only key-value calls, for the client's `kv` view. */
export const KV_METHODS = ['kv.get', 'kv.getMany', 'kv.keys'] as const;

/** Extra reads for plain HTTP callers (a browser page with no rearview bundle). */
export const EXTRA_METHODS = ['format'] as const;

export type WireMethod =
  | (typeof STORE_METHODS)[number]
  | (typeof KV_METHODS)[number]
  | (typeof EXTRA_METHODS)[number];

const ALL: readonly string[] = [...STORE_METHODS, ...KV_METHODS, ...EXTRA_METHODS];

export function isWireMethod(value: unknown): value is WireMethod {
  return typeof value === 'string' && ALL.includes(value);
}

/** The request header carrying the calling client's id, echoed in the changes it causes. */
export const CLIENT_HEADER = 'x-rearview-client';

export interface WireError {
  code: string;
  message: string;
  key?: string;
}

export function toWireError(err: unknown): WireError {
  const code = errorCode(err) ?? 'durable_internal';
  // describeError never throws (String() of a value with a throwing toString would).
  const message = describeError(err);
  let key: unknown;
  try {
    key = (err as { key?: unknown } | null)?.key;
  } catch {
    // A thrown value whose `key` getter throws still gets an error reply, without a key.
    key = undefined;
  }
  return typeof key === 'string' ? { code, message, key } : { code, message };
}

/** HTTP status for an error code: the caller's fault (4xx) or the object's (5xx). */
export function statusOf(code: string): number {
  if (code === 'store_not_found') return 404;
  if (code === 'unauthorized') return 401;
  if (code === 'store_replica_conflict' || code === 'store_conflict') return 409;
  if (code === 'store_quota' || code === 'durable_too_large') return 413;
  if (/^(validation|durable_bad|config)|_invalid/.test(code)) return 400;
  return 500;
}

/** Rebuilds a thrown error on the client: store codes as StoreError, others as RearviewError. */
export function fromWireError(wire: WireError, cause?: unknown): RearviewError {
  if (wire.code.startsWith('store_')) return new StoreError(wire.code, wire.message, { cause });
  return new RearviewError(wire.code, wire.message, { cause });
}

/** `open`'s diagnostics are Error objects; they travel as {@link WireError}s. */
export function encodeResult(method: WireMethod, result: unknown): unknown {
  if (method !== 'open') return result;
  const opened = result as OpenedPlaybook;
  return { ...opened, diagnostics: opened.diagnostics.map(toWireError) };
}

export function decodeResult(method: WireMethod, result: unknown): unknown {
  if (method !== 'open') return result;
  const opened = result as Omit<OpenedPlaybook, 'diagnostics'> & { diagnostics: WireError[] };
  return { ...opened, diagnostics: opened.diagnostics.map((d) => fromWireError(d)) };
}

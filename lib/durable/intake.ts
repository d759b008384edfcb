/**
 * What a {@link PlaybookObject} does to a request before any of it reaches storage: the body read
 * under a byte cap (an oversize body answers 413 before it is read whole), and every key point text a
 * write carries redacted, as every other write path of rearview redacts before it stores. The raw
 * `…/rpc` endpoint is reachable by any authenticated HTTP caller, not only by a redacting session.
 */
import { RearviewError } from '../core/index.js';
import { redactOperations, type redactorFor, redactPlaybookTexts } from '../playbook/index.js';
import type { WireMethod } from './protocol.js';

/** The redaction option of a {@link PlaybookObject}: `rearview/redact` options, or `false` for none. */
export type DurableRedact = Parameters<typeof redactorFor>[0];

/**
 * The default cap on an RPC body: a Durable Object's SQLite storage holds at most 2 MB in one value,
 * so a larger write cannot be stored whatever it holds.
 */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

function tooLarge(max: number): RearviewError {
  return new RearviewError('durable_too_large', `Request body is over ${max} bytes`);
}

/**
 * The request body as text, read at most `max` bytes: a `Content-Length` over the cap is refused
 * before reading, and a streamed (chunked) body is cancelled as soon as it passes the cap.
 * Throws `durable_too_large` (HTTP 413).
 *
 * @example
 * ```ts
 * const text = await readBodyCapped(request, 2 * 1024 * 1024);
 * ```
 */
export async function readBodyCapped(request: Request, max: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) throw tooLarge(max);
  const body = request.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  // As Request.json() decodes: UTF-8, a byte order mark dropped, bad bytes replaced.
  return new TextDecoder().decode(bytes);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `doc` with its key point texts redacted when it is an object with sections; else as it is. */
function redactDocument(doc: unknown, redact: DurableRedact): unknown {
  return isObject(doc) && isObject(doc.sections) ? redactPlaybookTexts(doc as never, redact) : doc;
}

/**
 * The arguments of a write call with every key point text redacted: `applyDelta`'s operations,
 * `save`'s playbook, `importDocument`'s document and `importJson`'s text (when it parses; malformed
 * text goes on as it is, for the store's located error). Other calls' arguments are returned as they
 * are; so is everything with `redact: false`. Never throws.
 *
 * @example
 * ```ts
 * redactWriteArgs('applyDelta', ['default', [{ type: 'ADD', section: 'OTHERS', text: 'Mail jane@corp.io' }]], true);
 * // ['default', [{ type: 'ADD', section: 'OTHERS', text: 'Mail [email-1]' }]]
 * ```
 */
export function redactWriteArgs(method: WireMethod, args: unknown[], redact: DurableRedact): unknown[] {
  if (redact === false) return args;
  switch (method) {
    case 'applyDelta': {
      const ops = args[1];
      if (!Array.isArray(ops)) return args;
      // One redactor for the whole delta (a value keeps one placeholder); other operations untouched
      // for the store's own validation.
      const at: number[] = [];
      ops.forEach((op, i) => {
        if (isObject(op) && typeof op.text === 'string') at.push(i);
      });
      const done = redactOperations(at.map((i) => ops[i]) as never, redact);
      const out = [...ops];
      at.forEach((i, k) => {
        out[i] = done[k];
      });
      return [args[0], out, ...args.slice(2)];
    }
    case 'save':
      return [args[0], redactDocument(args[1], redact), ...args.slice(2)];
    case 'importDocument':
      return [redactDocument(args[0], redact), ...args.slice(1)];
    case 'importJson': {
      if (typeof args[0] !== 'string') return args;
      let doc: unknown;
      try {
        doc = JSON.parse(args[0]);
      } catch {
        return args;
      }
      const redacted = redactDocument(doc, redact);
      return redacted === doc ? args : [JSON.stringify(redacted), ...args.slice(1)];
    }
    default:
      return args;
  }
}

/**
 * Reading one source: text, bytes or a stream to a string (one session in memory at a time), the
 * `<private>…</private>` spans dropped before anything else reads it, and the typed error a bad source
 * is reported with.
 */
import {
  type InputLocation,
  RearviewError,
  type RearviewErrorOptions,
  utf8ByteLength,
} from '../core/index.js';
import { isoInstant } from './dates.js';
import type { LearnSource } from './types.js';

/**
 * A source `learn` could not read. `code` says why: `learn_source_invalid` (no content or a bad
 * shape), `learn_source_unreadable` (the stream failed), `learn_source_too_large`,
 * `learn_source_unrecognised` (no transcript format fits) or `learn_source_malformed` (the format
 * broke at `line`/`column`). `learn` never throws it: the source goes to `result.skipped`.
 *
 * @example
 * ```ts
 * new LearnSourceError('learn_source_too_large', 'big.jsonl', 'larger than 256 MiB');
 * ```
 */
export class LearnSourceError extends RearviewError {
  readonly source: string;
  readonly location: InputLocation;

  constructor(
    code: string,
    source: string,
    message: string,
    options: RearviewErrorOptions & InputLocation = {},
  ) {
    const { cause, ...location } = options;
    super(code, `${source}: ${message}`, { cause });
    this.name = 'LearnSourceError';
    this.source = source;
    this.location = location;
  }
}

/**
 * `text` without its `<private>…</private>` spans (tags included, case-insensitive). An unclosed
 * `<private>` hides everything after it: a missing close tag must not leak what the person meant to
 * keep; a stray close tag is kept as text. One left-to-right pass over literal tags: linear on any input.
 *
 * @example
 * ```ts
 * dropPrivate('use pnpm <private>my token</private> always'); // 'use pnpm  always'
 * ```
 */
export function dropPrivate(text: string): string {
  if (typeof text !== 'string') return '';
  // Nearly no text holds a tag: `indexOf` from one `<` to the next settles that several times faster
  // than the regular expression (measured on the shared data).
  if (!hasPrivateTag(text)) return text;
  // Letter classes, not the `i` flag: the same match (no non-ASCII letter folds to these), found faster.
  const re = /<(\/?)[Pp][Rr][Ii][Vv][Aa][Tt][Ee]>/g;
  let m = re.exec(text);
  if (!m) return text;
  let out = '';
  let from = 0;
  let inside = false;
  for (; m !== null; m = re.exec(text)) {
    if (!inside && m[1] === '') {
      out += text.slice(from, m.index);
      inside = true;
    } else if (inside && m[1] === '/') {
      inside = false;
      from = m.index + m[0].length;
    }
  }
  return inside ? out : out + text.slice(from);
}

const PRIVATE = 'private';

/** Whether `text` holds `<private>` or `</private>` in any ASCII case: the tags {@link dropPrivate} drops. */
function hasPrivateTag(text: string): boolean {
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    let j = i + 1;
    if (text.charCodeAt(j) === 0x2f /* / */) j++;
    let k = 0;
    // `| 0x20` folds an ASCII capital to its small letter; only the two cases of a letter fold to it.
    while (k < PRIVATE.length && (text.charCodeAt(j + k) | 0x20) === PRIVATE.charCodeAt(k)) k++;
    if (k === PRIVATE.length && text.charCodeAt(j + k) === 0x3e /* > */) return true;
  }
  return false;
}

/** Default largest source: far above any real session, low enough that one file cannot exhaust memory. */
export const DEFAULT_MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/**
 * The source's date as an ISO string, or undefined when it has none or a bad one. A string is read
 * as ISO 8601 (a time without an offset as UTC), the same in every runtime.
 */
export function modifiedIso(modified: LearnSource['modified']): string | undefined {
  if (modified === undefined || modified === null) return undefined;
  if (typeof modified === 'string') return isoInstant(modified);
  const d = modified instanceof Date ? modified : new Date(modified);
  const t = d.getTime();
  return Number.isFinite(t) ? d.toISOString() : undefined;
}

function isAsyncIterable(v: unknown): v is AsyncIterable<Uint8Array | string> {
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * The text of one source and its size in bytes. Throws {@link LearnSourceError} on a bad source;
 * stops reading (and cancels the stream) when `signal` fires.
 */
export async function readSource(
  source: LearnSource,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ text: string; bytes: number }> {
  const name = typeof source?.name === 'string' ? source.name : '<unnamed>';
  if (source === null || typeof source !== 'object') {
    throw new LearnSourceError('learn_source_invalid', name, 'not a source object');
  }
  if (typeof source.text === 'string') {
    const bytes = utf8ByteLength(source.text);
    if (bytes > maxBytes) throw tooLarge(name, maxBytes);
    return { text: source.text, bytes };
  }
  const decoder = new TextDecoder('utf-8');
  if (source.bytes instanceof Uint8Array || source.bytes instanceof ArrayBuffer) {
    const bytes = source.bytes.byteLength;
    if (bytes > maxBytes) throw tooLarge(name, maxBytes);
    return { text: decoder.decode(source.bytes), bytes };
  }
  const stream = source.stream;
  if (stream === undefined)
    throw new LearnSourceError('learn_source_invalid', name, 'no text, bytes or stream');
  // Byte chunks are kept as they come and decoded once, at the end or before a text chunk: one decode
  // call without `stream` takes the engine's fast UTF-8 path (a streaming decoder never does in Node),
  // and no chunk strings are made only to be joined. Decoding the joined bytes gives the same text as
  // decoding chunk after chunk.
  const parts: string[] = [];
  let chunks: Uint8Array[] = [];
  let bytes = 0;
  const pending = (): Uint8Array => {
    const out = chunks.length === 1 ? chunks[0]! : joinBytes(chunks);
    chunks = [];
    return out;
  };
  const take = (chunk: Uint8Array | string) => {
    if (typeof chunk === 'string') {
      bytes += utf8ByteLength(chunk);
      if (chunks.length) parts.push(decoder.decode(pending(), { stream: true }));
      parts.push(chunk);
    } else if (chunk instanceof Uint8Array) {
      bytes += chunk.byteLength;
      chunks.push(chunk);
    } else
      throw new LearnSourceError(
        'learn_source_invalid',
        name,
        'the stream gave a chunk that is neither text nor bytes',
      );
    if (bytes > maxBytes) throw tooLarge(name, maxBytes);
  };
  try {
    if (typeof (stream as ReadableStream).getReader === 'function') {
      const reader = (stream as ReadableStream<Uint8Array | string>).getReader();
      try {
        for (;;) {
          if (signal?.aborted) break;
          const { done, value } = await reader.read();
          if (done) break;
          take(value);
        }
      } finally {
        reader.cancel().catch(() => {});
      }
    } else if (isAsyncIterable(stream)) {
      for await (const chunk of stream) {
        if (signal?.aborted) break;
        take(chunk);
      }
    } else
      throw new LearnSourceError(
        'learn_source_invalid',
        name,
        'stream is neither a ReadableStream nor an async iterable',
      );
  } catch (err) {
    if (err instanceof LearnSourceError) throw err;
    throw new LearnSourceError('learn_source_unreadable', name, `reading failed: ${errorText(err)}`, {
      cause: err,
    });
  }
  parts.push(chunks.length ? decoder.decode(pending()) : decoder.decode());
  return { text: parts.length === 1 ? parts[0]! : parts.join(''), bytes };
}

/** The chunks one after another in one array. */
function joinBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function tooLarge(name: string, max: number): LearnSourceError {
  return new LearnSourceError('learn_source_too_large', name, `larger than ${max} bytes`);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

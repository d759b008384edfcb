/**
 * Collects what a parser produces: the messages or steps, the invalid items (lenient mode) and the
 * counts of items ignored by design. Strict mode turns the first invalid item into a TranscriptError.
 */
import { TranscriptError } from '../core/index.js';
import type { SkippedItem, SourceRef } from './types.js';

/**
 * Thrown by item converters for an invalid item; the caller turns it into a TranscriptError (strict)
 * or a {@link SkippedItem} (lenient), adding the format and the location.
 *
 * @example
 * ```ts
 * throw new ItemError('message has no role');
 * ```
 */
export class ItemError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ItemError';
  }
}

/**
 * Accumulator shared by all parsers.
 *
 * @example
 * ```ts
 * const sink = new Sink('jsonl', true);
 * sink.invalid('not valid JSON', { line: 3 });
 * sink.skipped; // [{ line: 3, reason: 'not valid JSON' }]
 * ```
 */
export class Sink {
  readonly skipped: SkippedItem[] = [];
  readonly ignoredKinds: Record<string, number> = {};
  ignored = 0;

  constructor(
    readonly format: string,
    readonly lenient: boolean,
  ) {}

  /** Counts an item left out by design (not an error). */
  ignore(kind: string, n = 1): void {
    this.ignoredKinds[kind] = (this.ignoredKinds[kind] ?? 0) + n;
    this.ignored += n;
  }

  /** Reports an invalid item: throws in strict mode, records it in lenient mode. */
  invalid(reason: string, at: SourceRef, cause?: unknown): void {
    if (!this.lenient) throw this.error(reason, at, cause);
    const item: SkippedItem = { reason };
    if (at.line !== undefined) item.line = at.line;
    if (at.index !== undefined) item.index = at.index;
    this.skipped.push(item);
  }

  /**
   * Records a damaged item that the format is known to contain (a fragment of a line spliced into a
   * log) in `skipped`, in strict mode too: one such line must not cost the rest of the session.
   */
  skip(reason: string, at: SourceRef): void {
    const item: SkippedItem = { reason };
    if (at.line !== undefined) item.line = at.line;
    if (at.index !== undefined) item.index = at.index;
    this.skipped.push(item);
  }

  /** A TranscriptError naming this sink's format and `at`. */
  error(reason: string, at: SourceRef = {}, cause?: unknown, code?: string): TranscriptError {
    return transcriptError(this.format, reason, at, cause, code);
  }
}

/**
 * Builds a TranscriptError whose message names the format and the line or index.
 *
 * @example
 * ```ts
 * transcriptError('jsonl', 'Line is not a JSON object', { line: 2 }).message; // '[jsonl] Line is not a JSON object (line 2)'
 * ```
 */
export function transcriptError(
  format: string,
  reason: string,
  at: SourceRef = {},
  cause?: unknown,
  code?: string,
): TranscriptError {
  const options: ConstructorParameters<typeof TranscriptError>[1] = { format };
  if (at.line !== undefined) options.line = at.line;
  if (at.line !== undefined && at.column !== undefined) options.column = at.column;
  if (at.index !== undefined) options.index = at.index;
  if (cause !== undefined) options.cause = cause;
  if (code !== undefined) options.code = code;
  return new TranscriptError(capitalize(reason), options);
}

function capitalize(s: string): string {
  return s.length > 0 ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/**
 * Runs `convert` for one input item and reports an {@link ItemError} through the sink; any other
 * exception propagates.
 *
 * @example
 * ```ts
 * guard(sink, { line: 3 }, () => convertLine(line));
 * ```
 */
export function guard(sink: Sink, at: SourceRef, convert: () => void): void {
  try {
    convert();
  } catch (err) {
    if (err instanceof ItemError) sink.invalid(err.message, at, undefined);
    else throw err;
  }
}

/**
 * `typeof value === 'object'`, not null and not an array.
 *
 * @example
 * ```ts
 * isRecord({}); // true
 * isRecord([]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A short description of a value's type for error messages: `null`, `array`, `number`…
 *
 * @example
 * ```ts
 * typeName([]); // 'array'
 * ```
 */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Input normalisation shared by transcripts and trajectories: bytes are decoded at call time, the BOM
 * is dropped, and empty or binary inputs are rejected before any format is tried.
 */
import { locateJsonError, type TranscriptError } from '../core/index.js';
import { firstNonSpace, isBlank } from './lines.js';
import { transcriptError } from './sink.js';

/** What a parser receives: text, or a value that was already parsed (by the caller or by detection). */
export type Prepared = { kind: 'text'; text: string } | { kind: 'value'; value: unknown };

/** How many leading characters are checked for binary content. */
const BINARY_WINDOW = 64 * 1024;
/** The C0 controls {@link findBinary} counts: all but tab, newlines, form feed and escape. */
const CONTROL = /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/;

/**
 * Turns the caller's input into text or a value, or throws a TranscriptError naming `format`
 * (`auto` when detecting). Strings and byte arrays become text; everything else is a parsed value.
 *
 * @example
 * ```ts
 * prepareInput(new TextEncoder().encode('User: hi'), 'auto'); // { kind: 'text', text: 'User: hi' }
 * ```
 */
export function prepareInput(input: unknown, format: string): Prepared {
  let text: string;
  if (typeof input === 'string') text = input;
  else if (input instanceof Uint8Array) text = new TextDecoder('utf-8').decode(input);
  else if (input instanceof ArrayBuffer) text = new TextDecoder('utf-8').decode(new Uint8Array(input));
  else if (input === undefined || input === null)
    throw transcriptError(format, 'Input is empty', {}, undefined, 'transcript_empty');
  else if (typeof input === 'object') return { kind: 'value', value: input };
  else throw transcriptError(format, `Expected text, bytes, an array or an object, got ${typeof input}`);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (firstNonSpace(text) >= text.length) {
    throw transcriptError(format, 'Input is empty', { line: 1 }, undefined, 'transcript_empty');
  }
  const binary = findBinary(text);
  if (binary) throw binary(format);
  return { kind: 'text', text };
}

/**
 * Looks for binary content in the first 64 KB: any NUL, or more than 1 in 32 characters being C0
 * control characters other than tab, newlines, form feed and escape (ANSI colours are allowed).
 */
function findBinary(text: string): ((format: string) => TranscriptError) | undefined {
  // Nearly every input has no such character at all: one regex test settles it before the count.
  if (!CONTROL.test(text.length > BINARY_WINDOW ? text.slice(0, BINARY_WINDOW) : text)) return undefined;
  const end = Math.min(text.length, BINARY_WINDOW);
  let controls = 0;
  let firstAt = -1;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c || c === 0x1b) continue;
    if (firstAt < 0) firstAt = i;
    if (c === 0) return (format) => binaryError(format, text, i, 'a NUL byte');
    controls++;
  }
  if (controls * 32 > end) {
    return (format) => binaryError(format, text, firstAt, `${controls} control characters`);
  }
  return undefined;
}

function binaryError(format: string, text: string, at: number, what: string): TranscriptError {
  return transcriptError(
    format,
    `Input looks binary (${what}), not a transcript`,
    { line: lineOf(text, at) },
    undefined,
    'transcript_binary',
  );
}

/**
 * 1-based line number of character `at`.
 *
 * @example
 * ```ts
 * lineOf('a\nb', 2); // 2
 * ```
 */
export function lineOf(text: string, at: number): number {
  let line = 1;
  let i = text.indexOf('\n');
  while (i >= 0 && i < at) {
    line++;
    i = text.indexOf('\n', i + 1);
  }
  return line;
}

/** A failed {@link tryJson}: why, in the same words in every runtime, and where in `text`. */
export interface JsonFailure {
  ok: false;
  /** `unexpected "}"`, `unexpected end of input`. */
  message: string;
  /** 1-based line and column of the offending character in the text given to {@link tryJson}. */
  line: number;
  column: number;
}

/**
 * `JSON.parse` that reports failure instead of throwing. The engine's own message is not used: it
 * words and places the error differently in every runtime (an offset here, a line there), and it
 * would add a second location beside the one the error carries.
 *
 * @example
 * ```ts
 * tryJson('{"a":1}'); // { ok: true, value: { a: 1 } }
 * tryJson('{\n  "a": 1,\n}'); // { ok: false, message: 'unexpected "}"', line: 3, column: 1 }
 * ```
 */
export function tryJson(text: string): { ok: true; value: unknown } | JsonFailure {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const { reason, line, column } = locateJsonError(text);
    return { ok: false, message: reason, line, column };
  }
}

/**
 * Where a failed {@link tryJson} broke, as a location for an error.
 *
 * @example
 * ```ts
 * failedAt({ ok: false, message: 'unexpected end of input', line: 2, column: 5 }); // { line: 2, column: 5 }
 * ```
 */
export function failedAt(failure: JsonFailure): { line: number; column: number } {
  return { line: failure.line, column: failure.column };
}

/**
 * The text's first non-blank line and its number, or undefined.
 *
 * @example
 * ```ts
 * firstLine('\n\n{"a":1}\n'); // { line: '{"a":1}', lineNumber: 3 }
 * ```
 */
export function firstLine(text: string): { line: string; lineNumber: number } | undefined {
  let start = 0;
  let n = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    n++;
    const line = text.slice(start, end);
    if (!isBlank(line)) return { line, lineNumber: n };
    start = end + 1;
  }
  return undefined;
}

/**
 * Parses the whole text as JSON when it starts like JSON (`{` or `[`), else returns undefined.
 * Only failing text starting with `{` or `[` reaches the JSONL or text paths.
 *
 * @example
 * ```ts
 * parseWholeJson(' [1]'); // { ok: true, value: [1] }
 * ```
 */
export function parseWholeJson(text: string): ReturnType<typeof tryJson> | undefined {
  const i = firstNonSpace(text);
  const c = text.charCodeAt(i);
  if (c !== 0x7b && c !== 0x5b) return undefined;
  return tryJson(text);
}

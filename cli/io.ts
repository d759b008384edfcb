// What the CLI reads and writes: the input (a file with a progress bar, or stdin), and every write to
// stdout or stderr, which goes through `write` (one place to filter what leaves the process).
import { readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { InputError } from './args.js';

const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;

/**
 * Where the CLI writes: process.stdout and process.stderr, or a test's sink.
 * @example
 * ```ts
 * const sink: Writable = { write: (s) => (out += s) };
 * ```
 */
export interface Writable {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** What the CLI reads: stdin, a stream of strings or byte chunks. */
export type Readable = AsyncIterable<string | Uint8Array> & { isTTY?: boolean };

/**
 * The streams and environment `main` runs with; each defaults to the process's own.
 * @example
 * ```ts
 * await main(['reflect', 'chat.json'], { stdout: sink, stderr: sink, env: {} });
 * ```
 */
export interface Io {
  stdout?: Writable;
  stderr?: Writable;
  stdin?: Readable;
  env?: Record<string, string | undefined>;
}

/** {@link Io} with every stream and the environment filled in. */
export type ResolvedIo = Required<Io>;

/** A progress bar on stderr; `stage` redraws it at 100 % with the stage's name. */
export interface ProgressBar {
  update(done: number, stage: string, force?: boolean): void;
  stage(stage: string): void;
  end(): void;
}

// Bidi controls (embeddings, overrides, isolates, marks): printed raw, U+202E reverses what follows on
// the terminal, so a file name or an insight could show other text than it holds.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** rearview/redact's redactText once the built library is loaded; until then text passes as it is. */
let redactText: ((text: string) => string) | undefined;

/**
 * Sets the redaction every later write applies (rearview/redact's `redactText` of the built library).
 * @example
 * ```ts
 * useRedactor(lib.redact.redactText);
 * ```
 */
export function useRedactor(fn: ((text: string) => string) | undefined): void {
  redactText = fn;
}

/**
 * Every printed line goes through here: secrets redacted and bidi controls removed — or, in JSON,
 * escaped so the document still parses to the same value.
 * @example
 * ```ts
 * safeOut('a\u202eb'); // 'ab'
 * safeOut('"a\u202eb"', { json: true }); // '"a\\u202eb"'
 * ```
 */
export function safeOut(
  text: string,
  how: { redactText?: ((t: string) => string) | undefined; json?: boolean } = {},
): string {
  const redacted = how.redactText ? how.redactText(String(text)) : String(text);
  return redacted.replace(BIDI, (c) =>
    how.json ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : '',
  );
}

/**
 * Every write of the CLI, to stdout or stderr: insights quote transcript turns, keys included, so
 * nothing leaves unredacted.
 * @example
 * ```ts
 * write(process.stdout, `${printableJson(result)}\n`, true);
 * ```
 */
export function write(stream: Writable, text: string, json = false): void {
  stream.write(safeOut(text, { redactText, json }));
}

/**
 * The package's version, from the package.json two folders up (dist/cli/ → the package it ships in).
 * @example
 * ```ts
 * version(); // '0.1.0'
 * ```
 */
export function version(): string {
  return (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
}

// Terminal control sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC
// strings (ESC P/X/^/_ … ST) and any other ESC sequence, never past the end of a line (an unterminated
// one must not swallow the rest of the report); then every C0 control but newline and tab, DEL and C1
// (an 8-bit CSI is harmless once its introducer is gone). Transcripts are untrusted: printed raw, they
// could retitle or clear the terminal, move the cursor over earlier output, or make it answer back.
const TERMINAL_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text safe to print on a terminal: control sequences and control characters removed.
 * @example
 * ```ts
 * printable('\x1b]0;pwned\x07ok'); // 'ok'
 * ```
 */
export function printable(text: unknown): string {
  return String(text).replace(TERMINAL_SEQUENCE, '').replace(CONTROL, '');
}

/**
 * JSON safe to print on a terminal: JSON.stringify escapes C0 but leaves DEL and C1 raw (0x9B is a
 * CSI on 8-bit terminals), so those are escaped too; the document still parses to the same value.
 * @example
 * ```ts
 * printableJson({ text: '\x9b' }); // '{\n  "text": "\\u009b"\n}'
 * ```
 */
export function printableJson(value: unknown): string {
  return printableJsonText(JSON.stringify(value, null, 2));
}

/**
 * {@link printableJson} for a document already serialized (JSON syntax is ASCII, so DEL and C1 can
 * only be inside its strings, where the escape keeps the value).
 * @example
 * ```ts
 * printableJsonText('{"text":"\x9b"}'); // '{"text":"\\u009b"}'
 * ```
 */
export function printableJsonText(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A progress bar on stderr, redrawn at most every 100 ms. */
function progressBar(stream: Writable, total: number, enabled: boolean): ProgressBar {
  let last = 0;
  let shown = false;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const draw = (done: number, stage: string, force = false) => {
    if (!enabled) return;
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    shown = true;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const full = Math.round(ratio * width);
    const pct = String(Math.round(ratio * 100)).padStart(3);
    write(
      stream,
      `\r[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${pct}% ${mb(done)}/${mb(total)} MB ${stage.padEnd(12)}`,
    );
  };
  return {
    update: draw,
    stage: (stage: string) => draw(total, stage, true),
    end() {
      if (shown) write(stream, '\n');
    },
  };
}

/**
 * Reads a file (with progress) or stdin into one UTF-8 string.
 * @example
 * ```ts
 * const { text, bar } = await readInput('chat.json', io, undefined);
 * ```
 */
export async function readInput(
  file: string | undefined,
  io: ResolvedIo,
  wantProgress: boolean | undefined,
): Promise<{ text: string; bytes: number; bar: ProgressBar | null }> {
  if (file === '-' || file === undefined) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return {
      text: decode(Buffer.concat(chunks)),
      bytes: chunks.reduce((n, c) => n + c.length, 0),
      bar: null,
    };
  }
  // An empty argument (an unset shell variable, a glob that matched nothing quoted) names no file.
  if (file === '') throw new InputError('an empty file name: give a path, or - to read stdin');
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory())
      throw new InputError(`${file}: is a directory (\`rearview learn ${file}\` reads a folder of sessions)`);
    size = st.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${file}: cannot read the file (${errorCode(err)})`);
  }
  const show = size > PROGRESS_MIN_BYTES && (wantProgress ?? io.stderr.isTTY === true);
  const bar = progressBar(io.stderr, size, show);
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(buf, offset, Math.min(1 << 20, size - offset), offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      bar.update(offset, 'reading');
    }
    return { text: decode(buf.subarray(0, offset)), bytes: offset, bar };
  } finally {
    await handle.close();
  }
}

function decode(buf: Uint8Array): string {
  return new TextDecoder('utf-8').decode(buf);
}

/**
 * A failed system call's code (`ENOENT`), else the error's message: what a "cannot read" line names.
 * @example
 * ```ts
 * errorCode(Object.assign(new Error('no such file'), { code: 'ENOENT' })); // 'ENOENT'
 * ```
 */
export function errorCode(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return `${e.code ?? e.message}`;
}

// What the CLI reads and writes: the input (a file with a progress bar, or stdin), and every write to
// stdout or stderr, which goes through `write` (one place to filter what leaves the process).
import { readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { InputError } from './args.mjs';

const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;

/**
 * @typedef {{ write(chunk: string): unknown, isTTY?: boolean }} Writable
 * @typedef {{
 *   stdout?: Writable, stderr?: Writable, stdin?: NodeJS.ReadableStream & { isTTY?: boolean },
 *   env?: Record<string, string | undefined>,
 * }} Io
 */

// Bidi controls (embeddings, overrides, isolates, marks): printed raw, U+202E reverses what follows on
// the terminal, so a file name or an insight could show other text than it holds.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** rearview/redact's redactText once the built library is loaded; until then text passes as it is. */
let redactText;

/**
 * Sets the redaction every later write applies (rearview/redact's `redactText` of the built library).
 * @param {((text: string) => string) | undefined} fn
 */
export function useRedactor(fn) {
  redactText = fn;
}

/**
 * Every printed line goes through here: secrets redacted and bidi controls removed — or, in JSON,
 * escaped so the document still parses to the same value.
 * @param {string} text
 * @param {{ redactText?: (t: string) => string, json?: boolean }} [how]
 */
export function safeOut(text, how = {}) {
  const redacted = how.redactText ? how.redactText(String(text)) : String(text);
  return redacted.replace(BIDI, (c) =>
    how.json ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : '',
  );
}

/**
 * Every write of the CLI, to stdout or stderr: insights quote transcript turns, keys included, so
 * nothing leaves unredacted.
 */
export function write(stream, text, json = false) {
  stream.write(safeOut(text, { redactText, json }));
}

/** The package's version, from the package.json next to this directory (the one it ships in). */
export function version() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
}

// Terminal control sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC
// strings (ESC P/X/^/_ … ST) and any other ESC sequence, never past the end of a line (an unterminated
// one must not swallow the rest of the report); then every C0 control but newline and tab, DEL and C1
// (an 8-bit CSI is harmless once its introducer is gone). Transcripts are untrusted: printed raw, they
// could retitle or clear the terminal, move the cursor over earlier output, or make it answer back.
const TERMINAL_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Text safe to print on a terminal: control sequences and control characters removed. */
export function printable(text) {
  return String(text).replace(TERMINAL_SEQUENCE, '').replace(CONTROL, '');
}

/**
 * JSON safe to print on a terminal: JSON.stringify escapes C0 but leaves DEL and C1 raw (0x9B is a
 * CSI on 8-bit terminals), so those are escaped too; the document still parses to the same value.
 */
export function printableJson(value) {
  return JSON.stringify(value, null, 2).replace(
    /[\x7f-\x9f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A progress bar on stderr, redrawn at most every 100 ms. */
function progressBar(stream, total, enabled) {
  let last = 0;
  let shown = false;
  const mb = (n) => (n / 1e6).toFixed(1);
  const draw = (done, stage, force = false) => {
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
    stage: (stage) => draw(total, stage, true),
    end() {
      if (shown) write(stream, '\n');
    },
  };
}

/** Reads a file (with progress) or stdin into one UTF-8 string. */
export async function readInput(file, io, wantProgress) {
  if (file === '-' || file === undefined) {
    const chunks = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return {
      text: decode(Buffer.concat(chunks)),
      bytes: chunks.reduce((n, c) => n + c.length, 0),
      bar: null,
    };
  }
  let size;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new InputError(`${file}: is a directory`);
    size = st.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${file}: cannot read the file (${err.code ?? err.message})`);
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

function decode(buf) {
  return new TextDecoder('utf-8').decode(buf);
}

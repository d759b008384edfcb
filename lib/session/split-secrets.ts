/**
 * Keys split across two messages. Each message is redacted on its own, so a key whose first half ends
 * one message and whose second half starts the next is found in neither: both halves would be stored,
 * sent to the Reflector and printed. `observe` redacts the join of each message with the one before it
 * (and with the previous user turn) and keeps the halves of every key that crosses the boundary; the
 * session's redaction then treats each half as a literal value of that key's kind.
 *
 * @module
 */
import type { RedactOptions, RedactPattern, redact } from '../redact/index.js';

/**
 * The redactor's finder (`rearview/redact`'s `redact`), passed in by the facade that redacts anyway:
 * imported here, it would pull every secret kind into bundles that only read lessons.
 */
export type SecretFinder = typeof redact;

/**
 * Characters read on each side of a boundary: longer than any key the redactor bounds (1 KiB), so a
 * key crossing it is seen whole, and constant, so a message costs the same whatever its length.
 */
const WINDOW = 1100;

/**
 * Halves shorter than this are not kept: three characters of a key tell nothing, while a literal that
 * short would replace common words throughout the session.
 */
const MIN_HALF = 4;

/** The end of a message's text that a key crossing into the next message can start in. */
export function tailOf(text: string): string {
  return text.length > WINDOW ? text.slice(-WINDOW) : text;
}

/** A capital then a small letter: a sentence's first word ("Thanks", "Shouldn't"). */
const SENTENCE_START = /^[A-Z][a-z]/;
/** Small letters after at most one capital: a word ("Thanks", "please"), not the rest of a key. */
const WORD = /^[A-Z]?[a-z]+$/;

/**
 * Whether a value found across the boundary at `at` is an artefact of joining two messages with no
 * space, not a key cut in two: the part before the boundary is already a whole value of the same kind
 * ("… the key sk-…" or "… to jane@corp.io", then "Thanks": the value is redacted in its own message, and
 * "Thanks" is no half of it), or an address runs on into a sentence's first word ("A@b." then
 * "Shouldn't": domain labels are not written as capitalised words). Halves kept by mistake would replace
 * common words in everything the session writes. What runs on after the boundary must read as a word:
 * a key cut where its first part is already a valid key (`sk-ant-api03-…` is one at 27 characters)
 * goes on in letters and digits of both cases, and its second half is a half to hide.
 */
function joinedByAccident(
  joined: string,
  start: number,
  at: number,
  end: number,
  kind: string,
  find: SecretFinder,
  options: RedactOptions | undefined,
): boolean {
  if (kind === 'email' && SENTENCE_START.test(joined.slice(at, at + 2))) return true;
  if (!WORD.test(joined.slice(at, end))) return false;
  const before = joined.slice(start, at);
  const alone = find(before, { ...options, includeOriginals: true });
  return alone.findings.some((g) => g.kind === kind && g.original === before);
}

/**
 * Adds to `out` the halves of every value the redactor finds across the join of `before` (the end of
 * the previous message) and `text` (the new one) that starts before the boundary and ends after it.
 */
export function collectSplitSecrets(
  before: string,
  text: string,
  options: RedactOptions | undefined,
  out: RedactPattern[],
  redact: SecretFinder,
): void {
  if (!before || !text) return;
  const head = text.length > WINDOW ? text.slice(0, WINDOW) : text;
  const joined = before + head;
  const at = before.length;
  const found = redact(joined, { ...options, includeOriginals: true });
  if (!found.count) return;
  for (const f of found.findings) {
    const value = f.original;
    if (!value) continue;
    // Every occurrence of the value that starts before the boundary and ends after it.
    for (let i = joined.indexOf(value, Math.max(0, at - value.length + 1)); i !== -1 && i < at; ) {
      if (
        i + value.length > at &&
        !joinedByAccident(joined, i, at, i + value.length, f.kind, redact, options)
      ) {
        for (const half of [joined.slice(i, at), joined.slice(at, i + value.length)]) {
          if (half.trim().length >= MIN_HALF && !out.some((p) => p.pattern === half)) {
            out.push({ kind: f.kind, pattern: half });
          }
        }
      }
      i = joined.indexOf(value, i + 1);
    }
  }
}

/**
 * The session's `redact` option with the halves of split keys as literal patterns of their kinds.
 * `false` stays `false` (the caller turned redaction off).
 */
export function withSplitSecrets(
  redactOption: boolean | RedactOptions,
  halves: readonly RedactPattern[],
): boolean | RedactOptions {
  if (redactOption === false || !halves.length) return redactOption;
  const options = redactOption === true ? {} : redactOption;
  // Longest first: a half that contains another one is replaced whole.
  const sorted = [...halves].sort((a, b) => String(b.pattern).length - String(a.pattern).length);
  return { ...options, patterns: [...(options.patterns ?? []), ...sorted] };
}

/**
 * An address's span, read back from its `@` by the scanner: the local part is walked over by hand so
 * that a long run of local-part characters is never re-scanned from each of its positions.
 */
import { BACKSLASH, ESCAPE_LETTERS, firstAtOrAfter } from './escapes.js';
import { isLocalChar } from './kinds.js';
import type { Span } from './rules.js';

/**
 * Where the skeleton dropped a placeholder wedged into a key, for the scan in progress (see
 * {@link withWedges}). A module variable rather than a parameter through every function of the scan
 * between `scan` and {@link emailSpan}; the scan is synchronous, so no other scan can see it.
 */
let wedgesNow: readonly number[] | undefined;

/**
 * Runs `scan` with `wedges` (ascending positions in the scanned text where a placeholder was dropped)
 * visible to {@link emailSpan}: an address never reaches across one.
 *
 * @example
 * ```ts
 * withWedges([3], () => 1); // 1
 * ```
 */
export function withWedges<T>(wedges: readonly number[] | undefined, scan: () => T): T {
  wedgesNow = wedges !== undefined && wedges.length > 0 ? wedges : undefined;
  try {
    return scan();
  } finally {
    wedgesNow = undefined;
  }
}

/**
 * Walks back from `@` over the local part; `undefined` when it is empty or `git` (an SSH remote). The
 * whole run is taken, however long: a run cut at 64 characters would leave its head in clear, and what
 * a second pass sees before the placeholder would differ from what this one saw.
 *
 * @example
 * ```ts
 * emailSpan('mail jane@x.io', 9, 14, 0); // { start: 5, valueStart: 5, end: 14, kind: 'email' }
 * ```
 */
export function emailSpan(text: string, at: number, end: number, prevEnd: number): Span | undefined {
  if (wedgesNow !== undefined) {
    // A placeholder was dropped here (`sk-ant-[key-1]git@github.com`, `x@a.bAKIA[num-1]c`): the local
    // part starts after the last one before `@`, and a domain cut by one is no address. Reading across
    // it would find an address that was not in the text the placeholder was written into, so a second
    // pass would rewrite the placeholder.
    const w = firstAtOrAfter(wedgesNow, prevEnd + 1);
    if (w < wedgesNow.length) {
      const after = firstAtOrAfter(wedgesNow, at + 1);
      if (after < wedgesNow.length && wedgesNow[after]! < end) return undefined;
      if (after > w) prevEnd = Math.max(prevEnd, wedgesNow[after - 1]!);
    }
  }
  let start = at;
  while (start > prevEnd && isLocalChar(text.charCodeAt(start - 1))) start--;
  // `\njane@x.io` in escaped text (JSON, logs): the `n` belongs to the escape, not to the address.
  if (start < at && start > prevEnd && text.charCodeAt(start - 1) === BACKSLASH) {
    let slashes = 0;
    for (let i = start - 1; i >= prevEnd && text.charCodeAt(i) === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 1 && ESCAPE_LETTERS.includes(text.charAt(start))) start++;
  }
  if (start === at) return undefined;
  if (at - start === 3 && text.startsWith('git', start)) return undefined;
  // `\\n@pytest.fixture` in text escaped twice (JSON inside JSON): a lone escape letter after
  // backslashes is the end of a line break, not someone's address.
  if (
    at - start === 1 &&
    start > prevEnd &&
    text.charCodeAt(start - 1) === BACKSLASH &&
    ESCAPE_LETTERS.includes(text.charAt(start))
  )
    return undefined;
  return { start, valueStart: start, end, kind: 'email' };
}

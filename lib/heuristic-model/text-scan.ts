/**
 * Scans the reader runs by hand over a reply or a turn, each the same answer as the regular
 * expression it stands for (property tests hold them to it): read backwards from the end, in place,
 * where the regex would start at every position of the text.
 */

/**
 * @internal `\s` of a regular expression (and what `trim` removes): white space and line terminators,
 * by UTF-16 code unit.
 *
 * @example
 * ```ts
 * [isSpace(0x20), isSpace(0x3000), isSpace(0x85)]; // [true, true, false]
 * ```
 */
export const isSpace = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  (c >= 0x80 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));

/**
 * @internal Whether `s.slice(from, to)` matches `/\?\s*\S{0,3}$/` (ends with a question mark, then
 * at most three characters that are not white space, such as `?)` or `? 🙂`), read backwards from
 * `to` without copying the text or running a regex from its start.
 *
 * @example
 * ```ts
 * endsAsking('Shall I go on? ok', 0, 17); // true
 * ```
 */
export function endsAsking(s: string, from: number, to: number): boolean {
  let j = to;
  // The last characters that are not white space: a `?` among the last four of them ends the match.
  while (j > from) {
    const c = s.charCodeAt(j - 1);
    if (isSpace(c)) break;
    if (c === 63) return true;
    if (to - j === 3) return false;
    j--;
  }
  if (j === from) return false;
  // Then white space, right after a `?`.
  while (j > from && isSpace(s.charCodeAt(j - 1))) j--;
  return j > from && s.charCodeAt(j - 1) === 63;
}

/**
 * @internal Whether the line `s.slice(from, to)` (no line break in it) is pasted or quoted: the same
 * answer as `PASTED.test(line)` of `features.ts` (`reader-scan` asks it), read from the line's first characters.
 *
 * @example
 * ```ts
 * pastedLine('    x = 1', 0, 9); // true
 * ```
 */
export function pastedLine(s: string, from: number, to: number): boolean {
  let k = from;
  while (k < to && isSpace(s.charCodeAt(k))) k++;
  if (k - from >= 4 || (from < to && s.charCodeAt(from) === 9)) return true;
  if (k === to) return false;
  const c = s.charCodeAt(k);
  // `[{}[\]<|]`, `>`: one character; then the words that open a prompt, a frame or a traceback.
  if (c === 62 || c === 123 || c === 125 || c === 91 || c === 93 || c === 60 || c === 124) return true;
  if (c === 36) return k + 1 < to && s.charCodeAt(k + 1) === 32;
  if (c === 70) return k + 6 <= to && s.startsWith('File "', k);
  if (c === 84) return k + 9 <= to && s.startsWith('Traceback', k);
  return k > from && c === 97 && k + 3 < to && s.startsWith('at ', k) && !isSpace(s.charCodeAt(k + 3));
}

/** Han, kana and Hangul (`CJK_RUNS` of `reader-features`). */
const cjk = (c: number): boolean =>
  (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af);
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
/** Per UTF-16 code unit from 128: 0 not yet asked, -1 left to `baseParts`, 1 not a word character, else its lower case + 2. */
let units: Int32Array | undefined;

/**
 * @internal A non-ASCII code unit as the strings path reads it after `toLowerCase()`: a word character
 * (`[\p{L}\p{N}_]`) with its lower case + 2, 1 for another character, or -1 for one it must read
 * itself: a surrogate, a combining accent (NFC), a Han, kana or Hangul character (CJK runs), and
 * the capitals whose lower case is not one code unit of its own (`İ`) or depends on the next
 * character (`Σ`, final sigma).
 *
 * @example
 * ```ts
 * [unitClass(0xc9), unitClass(0x2014), unitClass(0x3a3)]; // [0xe9 + 2, 1, -1]: É, —, Σ
 * ```
 */
export function unitClass(c: number): number {
  units ??= new Int32Array(0x10000);
  let k = units[c]!;
  if (k !== 0) return k;
  const l = String.fromCharCode(c).toLowerCase();
  const lc = l.charCodeAt(0);
  if (
    l.length !== 1 ||
    c === 0x3a3 ||
    (c >= 0xd800 && c <= 0xdfff) ||
    (c >= 0x300 && c <= 0x36f) ||
    cjk(c) ||
    cjk(lc)
  )
    k = -1;
  else k = WORD_CHAR.test(l) ? lc + 2 : 1;
  units[c] = k;
  return k;
}

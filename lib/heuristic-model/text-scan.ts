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

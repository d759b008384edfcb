/**
 * Line splitting without regular expressions: one `indexOf('\n')` per line, so a 50 MB JSONL costs
 * one pass and no backtracking. `\r\n` endings are accepted.
 */

/**
 * Calls `fn(line, lineNumber)` for every line of `text` (1-based numbers, `\r` stripped). A trailing
 * newline does not produce an extra line. Return `false` from `fn` to stop early.
 *
 * @example
 * ```ts
 * forEachLine('a\r\nb\n', (line, n) => console.log(n, line)); // 1 'a', 2 'b'
 * ```
 */
export function forEachLine(
  text: string,
  fn: (line: string, lineNumber: number) => boolean | undefined,
): void {
  const len = text.length;
  let start = 0;
  let n = 0;
  while (start < len) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = len;
    n++;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
    if (fn(text.slice(start, stop), n) === false) return;
    start = end + 1;
  }
}

/**
 * True when `line` holds only spaces, tabs or other JSON/ASCII whitespace.
 *
 * @example
 * ```ts
 * isBlank('  \t'); // true
 * ```
 */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (
      c !== 0x20 &&
      c !== 0x09 &&
      c !== 0x0d &&
      c !== 0x0a &&
      c !== 0x0b &&
      c !== 0x0c &&
      c !== 0xa0 &&
      c !== 0xfeff
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Index of the first non-whitespace character of `text` at or after `from`.
 *
 * @example
 * ```ts
 * firstNonSpace('  {'); // 2
 * ```
 */
export function firstNonSpace(text: string, from = 0): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0xfeff) break;
    i++;
  }
  return i;
}

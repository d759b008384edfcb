/** Character classes the link finder and its Windows paths share. */

/** Whether `c` is in `[\w-]`. */
export function isNameChar(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/** Whether `c` is in `\w`. */
export function isWordChar(c: number): boolean {
  return c !== 0x2d && isNameChar(c);
}

/**
 * Whether a link may start after `c`: the start of the text, white space, a quote, a bracket, `=` or `:`
 * — what `PATH_OR_FILE`'s lookbehind lets a path start after, and `[` (a Markdown label), without the
 * backslash (an escape's letter, `escapedLetter`'s case).
 */
export function opensLink(c: number): boolean {
  return (
    Number.isNaN(c) ||
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x60 ||
    c === 0x27 ||
    c === 0x22 ||
    c === 0x28 ||
    c === 0x5b ||
    c === 0x3d ||
    c === 0x3a
  );
}

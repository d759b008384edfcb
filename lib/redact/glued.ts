/**
 * Where a key with a fixed start may begin: after a boundary, glued to the end of a short word or
 * number (`idAKIA…`, `MY_ghp_…`, `1sk-ant-…`), or right after another key (`AKIA…npm_…`: see
 * vendor-scan.ts and `keyBefore` in matches.ts).
 *
 * A short start inside a long run of word characters is usually part of it (a hash, a base64 blob),
 * so a kind found by its scan refuses it after 16 or more word characters. A plain start of
 * {@link DISTINCT_PREFIX} or more characters (`sk-ant-`, `github_pat_`) is no chance substring of a run
 * and is found after any run (an AWS key id glued before `sk-ant-…` left both in clear: found by
 * `npm run fuzz`); it occurs at most once per that many characters, and an attempt costs at most the
 * key's bounded length, so the scan stays linear.
 */

/** Length of a plain prefix that is read after any run of word characters. */
const DISTINCT_PREFIX = 7;

/**
 * Whether a fixed start is long and plain enough to be found after any run of word characters.
 *
 * @example
 * ```ts
 * isDistinct('sk-ant-'); // true
 * isDistinct('npm_'); // false
 * ```
 */
export function isDistinct(prefix: string): boolean {
  return prefix.length >= DISTINCT_PREFIX && /^[\w-]+$/.test(prefix);
}

/**
 * A kind's scan source that refuses a short start after 16 or more word characters (a look back
 * checks after the start, so the engine still skips to the start's first character).
 *
 * @example
 * ```ts
 * new RegExp(glued('[Bb]earer', ' [a-z0-9]{16,}')).test(`${'x'.repeat(16)}Bearer 0123456789abcdef`); // false
 * ```
 */
export function glued(prefix: string, rest: string): string {
  if (isDistinct(prefix)) return `${prefix}${rest}`;
  return `(?:${prefix})(?<![A-Za-z0-9_-]{16}(?:${prefix}))${rest}`;
}

/**
 * Letters, digits, `_` and `-`: the characters of a run a short start is refused in.
 *
 * @example
 * ```ts
 * isWordDash('_'.charCodeAt(0)); // true
 * ```
 */
export function isWordDash(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/**
 * `_` or `-`: the one character that may stand between two keys glued in a row (`AKIA…_npm_…`), or end
 * a key of its own (`sq0atp-…-`).
 *
 * @example
 * ```ts
 * isJoiner('-'.charCodeAt(0)); // true
 * ```
 */
export function isJoiner(c: number): boolean {
  return c === 95 || c === 45;
}

/**
 * The characters of a key that may end where another starts: {@link isWordDash}'s, and `.`, `+`, `/`,
 * `=`, `~`, `|` (`SG.….…`, `…Q~…`, `1234…|…`).
 *
 * @example
 * ```ts
 * isKeyChar('~'.charCodeAt(0)); // true
 * ```
 */
export function isKeyChar(c: number): boolean {
  return isWordDash(c) || c === 46 || c === 43 || c === 47 || c === 61 || c === 126 || c === 124;
}

/**
 * Whether a start at `start` comes after 16 or more word characters, and `starts` (a sticky expression
 * of a kind's short fixed starts) matches there: what {@link glued}'s look back refuses.
 *
 * @example
 * ```ts
 * deepStart(`${'a'.repeat(16)}npm_x`, 16, /npm_/y); // true
 * ```
 */
export function deepStart(text: string, start: number, starts: RegExp): boolean {
  if (start < 16) return false;
  for (let i = start - 16; i < start; i++) if (!isWordDash(text.charCodeAt(i))) return false;
  starts.lastIndex = start;
  return starts.test(text);
}

/**
 * Escapes as word boundaries. In JSON text and log lines a key often follows an escape (`…\nghp_…`):
 * the letter or digit that ends the escape is not part of the key's word. The scanner tries the kinds
 * without their lookbehinds at the end of each escape, as it does at the end of a match.
 */

export const BACKSLASH = 92;
/** Letters that end a one-letter escape (`\n`, `\t`, …): `\njane@x.io` is `jane@x.io`. */
export const ESCAPE_LETTERS = 'nrtbfv';

/**
 * The fixed starts of the kinds that refuse to start inside a word (`sk-`, `ghp_`, `Bearer`, `AKIA`, …);
 * the others are found by the scan itself, or start with a name followed by `=` or `:`.
 */
const KEY_START =
  /(?:[sr]k[-_]|gh[pousr]_|github_pat_|xox|xapp-|A(?:KIA|SIA|Iza)|eyJ|[Bb]earer|BEARER|whsec_)/y;

/** Letters, digits and `_.+-`: the characters of a setting's name or a URL scheme. */
function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 46 ||
    c === 43 ||
    c === 45
  );
}

/**
 * Whether any kind could start at the end of an escape: a kind with a fixed start, or a run of name
 * characters followed by `=`, `:` (a setting, a URL scheme) or a quote. Most escapes in JSON text are
 * followed by prose, and trying every kind after each of them would halve the scan's speed.
 */
export function worthTrying(text: string, at: number): boolean {
  KEY_START.lastIndex = at;
  if (KEY_START.test(text)) return true;
  let i = at;
  while (i < at + 300 && isNameChar(text.charCodeAt(i))) i++;
  let c = text.charCodeAt(i);
  if (c === BACKSLASH) c = text.charCodeAt(++i);
  if (c === 34 || c === 39) c = text.charCodeAt(++i); // a closing quote
  while (c === 32 || c === 9) c = text.charCodeAt(++i);
  return c === 61 || c === 58; // `=` or `:`
}

/**
 * The next escape end, remembered: the scan only moves forward, so each part of the text is searched
 * for backslashes once, not once per match.
 */
export class EscapeCursor {
  /** The last answer; -1 once there is none further, -2 before the first question. */
  private at = -2;
  /**
   * `wedges`: where the skeleton dropped a placeholder wedged into a key (ascending). The placeholder
   * was a boundary in the text it was written into, so its place is one too, as an escape's end is: a
   * key right after it starts there (`sk-…-[email-1]sk-…`, where the dash before the dropped
   * placeholder would otherwise glue the second key to the first).
   */
  constructor(
    private readonly text: string,
    private readonly wedges?: readonly number[],
  ) {}

  next(from: number): number {
    if (this.at === -1 || this.at >= from) return this.at;
    const e = nextEscapeEnd(this.text, from);
    const i = this.wedges === undefined ? -1 : firstAtOrAfter(this.wedges, from);
    const w = i >= 0 && i < this.wedges!.length ? this.wedges![i]! : -1;
    this.at = e < 0 ? w : w < 0 ? e : Math.min(e, w);
    return this.at;
  }
}

/**
 * The index of the first value ≥ `p` in an ascending list (its length when none): binary search.
 *
 * @example
 * ```ts
 * firstAtOrAfter([2, 5, 9], 5); // 1
 * ```
 */
export function firstAtOrAfter(xs: readonly number[], p: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first position at or after `from` that ends a backslash escape in a letter or digit (`\n`, `\t`,
 * `\u003d`, `\x3d`) after an odd run of backslashes (`\\n` is a backslash and the letter n); -1 if none.
 */
function nextEscapeEnd(text: string, from: number): number {
  for (let i = text.indexOf('\\', Math.max(0, from - 6)); i >= 0; i = text.indexOf('\\', i + 1)) {
    const end = escapeEnd(text, i);
    if (end >= from && oddRun(text, i)) return end;
  }
  return -1;
}

/** Where the escape starting with the backslash at `i` ends, or -1 when it does not end in a letter or digit. */
function escapeEnd(text: string, i: number): number {
  // Character codes, not `charAt` and a pattern: JSON text has a backslash every few dozen characters.
  const c = text.charCodeAt(i + 1);
  // n r t b f v (ESCAPE_LETTERS)
  if (c === 110 || c === 114 || c === 116 || c === 98 || c === 102 || c === 118) return i + 2;
  if (c === 117) return hexDigits(text, i + 2, 4) ? i + 6 : -1; // \u003d
  if (c === 120) return hexDigits(text, i + 2, 2) ? i + 4 : -1; // \x3d
  return -1;
}

/** Whether `text[at, at + n)` is `n` hexadecimal digits. */
function hexDigits(text: string, at: number, n: number): boolean {
  for (let k = at; k < at + n; k++) {
    const c = text.charCodeAt(k);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Whether the backslash at `i` ends an odd run of backslashes (so it starts an escape). */
function oddRun(text: string, i: number): boolean {
  let run = 1;
  while (i - run >= 0 && text.charCodeAt(i - run) === BACKSLASH) run++;
  return run % 2 === 1;
}

/** Whether an escape (`\n`, `\u003d`, `\x3d`) ends right before `p`. */
export function afterEscape(text: string, p: number): boolean {
  for (let back = 2; back <= 6; back += 2) {
    const i = p - back;
    if (i >= 0 && text.charCodeAt(i) === BACKSLASH && escapeEnd(text, i) === p && oddRun(text, i))
      return true;
  }
  return false;
}

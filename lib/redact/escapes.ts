/**
 * Escapes as word boundaries. In JSON text and log lines a key often follows an escape (`…\nghp_…`):
 * the letter or digit that ends the escape is not part of the key's word. The scanner tries the kinds
 * without their lookbehinds at the end of each escape, as it does at the end of a match.
 */

export const BACKSLASH = 92;
/** Letters that end a one-letter escape (`\n`, `\t`, …): `\njane@x.io` is `jane@x.io`. */
export const ESCAPE_LETTERS = 'nrtbfv';
const HEX4 = /^[0-9A-Fa-f]{4}$/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;

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
  constructor(private readonly text: string) {}

  next(from: number): number {
    if (this.at === -1 || this.at >= from) return this.at;
    this.at = nextEscapeEnd(this.text, from);
    return this.at;
  }
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
  const c = text.charAt(i + 1);
  if (c !== '' && ESCAPE_LETTERS.includes(c)) return i + 2;
  if (c === 'u' && HEX4.test(text.slice(i + 2, i + 6))) return i + 6;
  if (c === 'x' && HEX2.test(text.slice(i + 2, i + 4))) return i + 4;
  return -1;
}

/** Whether the backslash at `i` ends an odd run of backslashes (so it starts an escape). */
function oddRun(text: string, i: number): boolean {
  let run = 1;
  while (i - run >= 0 && text.charCodeAt(i - run) === BACKSLASH) run++;
  return run % 2 === 1;
}

/** Whether an escape (`\n`, `\u003d`, `\x3d`) ends right before `p`. */
export function afterEscape(text: string, p: number): boolean {
  for (const back of [2, 4, 6]) {
    const i = p - back;
    if (i >= 0 && text.charCodeAt(i) === BACKSLASH && escapeEnd(text, i) === p && oddRun(text, i))
      return true;
  }
  return false;
}

/**
 * Small text helpers shared by the snapshot and the reducers. Everything is locale-independent
 * (`toLowerCase`, plain code-unit comparisons), so outputs are byte-identical in every runtime.
 */

import { fnv1a32 } from '../core/index.js';
import { isPointer } from './pointer.js';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * Whitespace collapsed to single spaces, trimmed.
 *
 * @example
 * ```ts
 * squash('  a\n\tb  '); // 'a b'
 * ```
 */
export function squash(text: string): string {
  return needsSquash(text) ? text.replace(/\s+/g, ' ').trim() : text;
}
const NEEDS_SQUASH = /\s\s|[^\S ]|^\s|\s$/;

/** `NEEDS_SQUASH.test(text)`: a character loop for ASCII text (whose only spaces are 9–13 and 32). */
function needsSquash(text: string): boolean {
  let space = true; // at the start, a space is leading
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (space) return true;
      space = true;
    } else if (c >= 0x80) return NEEDS_SQUASH.test(text);
    else if (c <= 0x0d && c >= 0x09) return true;
    else space = false;
  }
  return space && text.length > 0;
}

/**
 * The key two items compare equal by: lower case, letters and digits only, single spaces.
 *
 * @example
 * ```ts
 * comparableKey('CI is RED!'); // 'ci is red'
 * ```
 */
export function comparableKey(text: string): string {
  return words(text).join(' ').replace(/'/g, ' ');
}

/**
 * Lower-cased words (letters and digits, with contractions such as `isn't` kept whole). ASCII text
 * takes a character loop; anything else the Unicode regex.
 *
 * @example
 * ```ts
 * words("It isn't RED."); // ['it', "isn't", 'red']
 * ```
 */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 0x80) return wordsUnicode(lower);
    const alnum = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    if (alnum) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (c === 0x27) {
        const n = i + 1 < lower.length ? lower.charCodeAt(i + 1) : 0;
        if (n >= 0x61 && n <= 0x7a) continue; // isn't, can't
      }
      out.push(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(lower.slice(start));
  return out;
}

function wordsUnicode(lower: string): string[] {
  const m = lower.match(WORD);
  if (!m) return [];
  for (let i = 0; i < m.length; i++) if (m[i]!.includes('’')) m[i] = m[i]!.replace('’', "'");
  return m;
}

const STOP = new Set(
  (
    'a an and are as at be been being but by for from had has have i if in into is it its of on or our so ' +
    'that the their then there these this those to was we were will with you your he she they them me my ' +
    'do does did just also than too very can could should would may might must shall about after before ' +
    'again all any some such only own same other more most over under up down out off now here when where ' +
    'which who whom what why how while because since'
  ).split(' '),
);

/** Whether `contentTerms` drops the lower-cased word `w`. */
export function isStopWord(w: string): boolean {
  return STOP.has(w);
}

/** A cheap, deterministic stem: drops -ing, -ed, -es, -s so "failing", "failed" and "fails" meet. */
export function stem(word: string): string {
  const n = word.length;
  if (n > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (n > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (n > 4 && word.endsWith('es') && !word.endsWith('ses')) return word.slice(0, -2);
  if (n > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/**
 * Stemmed content words (stop words dropped), duplicates removed, in first-seen order.
 *
 * @example
 * ```ts
 * contentTerms(words('the tests and the test fail')); // stems of 'tests' and 'fail', once each
 * ```
 */
export function contentTerms(ws: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of ws) {
    if (STOP.has(w)) continue;
    const s = stem(w);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** FNV-1a over UTF-16 units: a fast 32-bit string hash, identical in every runtime. */
export const hash32: (text: string) => number = fnv1a32;

/** Plain code-unit order, the same in every runtime (no locale). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A URL, a path, or a file name by its extension (`setup.py:12`). A file name is only tried at the
 * first candidate start (`\b` before `[\w-]`) of a dotted run (the lookbehind: no candidate start
 * before it joined to it by `[\w-]` and single dots). A later start in the run can only end at the
 * dots the first one could, so it fails where the first failed: trying every start (`a.a.a.…`) cost
 * quadratic time. The lookbehind is lazy, so it reads back only to the nearest start.
 * {@link findLinksFrom} tries the first start after where a search begins with `FILE_NAME_AT`.
 */
const LINK =
  /\bhttps?:\/\/[^\s<>"'`)\]}]+|(?:^|(?<=[\s(`'"=:]))(?:~|\.{1,2})?\/?[\w@.-]+(?:\/[\w@.-]+)+\/?(?::\d+(?::\d+)?)?|\b(?=[\w-])(?<!\b[\w-](?:[\w-]|\.(?!\.))*?)[\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|md|json|jsonl|yaml|yml|toml|ini|cfg|txt|sh|css|scss|html|sql|lock|log|xml|csv)(?::\d+(?::\d+)?)?\b/g;
const FIRST_START = '(?<!\\b[\\w-](?:[\\w-]|\\.(?!\\.))*?)';
/** `LINK`'s file name at one start (sticky), without the first-start lookbehind. */
const FILE_NAME_AT = new RegExp(
  `\\b${LINK.source.slice(LINK.source.indexOf(FIRST_START) + FIRST_START.length)}`,
  'y',
);

/**
 * URLs and file paths mentioned in `text`, in order, without trailing punctuation. A path needs a
 * slash with a file name or two slashes (`lib/a.ts`, `./x/y`, `/etc/hosts`), or a known extension
 * (`setup.py:12`), so `and/or` is not a path.
 *
 * @example
 * ```ts
 * findLinks('see https://x.dev/a and lib/core/json.ts:12'); // ['https://x.dev/a', 'lib/core/json.ts:12']
 * ```
 */
export function findLinks(text: string): string[] {
  return findLinksFrom(text, linkStretch(text, 0));
}

/**
 * {@link findLinks} when no link starts before `from` (-1: there is none), which must be the start of
 * the text or follow ASCII whitespace, or be where {@link linkStretch} points.
 *
 * @example
 * ```ts
 * findLinksFrom('see lib/a.ts', 0); // ['lib/a.ts']
 * ```
 */
export function findLinksFrom(text: string, from: number): string[] {
  // A match holds no whitespace, and a `/` or a `.` before a (lower-case) letter: the regex only
  // runs from the first stretch between spaces that has one, and again after each match. The
  // skipped stretches cannot hold a match, so the matches are the same as an exec loop from 0.
  if (from < 0) return [];
  const out: string[] = [];
  for (;;) {
    // A search that begins inside a dotted run: its first candidate start may be no run's first, so
    // `LINK` skips it; it is tried alone, and wins unless `LINK` matches before or at it.
    const start = firstStartWithin(text, from);
    let found: string | undefined;
    let next = -1;
    if (start >= 0) {
      FILE_NAME_AT.lastIndex = start;
      const f = FILE_NAME_AT.exec(text);
      if (f !== null) {
        found = f[0];
        next = FILE_NAME_AT.lastIndex;
      }
    }
    LINK.lastIndex = from;
    const m = LINK.exec(text);
    if (m !== null && (found === undefined || m.index <= start)) {
      found = m[0];
      next = LINK.lastIndex;
    }
    if (found === undefined) break;
    if (found === '') next++;
    else pushLink(out, found);
    from = linkStretch(text, next);
    if (from < 0) break;
  }
  LINK.lastIndex = 0;
  return out;
}

/** Whether `c` is in `[\w-]`. */
function isNameChar(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/** Whether `c` is in `\w`. */
function isWordChar(c: number): boolean {
  return c !== 0x2d && isNameChar(c);
}

/**
 * When `from` is inside a run of `[\w.-]`: the first candidate start of a file name (`\b` before
 * `[\w-]`) from `from` on that the run joins to what comes before `from` (no `..` between), else -1.
 */
function firstStartWithin(text: string, from: number): number {
  if (from === 0) return -1;
  const before = text.charCodeAt(from - 1);
  if (before !== 0x2e && !isNameChar(before)) return -1;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      if (text.charCodeAt(i - 1) === 0x2e) return -1;
    } else if (!isNameChar(c)) return -1;
    else if (isWordChar(c) !== isWordChar(text.charCodeAt(i - 1))) return i;
  }
  return -1;
}

/** Adds a match of `LINK` to `out` as `findLinks` keeps it, if it does. */
function pushLink(out: string[], link: string): void {
  // Trailing punctuation off (`[.,;:!?]+$`).
  let end = link.length;
  while (end > 0 && isTrailingPunctuation(link.charCodeAt(end - 1))) end--;
  if (end < link.length) link = link.slice(0, end);
  if (link.startsWith('http')) out.push(link);
  else {
    let slashes = 0;
    for (let i = link.indexOf('/'); i >= 0; i = link.indexOf('/', i + 1)) slashes++;
    const pathLike =
      slashes === 0 ||
      link.startsWith('/') ||
      link.startsWith('./') ||
      link.startsWith('../') ||
      link.startsWith('~/') ||
      slashes >= 2 ||
      /\.[A-Za-z][\w]*(?::\d+)*$/.test(link.slice(link.lastIndexOf('/') + 1));
    if (pathLike) {
      if (link.endsWith('/') && slashes === 1) link = link.slice(0, -1);
      if (link.length > 1) out.push(link);
    }
  }
}

/**
 * The start of the first stretch of `text` from `from` on (cut at ASCII whitespace) that holds a `/`
 * or a `.` before a letter, or -1. No match of `LINK` starts before it.
 */
function linkStretch(text: string, from: number): number {
  // Returns as soon as the stretch qualifies: reading on to its end would read a long stretch again
  // after each of its links (quadratic time on `x.ts:x.ts:…`).
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2f) return start;
    if (c === 0x2e) {
      const d = i + 1 < text.length ? text.charCodeAt(i + 1) | 0x20 : 0;
      if (d >= 0x61 && d <= 0x7a) return start;
    } else if (c === 0x20 || (c <= 0x0d && c >= 0x09)) start = i + 1;
  }
  return -1;
}

function isTrailingPunctuation(c: number): boolean {
  // . , ; : ! ?
  return c === 0x2e || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x21 || c === 0x3f;
}

/** Whether the text ends with `:` (a heading over what follows). */
export function endsWithColon(raw: string): boolean {
  return raw.charCodeAt(raw.length - 1) === 0x3a;
}

/**
 * A clause that answers a check in the same entry, by ellipsis: after `,` `;` `:` or a spaced dash,
 * a pronoun with a bare auxiliary ("it does", "they aren't") or a bare yes/no, closing the clause.
 */
const ANSWER =
  /(?:[,;:]|\s[-\u2013\u2014])\s+(?:(?:it|they|this|that|he|she)\s+(?:does|do|did|is|are|was|were|has|have|can|will)(?:n['’]t)?|yes|yep|no|nope)\s*(?:[,.;!)]|\s[-\u2013\u2014]|$)/i;

/**
 * Whether the entry answers its own check ("Check if X has the guard - it does, …"): a done
 * finding, not a step still to take.
 *
 * @example
 * ```ts
 * answersItself('Check whether the cache is shared: it is.'); // true
 * answersItself('Check whether the cache is shared.');        // false
 * ```
 */
export function answersItself(raw: string): boolean {
  return ANSWER.test(raw);
}

/**
 * Which `is` / `are` of the text (1 for the first, 0 for none) has a path or URL right after it, maybe
 * after `at` or `in`, maybe quoted as code: "The file to edit is `src/app/views.py`" names where to
 * look. One pass over the text.
 *
 * @example
 * ```ts
 * copulaPointer('The log we are after is at /tmp/run.log.'); // 2
 * copulaPointer('The parser is slow on lib/big.json.');      // 0
 * ```
 */
export function copulaPointer(raw: string): number {
  // Every `is` / `are` word counts (as `namesPlace` counts them over the words), also the first word
  // and one glued to punctuation; only one followed by a space can point at a path.
  let k = 0;
  for (let i = 0; i < raw.length; i++) {
    if (i > 0 && isLetter(raw.charCodeAt(i - 1))) continue;
    const l = copulaAt(raw, i);
    if (l === 0) continue;
    k++;
    if (raw.charCodeAt(i + l - 1) === 0x20 && pointerAt(raw, i + l)) return k;
  }
  return 0;
}

function isLetter(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || c === 0x27 || c === 0x2019;
}

/** The length of `is ` / `are ` at `i` (case-insensitive), else 0. */
function copulaAt(raw: string, i: number): number {
  const a = raw.charCodeAt(i) | 0x20;
  const b = raw.charCodeAt(i + 1) | 0x20;
  // The length through the following character (a space, punctuation or the end), else 0.
  if (a === 0x69 && b === 0x73 && !isLetter(raw.charCodeAt(i + 2))) return 3;
  if (a === 0x61 && b === 0x72 && (raw.charCodeAt(i + 2) | 0x20) === 0x65 && !isLetter(raw.charCodeAt(i + 3)))
    return 4;
  return 0;
}

/** Whether a path or URL starts at `i`, maybe after `at ` / `in `, maybe quoted. */
function pointerAt(raw: string, i: number): boolean {
  const c0 = raw.charCodeAt(i) | 0x20;
  const c1 = raw.charCodeAt(i + 1) | 0x20;
  if (((c0 === 0x61 && c1 === 0x74) || (c0 === 0x69 && c1 === 0x6e)) && raw.charCodeAt(i + 2) === 0x20)
    i += 3;
  let e = i;
  while (e < raw.length && raw.charCodeAt(e) > 0x20) e++;
  let s = i;
  while (s < e && isQuote(raw.charCodeAt(s))) s++;
  while (e > s && (isQuote(raw.charCodeAt(e - 1)) || isTrailingPunctuation(raw.charCodeAt(e - 1)))) e--;
  return e - s > 2 && isPointer(raw.slice(s, e));
}

function isQuote(c: number): boolean {
  // ` ' " ( )
  return c === 0x60 || c === 0x27 || c === 0x22 || c === 0x28 || c === 0x29;
}

/** `raw.trimEnd().endsWith('?')`, without trimming when the last character is no space. */
export function endsWithQuestionMark(raw: string): boolean {
  const last = raw.charCodeAt(raw.length - 1);
  return last === 0x3f || ((last <= 0x20 || last >= 0x80) && raw.trimEnd().endsWith('?'));
}

/**
 * The index after a list marker at `i` ("- ", "* ", "• ", "3. ", "3) "), or `i` when there is none.
 * Shared by the readers of an entry's opening (a gloss, a line's lead).
 *
 * @example
 * ```ts
 * afterListMarker('- `a.ts` (config)', 0); // 2
 * afterListMarker('12) run it', 0); // 4
 * afterListMarker('plain', 0); // 0
 * ```
 */
export function afterListMarker(raw: string, i: number): number {
  const m = raw.charCodeAt(i);
  if ((m === 0x2d || m === 0x2a || m === 0x2022) && raw.charCodeAt(i + 1) === 0x20) return i + 2;
  let d = i;
  while (raw.charCodeAt(d) >= 0x30 && raw.charCodeAt(d) <= 0x39) d++;
  return d > i && (raw.charCodeAt(d) === 0x2e || raw.charCodeAt(d) === 0x29) && raw.charCodeAt(d + 1) === 0x20
    ? d + 2
    : i;
}

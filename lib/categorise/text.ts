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

function isTrailingPunctuation(c: number): boolean {
  // . , ; : ! ?
  return c === 0x2e || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x21 || c === 0x3f;
}

function isQuote(c: number): boolean {
  // ` ' " ( )
  return c === 0x60 || c === 0x27 || c === 0x22 || c === 0x28 || c === 0x29;
}

/**
 * Whether the entry asks: `raw.trimEnd().endsWith('?')` (without trimming when the last character is no
 * space), or a question mark then one example in parentheses at the end ("Track it by unit? (e.g., 300ml)").
 *
 * @example
 * ```ts
 * endsWithQuestionMark('Should we track stock by unit? (e.g., 300ml vs 500ml)'); // true
 * ```
 */
export function endsWithQuestionMark(raw: string): boolean {
  const last = raw.charCodeAt(raw.length - 1);
  if (last === 0x3f) return true;
  // Trimmed only when the text ends in a space or a non-ASCII character (a trailing space may be Unicode).
  const t = last <= 0x20 || last >= 0x80 ? raw.trimEnd() : raw;
  const end = t.charCodeAt(t.length - 1);
  if (end === 0x3f) return true;
  // "Should we track stock by unit? (e.g., 300ml vs 500ml)": an example after the question mark.
  if (end !== 0x29) return false;
  const open = t.lastIndexOf('(');
  if (open < 0 || t.indexOf(')', open) !== t.length - 1) return false;
  let k = open;
  while (k > 0 && t.charCodeAt(k - 1) <= 0x20) k--;
  return k > 0 && t.charCodeAt(k - 1) === 0x3f;
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

/**
 * The sentences of a message the snapshot reads: where a sentence ends, in any script, and its first
 * few sentences found without splitting the whole message. `entriesFromMessages` and
 * `entriesFromSteps` (adapters.ts) read through it.
 */

/**
 * Sentence ends: a line break, `.`, `!` or `?` before a space and a capital, or a full-width `。`, `！` or
 * `？` (Chinese and Japanese put no space after them; without them a paragraph of several sentences was
 * one entry — blind judges preferred the split lists in 9 of 13 changed sessions, eval/snapshot/
 * sets/pending/README.md), unless a closing quote follows it. Lookbehinds of one character: linear.
 * Global, for {@link sentences}' search; `text.split(SENTENCE)` gives the same pieces (the tests and the
 * bench measure against that split).
 *
 * @example
 * ```ts
 * 'Done. Next step.'.split(SENTENCE); // ['Done.', 'Next step.']
 * ```
 */
export const SENTENCE = /\n+|(?<=[.!?])\s+(?=[A-Z`"'(])|(?<=[。！？])(?![」』）”])\s*/g;

/** A whole line that is one opening, closing or empty markup tag. */
const TAG_ONLY = /^<\/?[A-Za-z][\w.:-]*\s*\/?>$/;

/**
 * Up to `max` sentences of at least 12 characters, outside code fences, each at most ~300 characters:
 * the pieces `text.split(SENTENCE)` gives, found one separator at a time so that reading stops once
 * `max` are found (a long message is not split to its end for its first three sentences). The loop is
 * the split algorithm's: an empty match where the last piece ended moves the search one on.
 *
 * @example
 * ```ts
 * sentences('The build fails on CI. Run the tests next. Then deploy it.', 2);
 * // ['The build fails on CI.', 'Run the tests next.']
 * ```
 */
export function sentences(text: string, max: number): string[] {
  const out: string[] = [];
  const s = String(text ?? '');
  let fence = false;
  /** Reads one piece; true once `max` sentences are found. */
  const take = (raw: string): boolean => {
    const line = raw.trim();
    if (line.startsWith('```')) {
      fence = !fence;
      return false;
    }
    // A line that is one markup tag (`<format_example>`, a model echoing its prompt's tags) says nothing.
    if (fence || line.length < 12 || (line.charCodeAt(0) === 0x3c && TAG_ONLY.test(line))) return false;
    out.push(line.length > 300 ? line.slice(0, 300).replace(/\s\S*$/, '') : line);
    return out.length >= max;
  };
  let p = 0;
  let q = 0;
  while (q < s.length) {
    SENTENCE.lastIndex = q;
    const m = SENTENCE.exec(s);
    if (m === null || m.index >= s.length) break;
    const e = m.index + m[0].length;
    if (e === p) {
      q = m.index + 1;
      continue;
    }
    if (take(s.slice(p, m.index))) return out;
    p = e;
    q = p;
  }
  take(s.slice(p));
  return out;
}

/**
 * Whether `text` ends with `words` once its trailing white space is left out (no copy of `text`).
 *
 * @example
 * ```ts
 * endsWithWords('Here is the plan:\n\n', 'Here is the plan:'); // true
 * ```
 */
export function endsWithWords(text: string, words: string): boolean {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end >= words.length && text.startsWith(words, end - words.length);
}

/**
 * A list marker (`-`, `*`, `•`, `+`, `1.`, `1)`) and the space after it, at the line's start: what
 * {@link withoutListMarker} drops and `bareLink` (bare-link.ts) reads past. Anchored: one attempt per
 * text, linear.
 *
 * @example
 * ```ts
 * LIST_MARKER.exec('12) run it')?.[0]; // '12) '
 * ```
 */
export const LIST_MARKER = /^\s*(?:[-*•+]|\d{1,3}[.)])\s+/;
/** A checklist box (`[ ]`, `[x]`, `[-]`) and the space after it, read where the list marker ends (sticky). */
const BOX = /\[[ xX~>/-]\]\s+/y;

/**
 * A sentence without the list marker and checklist box it had in its message ("1. **Schema
 * mismatch**: …", "- [-] Add a playbook"): what a snapshot lists for a note (`listedText`,
 * bare-link.ts). The categoriser reads the marker (a numbered option, a to-do line); in a list of the
 * snapshot's own, a number from another list and a box whose state the list does not keep only mislead.
 *
 * @example
 * ```ts
 * withoutListMarker('2. The daemon failed to start.'); // 'The daemon failed to start.'
 * withoutListMarker('- [ ] Add the migration'); // 'Add the migration'
 * withoutListMarker('-1 is the default.'); // '-1 is the default.'
 * ```
 */
export function withoutListMarker(text: string): string {
  // Most items open with a letter: one character read, no search (the snapshot asks for every
  // candidate of its lists, thousands in a long session).
  const c = text.charCodeAt(0);
  if (!(c <= 0x20 || c === 0x2d || c === 0x2a || c === 0x2022 || c === 0x2b || (c >= 0x30 && c <= 0x39)))
    return text;
  const m = LIST_MARKER.exec(text);
  if (m === null) return text;
  let end = m[0].length;
  BOX.lastIndex = end;
  if (BOX.exec(text) !== null) end = BOX.lastIndex;
  return end === text.length ? text : text.slice(end);
}

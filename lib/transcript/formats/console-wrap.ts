/**
 * The console wraps what it prints at the terminal's width and a copy keeps those breaks, so a
 * paragraph of the agent's prose arrives cut into lines mid-sentence ("…doesn't exist on" / "the
 * backend."), and so does a long prompt. This module finds the width a copy was wrapped at and tells
 * a break the terminal made from one the writer made, so that the console readers (`console.ts`,
 * `gemini-console.ts`, through `wrap-joiner.ts`) can join the paragraphs again.
 *
 * A terminal wraps a line when the next word no longer fits: a break is the terminal's when the line
 * before it, plus a space and the next line's first word, is wider than the width. The width is not
 * written anywhere; it shows as a cap that many lines reach and almost none pass. A copy without such
 * a cap (copied from a wider window, or never wrapped) gets width 0 and keeps every break.
 */

import { forEachLine } from '../lines.js';

/** Lines longer than this count as "past every cap" (a pasted log, a table row). */
const MAX_COLUMNS = 4096;
/** A cap is a width that at least this many lines reach within {@link CAP_SPAN} columns. */
const CAP_LINES = 5;
const CAP_SPAN = 8;
/** Widths below this are not a terminal's (a column of short lines). */
const MIN_WIDTH = 40;

/**
 * Columns a terminal gives `text`: two for East Asian wide characters and for characters outside the
 * BMP (emoji), one for the rest (combining marks and zero-width characters, rare in prose, count as
 * one too).
 *
 * @example
 * ```ts
 * columns('abc'); // 3
 * columns('日本'); // 4
 * ```
 */
export function columns(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x1100) n++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair: one emoji or rare ideograph, two columns, two code units.
      n += 2;
      i++;
    } else n += isWide(c) ? 2 : 1;
  }
  return n;
}

function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6)
  );
}

/**
 * Columns of `line` without its trailing spaces (some copies pad every line to the width).
 *
 * @example
 * ```ts
 * usedColumns('ab   '); // 2
 * ```
 */
export function usedColumns(line: string): number {
  const end = trimmedEnd(line);
  return columns(end === line.length ? line : line.slice(0, end));
}

/**
 * The length of `line` without its trailing spaces (plain or no-break).
 *
 * @example
 * ```ts
 * trimmedEnd('ab  '); // 2
 * ```
 */
export function trimmedEnd(line: string): number {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0xa0)) end--;
  return end;
}

/**
 * Counts lines by their used columns, and tells the width they were wrapped at: the widest `W` that
 * a line reaches, with at least five lines within 8 columns of it, two at it or twice as many as in
 * the 9 columns below, and at most 1 line in 64 (at least 2) wider. 0 when no width qualifies. One
 * count per width, so linear in the lines.
 *
 * @example
 * ```ts
 * const cap = new WrapCap();
 * for (let i = 0; i < 6; i++) cap.add('x'.repeat(78));
 * cap.width(); // 78
 * ```
 */
export class WrapCap {
  private readonly counts = new Uint32Array(MAX_COLUMNS + 1);
  private lines = 0;

  /**
   * Counts one printed line (box lines and blank lines are not counted); `used`, its used columns
   * when the caller has them.
   */
  add(line: string, used = -1): void {
    if (line.length === 0) return;
    const c = line.charCodeAt(0);
    if (c === 0x2502 || c === 0x256d || c === 0x2570) return;
    this.lines++;
    // No line of fewer than MIN_WIDTH / 2 code units reaches MIN_WIDTH columns: not measured.
    if (used >= 0 || line.length * 2 >= MIN_WIDTH)
      this.counts[Math.min(used >= 0 ? used : usedColumns(line), MAX_COLUMNS)]!++;
  }

  /** The width the counted lines were wrapped at, or 0. */
  width(): number {
    const counts = this.counts;
    const limit = Math.max(2, this.lines >> 6);
    let above = 0;
    // As W goes down: `near` holds the lines of widths W-8..W, `below` those of W-17..W-9.
    let near = 0;
    let below = 0;
    for (let w = MAX_COLUMNS; w >= MAX_COLUMNS - CAP_SPAN; w--) near += counts[w]!;
    for (let w = MAX_COLUMNS - CAP_SPAN - 1; w >= MAX_COLUMNS - 2 * CAP_SPAN - 1; w--) below += counts[w]!;
    for (let width = MAX_COLUMNS; width >= MIN_WIDTH; width--) {
      // Wrapped lines end within a word of the width: many just under it, two of them at it or
      // twice as many as in the span below (lines of every length, unwrapped, thin out smoothly).
      const dense = counts[width]! >= 2 || (counts[width]! > 0 && near >= 2 * below);
      if (dense && near >= CAP_LINES) return above <= limit ? width : 0;
      above += counts[width]!;
      if (above > limit) return 0;
      near += counts[width - CAP_SPAN - 1]! - counts[width]!;
      below += counts[width - 2 * CAP_SPAN - 2]! - counts[width - CAP_SPAN - 1]!;
    }
    return 0;
  }
}

/**
 * The width `text` (a console copy) was wrapped at, from all its lines ({@link WrapCap}); 0 when no
 * width shows.
 *
 * @example
 * ```ts
 * const line = 'x'.repeat(78);
 * wrapWidth(Array.from({ length: 6 }, () => line).join('\n')); // 78
 * wrapWidth('short\nlines\nonly'); // 0: no cap
 * ```
 */
export function wrapWidth(text: string): number {
  const cap = new WrapCap();
  forEachLine(text, (line) => {
    cap.add(line);
    return undefined;
  });
  return cap.width();
}

/**
 * Starts of a line that begins a block of its own: a list item, a heading, a table row, a box, a
 * code fence, a shell prompt (`ana@host ~/proj %`, in a pasted terminal session).
 */
const BLOCK_START =
  /^(?:[-*+\u2022]\s|\d{1,3}[.)]\s|#|\||[\u2500-\u257f\u23bf]|```|[\w.-]{1,64}@[\w.-]{1,64}[ :])/;
/** A line may continue a wrapped one only if it starts like a word does. */
const WORD_START = /^[\p{L}\p{N}("'`[{/.$@<~_]/u;

/**
 * Whether the terminal made the break between the line `before` and the line `next` (both as
 * printed, with their indents), at width `width`: `next` starts with a word that did not fit after
 * `before`, `before` fills at least two thirds of the width, and `next` does not start a block of its
 * own. A line ending in `:` keeps its break (a list or a block follows it), and so do two lines that
 * both start with a path. `beforeUsed`: the used columns of `before`, when the caller has them.
 *
 * @example
 * ```ts
 * const before = '⏺ The request goes to /api/v1/users/new, which does not exist on';
 * wrappedBreak(before, '  the backend.', 66); // true
 * wrappedBreak(before, '  the backend.', 80); // false: "the" would have fitted
 * ```
 */
export function wrappedBreak(before: string, next: string, width: number, beforeUsed = -1): boolean {
  if (width === 0) return false;
  const end = trimmedEnd(before);
  if (end === 0 || before.charCodeAt(end - 1) === 0x3a /* : */) return false;
  const used = beforeUsed >= 0 ? beforeUsed : columns(before.slice(0, end));
  // A terminal fills a line to about its width before it wraps; a short line before a long word
  // (a path, a URL) is more often a line of its own.
  if (used * 3 < width * 2) return false;
  let i = 0;
  while (i < next.length && (next.charCodeAt(i) === 0x20 || next.charCodeAt(i) === 0xa0)) i++;
  const rest = i === 0 ? next : next.slice(i);
  if (!WORD_START.test(rest) || BLOCK_START.test(rest)) return false;
  // Two lines that both start with a path are a list of paths, whatever their widths.
  if (isPathStart(rest) && isPathStart(printedText(before))) return false;
  let word = rest.indexOf(' ');
  if (word < 0) word = rest.length;
  return used + 1 + columns(rest.slice(0, word)) > width;
}

const isPathStart = (text: string): boolean => text.startsWith('/') || text.startsWith('~/');

/** A printed line without the agent's mark and the indent. */
function printedText(line: string): string {
  let i = 0;
  const c = line.charCodeAt(0);
  if (c === 0x23fa || c === 0x25cf) i = 1;
  while (i < line.length && (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0xa0)) i++;
  return line.slice(i);
}

/**
 * Whether a join takes no space: between two East Asian characters (CJK text has no spaces between
 * words), or where the terminal cut a word too wide for any line (a CJK clause holding a code name, a
 * long URL): the line before is full to `width` and its last run without a space, with the next
 * line's first, is wider than a line. `before` is the line as printed, `after` the next line's text.
 *
 * @example
 * ```ts
 * joinsWithoutSpace('  请根据数据', '生成看板', 80); // true
 * joinsWithoutSpace(`  see ${'x'.repeat(74)}`, `${'y'.repeat(10)} and`, 80); // true: a word cut at the width
 * joinsWithoutSpace('  the request goes to', 'the backend', 80); // false
 * ```
 */
export function joinsWithoutSpace(before: string, after: string, width: number): boolean {
  const end = trimmedEnd(before);
  if (end === 0 || after.length === 0) return false;
  if (isWide(before.charCodeAt(end - 1)) && isWide(after.charCodeAt(0))) return true;
  if (end < before.length) return false;
  const line = before.slice(0, end);
  if (columns(line) < width - 1) return false;
  let next = after.indexOf(' ');
  if (next < 0) next = after.length;
  const word = columns(line.slice(line.lastIndexOf(' ') + 1)) + columns(after.slice(0, next));
  // The indent of a continuation line (2) is not the word's.
  return word > width - 2;
}

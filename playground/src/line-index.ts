/**
 * Lines of a large text without splitting it: one pass records where each line starts, so the
 * chunked editor can show lines 400–600 of a 50 MB input, and an edit replaces one line, without a
 * copy of the whole text per line.
 */

/** Offsets where each line starts (line 1 at index 0). A trailing newline opens no extra line. */
export function lineStarts(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1))
    starts[n++] = i + 1;
  return starts;
}

/** [start, end) of 1-based line `line`, without its line break (`\n` or `\r\n`). */
export function lineSpan(text: string, starts: Uint32Array, line: number): [number, number] {
  const start = starts[line - 1] ?? text.length;
  let end = line < starts.length ? starts[line]! - 1 : text.length;
  if (line >= starts.length && end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return [start, end];
}

/** The 0-based offset of a 1-based line and column (clamped to the text). */
export function offsetOf(text: string, line: number, column = 1): number {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const i = text.indexOf('\n', start);
    if (i < 0) break;
    start = i + 1;
  }
  // A BOM is dropped before parsing, so columns on line 1 count from after it.
  const bom = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return Math.min(text.length, start + bom + Math.max(0, column - 1));
}

/** `text` with 1-based line `line` replaced by `replacement`; its line break stays. */
export function replaceLine(text: string, starts: Uint32Array, line: number, replacement: string): string {
  const [start, end] = lineSpan(text, starts, line);
  return text.slice(0, start) + replacement + text.slice(end);
}

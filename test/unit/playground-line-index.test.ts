/**
 * The chunked editor's line index (playground/src/line-index.ts): the lines it serves and the edits
 * it applies agree with splitting the text, for any text and line endings; offsetOf finds the
 * character a parse error's line and column name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineSpan, lineStarts, offsetOf, replaceLine } from '../../playground/src/line-index';

/** Lines as an editor counts them: a trailing line break opens no extra line; `\r` is not content. */
function editorLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

const textArb = fc
  .array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('\n', '\r\n', '', 'é☕')), { maxLength: 30 })
  .map((parts) => parts.join(''));

describe('line index', () => {
  it('property: every line span is the line, without its break', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const starts = lineStarts(text);
        const expected = editorLines(text);
        expect(starts.length).toBe(expected.length);
        for (let n = 1; n <= starts.length; n++) {
          const [a, b] = lineSpan(text, starts, n);
          expect(text.slice(a, b)).toBe(expected[n - 1]);
        }
      }),
    );
  });

  it('property: replacing a line changes that line only, and keeps the line breaks', () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.string({ maxLength: 10 }), (text, pick, replacement) => {
        fc.pre(!replacement.includes('\n') && !replacement.includes('\r'));
        const starts = lineStarts(text);
        const n = (pick % starts.length) + 1;
        const edited = replaceLine(text, starts, n, replacement);
        const before = editorLines(text);
        const after = editorLines(edited);
        before[n - 1] = replacement;
        // A replaced last line of a text without a final break may become empty: same count then.
        expect(after.slice(0, before.length)).toEqual(before.slice(0, after.length));
        // …and only then: no other line may go missing.
        const emptiedLast = edited.endsWith('\n') && !text.endsWith('\n');
        expect(after).toHaveLength(emptiedLast ? before.length - 1 : before.length);
        expect(edited.split('\n').length).toBe(text.split('\n').length);
      }),
    );
  });

  it('offsetOf: a 1-based line and column to the character, past a BOM on line 1', () => {
    const text = '{\n  "a": 1,\n}';
    expect(text[offsetOf(text, 3, 1)]).toBe('}');
    expect(text[offsetOf(text, 2, 3)]).toBe('"');
    expect(offsetOf('\ufeff{x', 1, 2)).toBe(2);
    expect(offsetOf('ab', 9, 9)).toBe(2); // clamped to the text
  });
});

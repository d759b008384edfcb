/**
 * A parse error carries one location, line and column, computed from the offset in the
 * original text (pretty-printed or not), and says it once.
 */
import fc from 'fast-check';
import { formatLocation, lineColumn, locateJsonError, TranscriptError } from 'rearview/core';
import { parseTrajectory, parseTranscript } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';

function errorOf(fn: () => unknown): TranscriptError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TranscriptError) return err;
    throw err;
  }
  throw new Error('expected a TranscriptError');
}

/** A pretty-printed JSON object or array of at least two lines. */
const prettyContainer = fc
  .oneof(
    fc.array(fc.jsonValue(), { minLength: 1 }),
    fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
  )
  .map((v) => JSON.stringify(v, null, 2))
  .filter((t) => t.includes('\n'));

describe('lineColumn and locateJsonError', () => {
  it('count lines and columns from the offset in the original text', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('ab\r\ncd', 4)).toEqual({ line: 2, column: 1 });
    expect(lineColumn('', 0)).toEqual({ line: 1, column: 1 });
    expect(locateJsonError('{\n  "a": 1,\n}')).toEqual({
      offset: 12,
      line: 3,
      column: 1,
      reason: 'unexpected "}"',
    });
    expect(locateJsonError('{"a": [')).toMatchObject({
      line: 1,
      column: 8,
      reason: 'unexpected end of input',
    });
  });

  it('formatLocation says the column with its line, never alone', () => {
    expect(formatLocation({ line: 54, column: 14 })).toBe(' (line 54, column 14)');
    expect(formatLocation({ column: 14 })).toBe('');
    expect(formatLocation({ line: 3 })).toBe(' (line 3)');
  });
});

describe('transcript errors are located once, at the broken character', () => {
  it('property: a pretty-printed JSON text broken at a line end names that line and column', () => {
    fc.assert(
      fc.property(prettyContainer, fc.nat(), (pretty, pick) => {
        // Line ends of JSON.stringify output are always between tokens, never inside a string.
        const ends = [...pretty.matchAll(/\n/g)].map((m) => m.index);
        const offset = ends[pick % ends.length]!;
        const broken = `${pretty.slice(0, offset)}#${pretty.slice(offset)}`;
        const before = broken.slice(0, offset);
        const line = before.split('\n').length;
        const column = offset - (before.lastIndexOf('\n') + 1) + 1;
        for (const parse of [() => parseTranscript(broken), () => parseTrajectory(broken)]) {
          const err = errorOf(parse);
          expect(err.location).toEqual({ line, column });
          // Said once: no engine "position N", no second "(line …)".
          expect(err.message).not.toMatch(/position \d/);
          expect(err.message.match(/\(line /g)).toHaveLength(1);
          expect(err.message.endsWith(` (line ${line}, column ${column})`)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the issue case: line 54 of a pretty-printed file is line 54, not line 1', () => {
    const messages = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `m${i}`,
    }));
    const pretty = JSON.stringify({ messages }, null, 2);
    const lines = pretty.split('\n');
    const target = lines.findIndex((l) => l.includes('"m12"'));
    lines[target] = lines[target]!.replace('"m12"', '"m12" oops');
    const err = errorOf(() => parseTranscript(lines.join('\n')));
    expect(err.location).toEqual({ line: target + 1, column: lines[target]!.indexOf('oops') + 1 });
    expect(err.message).toBe(
      `[auto] Input is neither JSON nor JSONL: unexpected "o" (line ${target + 1}, column ${lines[target]!.indexOf('oops') + 1})`,
    );
  });

  it('a JSONL line error carries one location: the line in the file and the column in it', () => {
    const text = '{"role":"user","content":"a"}\n\n{"role":"assistant","content":"b",}\n';
    const err = errorOf(() => parseTranscript(text));
    expect(err.location).toEqual({ line: 3, column: 35 });
    expect(err.message).toBe('[jsonl] Line is not valid JSON: unexpected "}" (line 3, column 35)');
    // Lenient mode still reports the line of the item it skipped.
    const lenient = parseTranscript(text, { lenient: true });
    expect(lenient.skipped).toEqual([{ line: 3, reason: 'Line is not valid JSON: unexpected "}"' }]);
  });

  it('an explicit JSON format locates the error too', () => {
    const err = errorOf(() =>
      parseTranscript('[\n  {"role": "user", "content": "a"},\n  nope\n]', { format: 'openai' }),
    );
    expect(err.location).toEqual({ line: 3, column: 3 });
  });
});

/**
 * Iterates the items of a JSONL text (one object per line) or of an already parsed array, reporting
 * invalid lines through the sink. Each line is parsed and handed on at once, so only the text, the
 * current line's object and the results are alive at any time.
 */
import { failedAt, type Prepared, tryJson } from '../input.js';
import { firstNonSpace, forEachLine, isBlank } from '../lines.js';
import { ItemError, isRecord, type Sink, typeName } from '../sink.js';
import type { SourceRef } from '../types.js';

/**
 * Calls `fn(obj, at)` for every object item. For text, `at` is `{ line }` and blank lines are
 * skipped; for an array `{ index }`; a single object is one item at index 0. `fn` may throw
 * {@link ItemError} to reject its item. With `brokenLines: 'skip'`, a text line that is not JSON is
 * recorded in `skipped` even in strict mode (formats whose real logs hold spliced fragments).
 *
 * @example
 * ```ts
 * forEachObject({ kind: 'text', text: '{"a":1}\n{"a":2}' }, sink, (obj, at) => console.log(at.line, obj));
 * ```
 */
export function forEachObject(
  prepared: Prepared,
  sink: Sink,
  fn: (obj: Record<string, unknown>, at: SourceRef) => void,
  brokenLines: 'invalid' | 'skip' = 'invalid',
): void {
  if (prepared.kind === 'text' && prepared.text.charCodeAt(firstNonSpace(prepared.text)) === 0x5b /* [ */) {
    // A JSON array of items rather than JSONL.
    const whole = tryJson(prepared.text);
    if (!whole.ok) throw sink.error(`Input is not valid JSON: ${whole.message}`, failedAt(whole));
    prepared = { kind: 'value', value: whole.value };
  }
  if (prepared.kind === 'text') {
    forEachLine(prepared.text, (line, lineNumber) => {
      if (isBlank(line)) return undefined;
      const at = { line: lineNumber };
      const parsed = tryJson(line);
      if (!parsed.ok) {
        // The column is within this line, which is also the column in the whole text.
        const where = { line: lineNumber, column: parsed.column };
        if (brokenLines === 'skip') sink.skip(`Line is not valid JSON: ${parsed.message}`, where);
        else sink.invalid(`Line is not valid JSON: ${parsed.message}`, where);
        return undefined;
      }
      const value = parsed.value;
      if (!isRecord(value)) {
        sink.invalid(`Line is not a JSON object, got ${typeName(value)}`, at);
        return undefined;
      }
      run(sink, at, value, fn);
      return undefined;
    });
    return;
  }
  const value = prepared.value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      const at = { index };
      if (!isRecord(item)) sink.invalid(`Item is not an object, got ${typeName(item)}`, at);
      else run(sink, at, item, fn);
    }
  } else if (isRecord(value)) {
    run(sink, { index: 0 }, value, fn);
  } else {
    throw sink.error(`Expected JSONL text, an array or an object, got ${typeName(value)}`);
  }
}

function run(
  sink: Sink,
  at: SourceRef,
  obj: Record<string, unknown>,
  fn: (obj: Record<string, unknown>, at: SourceRef) => void,
): void {
  try {
    fn(obj, at);
  } catch (err) {
    if (err instanceof ItemError) sink.invalid(err.message, at);
    else throw err;
  }
}

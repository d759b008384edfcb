/**
 * The playground's paste rules (playground/src/paste.ts) and its parse-failure text
 * (playground/src/input-messages.ts): pure functions, so every branch is checked without a browser.
 */
import { describe, expect, it } from 'vitest';
import { parseErrorText } from '../../playground/src/input-messages';
import { decidePaste, PASTE_LIMIT } from '../../playground/src/paste';
import { EDITOR_LIMIT } from '../../playground/src/state-types';

const SAMPLE = 'User: hello\nAssistant: hi\n';
const at = (over: Partial<Parameters<typeof decidePaste>[1]> = {}) => ({
  value: SAMPLE,
  selectionStart: 5,
  selectionEnd: 5,
  sample: true,
  large: false,
  ...over,
});

describe('decidePaste', () => {
  it('a whole transcript pasted over an untouched sample replaces it instead of landing inside it', () => {
    const jsonl = '{"type":"user","message":{"role":"user","content":"x"}}\n{"type":"assistant"}\n';
    expect(decidePaste(jsonl, at())).toEqual({ kind: 'input', text: jsonl, replacedSample: true });
    expect(decidePaste('{"messages":[]}', at())).toMatchObject({ kind: 'input', replacedSample: true });
  });

  it('a snippet, an edited input or a select-all paste is the editor’s own insert', () => {
    expect(decidePaste('one word', at())).toEqual({ kind: 'editor' });
    expect(decidePaste('two\nlines', at({ sample: false }))).toEqual({ kind: 'editor' });
    expect(decidePaste('two\nlines', at({ selectionStart: 0, selectionEnd: SAMPLE.length }))).toEqual({
      kind: 'editor',
    });
  });

  it('a paste that outgrows the editor goes to the worker, spliced where it was pasted', () => {
    const big = 'x'.repeat(EDITOR_LIMIT);
    expect(decidePaste(big, at({ sample: false }))).toEqual({
      kind: 'input',
      text: `${SAMPLE.slice(0, 5)}${big}${SAMPLE.slice(5)}`,
      replacedSample: false,
    });
  });

  it('over a large input a paste replaces it; above 10 MB a paste is refused with its size', () => {
    expect(decidePaste('a', at({ value: '', large: true }))).toEqual({
      kind: 'input',
      text: 'a',
      replacedSample: false,
    });
    const huge = 'y'.repeat(PASTE_LIMIT + 1);
    expect(decidePaste(huge, at())).toEqual({ kind: 'refuse', chars: PASTE_LIMIT + 1 });
    expect(decidePaste(huge.slice(1), at({ sample: false })).kind).toBe('input');
  });
});

describe('parseErrorText', () => {
  it('says "invalid JSON at L:C: reason" for text that looked like JSON', () => {
    expect(
      parseErrorText({
        message: '[auto] Input is neither JSON nor JSONL: unexpected "m" (line 53, column 14)',
        line: 53,
        column: 14,
      }),
    ).toBe('invalid JSON at 53:14: unexpected "m"');
  });

  it('keeps other messages, without their location suffix', () => {
    expect(parseErrorText({ message: '[jsonl] Line is not valid JSON (line 2)', line: 2 })).toBe(
      '[jsonl] Line is not valid JSON',
    );
  });
});

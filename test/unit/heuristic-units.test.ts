/**
 * How the scanner reads a text (lib/heuristic/units.ts): the code units `TextEncoder.encodeInto` and
 * the decoding give back are the string's own, a lone surrogate as U+FFFD, whatever the string; and
 * the arrays reused between calls never carry one text into the next.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyTurn, compileMarkers, DEFAULT_MARKERS } from '../../lib/heuristic/index';
import { codesOf } from '../../lib/heuristic/units';

/** `text`'s UTF-16 units by `charCodeAt`, each lone surrogate as U+FFFD. */
function expectedUnits(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(c, d);
        i++;
      } else out.push(0xfffd);
    } else if (c >= 0xdc00 && c <= 0xdfff) out.push(0xfffd);
    else out.push(c);
  }
  return out;
}

const texts = fc.oneof(
  fc.string({ unit: 'binary' }), // lone surrogates included
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('a', 'é', 'ж', '中', '😀', '\uD800', ' ', '\n', '-', "'") }),
);

describe('the scanner reads code units, not charCodeAt', () => {
  it('gives each text its own units (a lone surrogate as U+FFFD), ASCII or not', () => {
    const c = compileMarkers(DEFAULT_MARKERS);
    fc.assert(
      fc.property(texts, (text) => {
        const units = codesOf(c, text);
        expect([...units.subarray(0, text.length)]).toEqual(expectedUnits(text));
      }),
    );
  });

  it('decodes two-, three- and four-byte UTF-8 and the surrogate pairs around words', () => {
    const c = compileMarkers(DEFAULT_MARKERS);
    for (const text of ['está mal', 'это не работает', '这不对', 'no 😀 wrong', '\uD800x', 'x\uDC00', '😀'])
      expect([...codesOf(c, text).subarray(0, text.length)], text).toEqual(expectedUnits(text));
  });

  it('carries nothing from one text into the next, whichever is longer, past the reused size too', () => {
    const shared = compileMarkers(DEFAULT_MARKERS);
    const long = `${'word '.repeat(20_000)}No, that's wrong: don't touch the tests.`;
    const pairs = fc.tuple(fc.oneof(texts, fc.constant(long)), texts);
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        classifyTurn(a, shared);
        // The same as with markers compiled just for `b`, whose arrays never held `a`.
        expect(classifyTurn(b, shared)).toEqual(classifyTurn(b, compileMarkers(DEFAULT_MARKERS)));
      }),
      { numRuns: 60 },
    );
    expect(classifyTurn(long, shared).correction).toBe(true);
    expect(classifyTurn('thanks', shared).correction).toBe(false);
  });
});

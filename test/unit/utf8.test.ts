import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateUtf8, utf8ByteLength } from '../../lib/core/index';

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

/** The specification: the longest prefix made of whole code points (lone surrogates count alone). */
function referenceTruncate(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const cp of text) {
    const width = byteLength(cp);
    if (bytes + width > maxBytes) break;
    bytes += width;
    out += cp;
  }
  return out;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Any UTF-16 unit sequence: whole code points of every width plus lone surrogates. */
const anyUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('a', 'é', '€', '\u{1f600}', '\u{10ffff}', '\u07ff', '\u0800', '\u007f', '\u0080'),
);
const strings = [
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: anyUnit, maxLength: 40 }),
] as const;
const maxBytes = fc.integer({ min: 0, max: 200 });

describe('truncateUtf8: seed 004 tests', () => {
  it('truncate_ascii', () => {
    expect(truncateUtf8('hello world', 5)).toBe('hello');
  });

  it('truncate_no_op', () => {
    expect(truncateUtf8('hi', 10)).toBe('hi');
  });

  it('truncate_emoji', () => {
    const s = '\u{1F600}\u{1F601}\u{1F602}'; // 3 emoji = 12 bytes
    const result = truncateUtf8(s, 5);
    expect(result).toBe('\u{1F600}');
  });

  it('truncate_multibyte_boundary', () => {
    const s = 'caf\u00E9'; // "cafe" with accented e (2 bytes for e-acute)
    const result = truncateUtf8(s, 4);
    expect(result).toBe('caf');
  });
});

describe('truncateUtf8: edges', () => {
  it('exact fits and one byte short', () => {
    expect(truncateUtf8('café', 5)).toBe('café');
    expect(truncateUtf8('€', 3)).toBe('€');
    expect(truncateUtf8('€', 2)).toBe('');
    expect(truncateUtf8('\u{1F600}', 4)).toBe('\u{1F600}');
    expect(truncateUtf8('\u{1F600}', 3)).toBe('');
    expect(truncateUtf8('a\u{1F600}', 4)).toBe('a');
  });

  it('lone surrogates count 3 bytes (TextEncoder writes U+FFFD)', () => {
    expect(truncateUtf8('\ud800abc', 3)).toBe('\ud800');
    expect(truncateUtf8('a\udc00', 3)).toBe('a');
    expect(truncateUtf8('a\udc00', 4)).toBe('a\udc00');
    expect(truncateUtf8('\ud83d', 10)).toBe('\ud83d');
  });

  it('zero, negative, NaN and other non-positive limits give an empty string', () => {
    for (const n of [0, -1, -0, -Number.MAX_VALUE, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(truncateUtf8('hello', n)).toBe('');
    }
  });

  it('an infinite limit keeps everything; a fractional limit acts like its floor', () => {
    expect(truncateUtf8('héllo', Number.POSITIVE_INFINITY)).toBe('héllo');
    expect(truncateUtf8('héllo', 3.9)).toBe('hé');
  });

  it('the empty string and non-string input', () => {
    expect(truncateUtf8('', 10)).toBe('');
    expect(truncateUtf8(undefined as never, 10)).toBe('');
    expect(truncateUtf8(42 as never, 10)).toBe('');
  });

  it('cuts a long string without walking all of it', () => {
    const long = 'é'.repeat(5_000_000);
    expect(truncateUtf8(long, 201)).toBe('é'.repeat(100));
  });
});

describe('truncateUtf8: properties', () => {
  for (const [label, arb] of [
    ['grapheme strings', strings[0]],
    ['well-formed unicode strings', strings[1]],
    ['strings with lone surrogates', strings[2]],
  ] as const) {
    it(`${label}: a prefix, within the limit, the longest one, never splitting a pair`, () => {
      fc.assert(
        fc.property(arb, maxBytes, (s, n) => {
          const r = truncateUtf8(s, n);
          expect(s.startsWith(r)).toBe(true);
          expect(byteLength(r)).toBeLessThanOrEqual(n);
          expect(r).toBe(referenceTruncate(s, n));
          // Never ends with the high half of a pair that the cut split.
          if (r.length > 0 && r.length < s.length) {
            expect(isHigh(r.charCodeAt(r.length - 1)) && isLow(s.charCodeAt(r.length))).toBe(false);
          }
          // Longest: one more code point would not fit.
          if (r.length < s.length) {
            const next = String.fromCodePoint(s.codePointAt(r.length)!);
            const nextUnits = isHigh(s.charCodeAt(r.length)) && isLow(s.charCodeAt(r.length + 1)) ? 2 : 1;
            expect(byteLength(s.slice(0, r.length + nextUnits))).toBeGreaterThan(n);
            expect(next.length).toBe(nextUnits);
          }
        }),
        { numRuns: 1000 },
      );
    });
  }

  it('a limit at or beyond the full length returns the input unchanged', () => {
    fc.assert(
      fc.property(strings[2], fc.nat(20), (s, extra) => {
        expect(truncateUtf8(s, byteLength(s) + extra)).toBe(s);
      }),
      { numRuns: 500 },
    );
  });

  it('non-positive or NaN limits give an empty string', () => {
    fc.assert(
      fc.property(
        strings[1],
        fc.oneof(fc.integer({ max: 0 }), fc.double({ max: 0 }), fc.constant(Number.NaN)),
        (s, n) => {
          expect(truncateUtf8(s, n)).toBe('');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('utf8ByteLength', () => {
  it('known lengths', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('café')).toBe(5);
    expect(utf8ByteLength('€')).toBe(3);
    expect(utf8ByteLength('\u{1F600}')).toBe(4);
    expect(utf8ByteLength('\u007f\u0080\u07ff\u0800\uffff\u{10000}')).toBe(1 + 2 + 2 + 3 + 3 + 4);
    expect(utf8ByteLength('\ud800')).toBe(3);
  });

  it('equals TextEncoder’s length for well-formed strings (property)', () => {
    for (const arb of [strings[0], strings[1]]) {
      fc.assert(
        fc.property(arb, (s) => {
          expect(utf8ByteLength(s)).toBe(byteLength(s));
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('equals TextEncoder’s length with lone surrogates too (each becomes U+FFFD, 3 bytes)', () => {
    fc.assert(
      fc.property(strings[2], (s) => {
        expect(utf8ByteLength(s)).toBe(byteLength(s));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with truncateUtf8: the whole string fits in exactly utf8ByteLength bytes (property)', () => {
    fc.assert(
      fc.property(strings[2], (s) => {
        const n = utf8ByteLength(s);
        expect(truncateUtf8(s, n)).toBe(s);
        if (n > 0) expect(truncateUtf8(s, n - 1)).not.toBe(s);
      }),
      { numRuns: 500 },
    );
  });
});

describe('utf8ByteLength: never throws', () => {
  it('regression: null, undefined and objects whose length getter throws take 0 bytes', () => {
    const throwingLength = {
      get length(): number {
        throw new Error('length unavailable');
      },
      charCodeAt: () => 0x41,
    };
    for (const value of [null, undefined, throwingLength, new String('abc'), ['a', 'b'], 5, Symbol('s')]) {
      expect(utf8ByteLength(value as never)).toBe(0);
    }
  });

  it('anything but a string primitive takes 0 bytes; a string its TextEncoder length (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string({ unit: 'binary' })), (value) => {
        expect(utf8ByteLength(value as string)).toBe(typeof value === 'string' ? byteLength(value) : 0);
      }),
      { numRuns: 500 },
    );
  });
});

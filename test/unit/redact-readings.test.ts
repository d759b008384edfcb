/**
 * The two readings' findings (lib/redact/readings.ts): merged in order, overlaps joined and named by
 * the longer; literal placeholders a finding covers left out. Checked against a quadratic reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Found, mergeFound, uncovered } from '../../lib/redact/readings';

/** Ordered ranges without overlaps, as one reading gives them. */
const reading = fc
  .array(
    fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom('a', 'b', 'c')),
    {
      maxLength: 8,
    },
  )
  .map((steps) => {
    const out: Found[] = [];
    let at = 0;
    for (const [gap, length, kind] of steps) {
      out.push({ start: at + gap, end: at + gap + length, kind });
      at += gap + length;
    }
    return out;
  });

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

describe('mergeFound', () => {
  it('joins what overlaps, names it by the longer, and covers exactly what either reading covers', () => {
    fc.assert(
      fc.property(reading, reading, (a, b) => {
        const merged = mergeFound(a, b);
        for (let i = 1; i < merged.length; i++)
          expect(merged[i]!.start).toBeGreaterThanOrEqual(merged[i - 1]!.end);
        const covered = (list: readonly Found[], p: number) => list.some((f) => f.start <= p && p < f.end);
        const end = Math.max(0, ...a.map((f) => f.end), ...b.map((f) => f.end));
        for (let p = 0; p < end; p++) expect(covered(merged, p)).toBe(covered(a, p) || covered(b, p));
        // Each merged finding is named by the longest of the findings it joins.
        for (const m of merged) {
          const parts = [...a, ...b].filter((f) => overlaps(f, m));
          const longest = Math.max(...parts.map((f) => f.end - f.start));
          expect(parts.filter((f) => f.end - f.start === longest).map((f) => f.kind)).toContain(m.kind);
        }
      }),
    );
  });

  it('an address inside a longer key becomes the key', () => {
    expect(
      mergeFound([{ start: 0, end: 14, kind: 'email' }], [{ start: 0, end: 63, kind: 'openai-key' }]),
    ).toEqual([{ start: 0, end: 63, kind: 'openai-key' }]);
  });
});

describe('uncovered', () => {
  it('keeps, in order and once, the literals no finding overlaps', () => {
    // The two lists hold placeholders of one text: a range in both is the same range.
    const two = reading.chain((all) =>
      fc
        .tuple(
          fc.array(fc.boolean(), { minLength: all.length, maxLength: all.length }),
          fc.array(fc.boolean(), { minLength: all.length, maxLength: all.length }),
        )
        .map(([p, q]) => [all.filter((_, i) => p[i]), all.filter((_, i) => q[i])] as const),
    );
    fc.assert(
      fc.property(two, reading, ([x, y], found) => {
        const pairs = (l: Found[]) => l.flatMap((f) => [f.start, f.end]);
        const out = uncovered(pairs(x), pairs(y), found);
        const expected = new Map<number, number>();
        for (const f of [...x, ...y]) if (!found.some((g) => overlaps(f, g))) expected.set(f.start, f.end);
        expect(out).toEqual([...expected].sort((p, q) => p[0] - q[0]).flat());
      }),
    );
  });
});

/**
 * Shared by the gate tests (categorise-gates, categorise-located-table): lines built from a table's
 * examples, changed where they open, inside and at the end, and what the gates derived from a set of
 * patterns (lib/categorise/gates.ts) get wrong on one line. A gate may let through a line its pattern
 * does not match, never turn away one it does.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { firstWordGate, type GateData, requiredGate } from '../../lib/categorise/gates';
import { firstWords, requiredSets, requiredWords } from '../../tools/shared/gate-derive';

/** The gate data `npm run gates` derives for `pattern`. */
export const derivedData = (pattern: RegExp): GateData => ({
  first: firstWords(pattern) ?? null,
  ...requiredSets(pattern),
});
/** A first-word gate over `patterns`, from their derived data. */
export const openingGate = (patterns: readonly RegExp[]) => firstWordGate(patterns.map((p) => firstWords(p)));
/** The needed-words gate of `pattern`, from its derived data. */
export const neededGate = (pattern: RegExp, options?: { search?: boolean }) =>
  requiredGate(derivedData(pattern), options);

/**
 * Variants of `examples`: another first word (from `words`), a lead (white space, a list mark, an
 * opener), a word or mark put inside, the first letter's case, a cut or an added end.
 */
export function variedLines(examples: readonly string[], words: readonly string[]): fc.Arbitrary<string> {
  return fc
    .record({
      base: fc.constantFrom(...examples),
      lead: fc.constantFrom(
        '',
        '',
        ' ',
        '\t',
        '\u00a0',
        '- ',
        '* ',
        'So, ',
        'OK ',
        'Hmm, ',
        'x ',
        '2. ',
        '`',
      ),
      swap: fc.option(fc.constantFrom(...words), { freq: 3 }),
      at: fc.nat({ max: 60 }),
      put: fc.option(fc.constantFrom(...words, ',', '`', '"', ':', '\t', 'LINE', 'Should'), { freq: 3 }),
      upper: fc.boolean(),
      cut: fc.nat({ max: 6 }),
      tail: fc.constantFrom('', '', ' and more', ':', '!', '?', '.', '`'),
    })
    .map(({ base, lead, swap, at, put, upper, cut, tail }) => {
      let b = swap === null ? base : base.replace(/^[A-Za-z]+/, swap);
      if (put !== null) b = b.slice(0, at) + put + b.slice(at);
      b = upper ? b.charAt(0).toUpperCase() + b.slice(1) : b.charAt(0).toLowerCase() + b.slice(1);
      return lead + b.slice(0, b.length - cut) + tail;
    });
}

/** The words of the patterns' sources: what `variedLines` puts in. */
export const patternWords = (patterns: readonly RegExp[]): string[] => [
  ...new Set(patterns.flatMap((p) => p.source.match(/[a-z]{2,}/g) ?? [])),
];

/**
 * The gates of `patterns`, and what they get wrong on `raw`: for each pattern that matches it, a
 * message when its first-word bit is off, a set of needed words or marks is not in the line, or its
 * `requiredGate` says no. `matched` counts the patterns that matched, so a caller can check the
 * lines did exercise them.
 */
export function gateChecker(
  patterns: readonly RegExp[],
): (raw: string) => { matched: number; wrong: string[] } {
  const opens = openingGate(patterns);
  const needs = patterns.map((p) => ({ sets: requiredWords(p), gate: neededGate(p) }));
  return (raw) => {
    const bits = opens(raw);
    const lower = raw.toLowerCase();
    const wrong: string[] = [];
    let matched = 0;
    patterns.forEach((p, k) => {
      if (!p.test(raw)) return;
      matched++;
      const on = `${p.source} on ${JSON.stringify(raw)}`;
      if ((bits & (1 << k)) === 0) wrong.push(`first word: ${on}`);
      for (const set of needs[k]!.sets)
        if (!set.some((w) => lower.includes(w))) wrong.push(`needs ${set}: ${on}`);
      if (!needs[k]!.gate(raw)) wrong.push(`requiredGate: ${on}`);
    });
    return { matched, wrong };
  };
}

/**
 * Asserts on `numRuns` lines varied from `examples` (one per pattern, or more) that the gates of
 * `patterns` let through every line a pattern matches, and that at least `minMatched` matches were
 * seen (so the property is not vacuous).
 */
export function assertGatesSound(
  patterns: readonly RegExp[],
  examples: readonly string[],
  { numRuns, minMatched }: { numRuns: number; minMatched: number },
): void {
  const check = gateChecker(patterns);
  let matched = 0;
  fc.assert(
    fc.property(variedLines(examples, patternWords(patterns)), (raw) => {
      const r = check(raw);
      matched += r.matched;
      expect(r.wrong).toEqual([]);
    }),
    { numRuns },
  );
  expect(matched).toBeGreaterThan(minMatched);
}

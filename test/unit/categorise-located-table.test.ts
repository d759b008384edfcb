/**
 * The evidence table (lib/categorise/located-rules.ts): every row reads its own example through the
 * function of its question, and its shortcuts (gates.ts) never turn away a line the row reads: lines
 * built from the examples, changed where they open, inside and at the end.
 */
import { describe, expect, it } from 'vitest';
import { errorIn, locatesEvidence, quotesSource } from '../../lib/categorise/located';
import { EVIDENCE_RULES } from '../../lib/categorise/located-rules';
import { assertGatesSound } from './gates-sound';

const ASK = { located: locatesEvidence, quoted: quotesSource, error: errorIn } as const;

describe('categorise: the evidence table', () => {
  it.each(EVIDENCE_RULES.map((r) => [r.id, r] as const))('%s reads its example', (_id, rule) => {
    expect(rule.pattern.test(rule.example)).toBe(true);
    expect(ASK[rule.asks](rule.example)).toBe(true);
  });

  it('names each row once', () => {
    const ids = EVIDENCE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads a line whose words are spaced by a tab as its pattern does', () => {
    // The hand-written shortcut looked for " in " with spaces.
    expect(locatesEvidence('So the core logic should be\tin `lib/matplotlib/axes/_axes.py`.')).toBe(true);
    expect(errorIn('the error occurs\tin `a/b.py`')).toBe(true);
  });

  it('never turns away a line a row matches (first word, needed words and marks)', () => {
    const patterns = EVIDENCE_RULES.map((r) => r.pattern);
    assertGatesSound(
      patterns,
      EVIDENCE_RULES.map((r) => r.example),
      { numRuns: 10_000, minMatched: 1_000 },
    );
  });
});

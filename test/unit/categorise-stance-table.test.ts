/**
 * The stance table (lib/categorise/stance-rules.ts): every row reads its own example through
 * `stanceCategory`, ids are unique, and every row is gated by a shortcut read off its pattern (its first
 * words, or the needles of the words it cannot do without) or by the line's last character.
 */
import { describe, expect, it } from 'vitest';
import { IMP, KIND } from '../../lib/categorise/cues';
import { needlesOf } from '../../lib/categorise/needles';
import { stanceCategory } from '../../lib/categorise/stance';
import { STANCE_RULES } from '../../lib/categorise/stance-rules';
import { firstWords, requiredWords } from '../../tools/shared/gate-derive';

const isVerb = (w: string) => ((KIND.get(w) ?? 0) & IMP) !== 0;

describe('categorise: the stance table', () => {
  it.each(STANCE_RULES.map((r) => [r.id, r] as const))('%s reads its example', (_id, rule) => {
    const m = rule.pattern.exec(rule.example);
    expect(m).not.toBeNull();
    const want =
      typeof rule.category === 'number'
        ? rule.category
        : rule.category[m![1]!.toLowerCase().replace(/\s+/g, ' ')];
    expect(want).toBeDefined();
    // No earlier row (nor the status written last) takes the example first.
    expect(stanceCategory(rule.example, isVerb)).toBe(want);
  });

  it('names each row once', () => {
    const ids = STANCE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    // One row a bit of a 32-bit mask (stance.ts reads the rows by bit).
    expect(ids.length).toBeLessThanOrEqual(31);
  });

  it('gates every row by a shortcut read off its pattern, or by the line’s last character', () => {
    const ungated = STANCE_RULES.filter((r) => {
      const needles = requiredWords(r.pattern).filter((ws) => ws.every((w) => needlesOf(w) !== 0));
      return !firstWords(r.pattern) && needles.length === 0 && r.ends === undefined;
    });
    expect(ungated.map((r) => r.id)).toEqual([]);
  });

  it('reads a capitalised word and a line opened by a non-breaking space as the pattern does', () => {
    // The hand-written shortcuts these rows had looked for "ask" and "would" in lower case and for the
    // first letter after ASCII white space only.
    expect(stanceCategory('Asked if we can ship it.', isVerb)).toBe(
      STANCE_RULES.find((r) => r.id === 'question-asked-if')!.category,
    );
    expect(stanceCategory('\u00a0Step 2: Modify line 1715 to add `%`.', isVerb)).toBe(
      STANCE_RULES.find((r) => r.id === 'next-step')!.category,
    );
  });
});

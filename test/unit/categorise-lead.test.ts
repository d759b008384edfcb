/**
 * The openings of lead-rules.ts, read by `leadCategory`: each row's example gives the row's category,
 * a veto or a label word outside the table gives none, and every row has the gate data
 * `npm run gates` derives from its pattern.
 */
import { describe, expect, it } from 'vitest';
import { BLOCKER, EVIDENCE, NEXT, NONE } from '../../lib/categorise/codes';
import { gateData } from '../../lib/categorise/gates';
import { leadCategory } from '../../lib/categorise/lead';
import { LABELS, LEAD_RULES } from '../../lib/categorise/lead-rules';

describe('the openings table', () => {
  it.each(LEAD_RULES.map((r) => [r.id, r] as const))('%s: its example gives its category', (_, rule) => {
    const m = rule.pattern.exec(rule.example);
    expect(m, rule.example).not.toBeNull();
    const expected =
      rule.category === 'label'
        ? LABELS.get(m![1]!.trim().toLowerCase().split(/\s+/).pop()!)
        : rule.bare !== undefined && m![1] === undefined
          ? rule.bare
          : rule.category;
    expect(leadCategory(rule.example)).toBe(expected);
  });

  it('has an id of its own and gate data for every row', () => {
    expect(new Set(LEAD_RULES.map((r) => r.id)).size).toBe(LEAD_RULES.length);
    for (const r of LEAD_RULES) expect(gateData(r.id), r.id).toBeDefined();
  });

  it('reads the veto, the diagnosis not named and a label word outside the table', () => {
    expect(leadCategory('Line 12: this should become `x`')).not.toBe(EVIDENCE);
    expect(leadCategory('I can see the redundancy issue!')).toBe(NONE);
    expect(leadCategory('I see the issue - the key is never reset')).toBe(BLOCKER);
    expect(leadCategory('Constructor: builds the client from options')).toBe(-1);
    expect(leadCategory('Plan: rerun the suite')).toBe(NEXT);
    expect(leadCategory('Next steps for the team: rerun it')).toBe(-1); // four words: no label
  });
});

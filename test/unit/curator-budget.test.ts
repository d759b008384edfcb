/**
 * The playbook's token budget (Wilson lower bound, least-trusted evicted first, protected key points
 * last) and selectForPrompt, on the realistic playbook fixture and at scale.
 */
import {
  emptyPlaybook,
  enforceBudget,
  formatPlaybook,
  SECTION_NAMES,
  selectForPrompt,
  WILSON_Z,
  wilsonLowerBound,
} from 'rearview/playbook';
import { describe, expect, it } from 'vitest';
import { find, fixture, names } from './curator-helpers';

describe('token budget', () => {
  it('Wilson lower bound with z = 1.96', () => {
    expect(WILSON_Z).toBe(1.96);
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(1, 0)).toBeCloseTo(0.2065, 3);
    expect(wilsonLowerBound(10, 0)).toBeCloseTo(0.7225, 3);
    expect(wilsonLowerBound(1, 1)).toBeCloseTo(0.0945, 3);
    expect(wilsonLowerBound(10, 5)).toBeLessThan(wilsonLowerBound(10, 0));
  });

  it('evicts least-trusted first, protects the latest round, logs every eviction, and fits', () => {
    const pb = fixture();
    const full = formatPlaybook(pb).length;
    expect(full).toBeGreaterThan(0);
    const logged: string[] = [];
    const res = enforceBudget(pb, { maxTokens: 400, onEvict: (e) => logged.push(e.name) });
    expect(res.tokensBefore).toBeGreaterThan(400);
    expect(res.tokens).toBeLessThanOrEqual(400);
    expect(res.withinBudget).toBe(true);
    expect(logged).toEqual(res.evicted.map((e) => e.name));
    expect(res.operations).toEqual(logged.map((name) => ({ type: 'REMOVE', name })));
    // (0,1) before (0,0) at equal confidence, older first; pat-008 was updated last (protected).
    expect(logged.slice(0, 3)).toEqual(['mis-005', 'oth-002', 'pat-007']);
    expect(logged).not.toContain('pat-008');
    expect(res.evicted.every((e) => !e.protected)).toBe(true);
    expect(find(res.playbook, 'pat-001')).toBeDefined();
    expect(find(pb, 'mis-005')).toBeDefined(); // input untouched
    // Deterministic.
    expect(enforceBudget(fixture(), { maxTokens: 400 }).evicted).toEqual(res.evicted);
    // Within budget: nothing happens.
    expect(enforceBudget(pb, { maxTokens: 100_000 }).evicted).toEqual([]);
  });

  it('protected key points go last, and only when nothing else is left', () => {
    const pb = fixture();
    const res = enforceBudget(pb, { maxTokens: 150, protect: ['mis-005'], protectRounds: 0 });
    expect(res.tokens).toBeLessThanOrEqual(150);
    const idx = res.evicted.findIndex((e) => e.name === 'mis-005');
    if (idx >= 0) {
      expect(res.evicted[idx]!.protected).toBe(true);
      expect(res.evicted.slice(0, idx).every((e) => !e.protected)).toBe(true);
    }
    const tiny = enforceBudget(pb, { maxTokens: 10 });
    expect(tiny.withinBudget).toBe(false);
    expect(names(tiny.playbook)).toEqual([]);
  });
});

describe('selectForPrompt', () => {
  it('picks relevant, trusted key points within the budget, in playbook order', () => {
    const pb = fixture();
    const sel = selectForPrompt(pb, 'fix the failing database migration test', { tokenBudget: 250 });
    expect(sel.tokens).toBeLessThanOrEqual(250);
    expect(sel.selected[0]!.name).toBe('mis-002');
    expect(sel.selected.map((s) => s.name)).toContain('pat-006');
    expect(sel.text).toBe(formatPlaybook(sel.playbook));
    expect(sel.omitted).toBe(names(pb).length - sel.selected.length);
    const order = names(sel.playbook);
    expect(order).toEqual(names(pb).filter((n) => order.includes(n)));
    // No query: confidence alone.
    const byConfidence = selectForPrompt(pb, '', { tokenBudget: 200 });
    expect(byConfidence.selected[0]!.name).toBe('pat-001');
    // Budget too small for any line: empty but valid.
    expect(selectForPrompt(pb, 'x', { tokenBudget: 5 }).selected).toEqual([]);
  });

  it('scales: 20,000 key points into a 2,000-token prompt', () => {
    const pb = emptyPlaybook();
    for (let i = 0; i < 20_000; i++) {
      pb.sections[SECTION_NAMES[i % 5]!].push({
        name: `kpt_${i}`,
        text: `Key point ${i} about ${['tests', 'migrations', 'caching', 'deploys'][i % 4]} and module m${i % 97}`,
        helpful: i % 7,
        harmful: i % 3,
      });
    }
    // Its speed is bench/playbook.bench.ts's selectForPrompt/10k-into-2k-tokens.
    const sel = selectForPrompt(pb, 'flaky migrations in module m13', { tokenBudget: 2000 });
    expect(sel.tokens).toBeLessThanOrEqual(2000);
    expect(sel.selected.length).toBeGreaterThan(10);
  });
});

/**
 * The reflection loop's convergence helpers (checkConvergence, hasConverged, improvementScore,
 * contentChange) and its property test: never more than maxIterations; best has the best score.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  type Critique,
  checkConvergence,
  contentChange,
  hasConverged,
  improvementScore,
  normalizeContent,
  runReflectionLoop,
} from '../../lib/loop/index';
import { LADDER, ladder, NEXT } from './loop-helpers';

describe('convergence helpers', () => {
  const cand = (content: string, score?: number): Candidate => ({
    content,
    metadata: {},
    ...(score === undefined ? {} : { score }),
  });
  const crit = (severity: number, score?: number): Critique => ({
    issues: [],
    severity,
    ...(score === undefined ? {} : { score }),
  });

  it('checkConvergence: low severity converges', () => {
    expect(checkConvergence(undefined, { candidate: cand('a'), critique: crit(0.05) })).toEqual({
      converged: true,
      reason: 'low_severity',
    });
    expect(
      checkConvergence(undefined, { candidate: cand('a'), critique: crit(0.3) }, { severityThreshold: 0.3 })
        .reason,
    ).toBe('low_severity');
  });

  it('checkConvergence: score plateau, regressions included', () => {
    const prev = { candidate: cand('a', 0.5), critique: crit(0.5) };
    expect(checkConvergence(prev, { candidate: cand('b', 0.55), critique: crit(0.45) })).toMatchObject({
      converged: true,
      reason: 'score_plateau',
    });
    expect(checkConvergence(prev, { candidate: cand('b', 0.3), critique: crit(0.7) }).reason).toBe(
      'score_plateau',
    );
    expect(checkConvergence(prev, { candidate: cand('b', 0.7), critique: crit(0.3) })).toMatchObject({
      converged: false,
    });
  });

  it('checkConvergence: minimal change is measured on normalized content', () => {
    const base = { candidate: cand('return a+b;'), critique: crit(0.5) };
    expect(checkConvergence(undefined, { ...base, revision: cand('return a+b;  \n') })).toMatchObject({
      reason: 'minimal_change',
      change: 0,
    });
    expect(checkConvergence(undefined, { ...base, revision: cand('return a + b;') }).converged).toBe(false);
  });

  it('checkConvergence: max iterations stops without converging', () => {
    expect(
      checkConvergence(
        undefined,
        { iteration: 3, candidate: cand('a'), critique: crit(0.9) },
        { maxIterations: 3 },
      ),
    ).toEqual({
      converged: false,
      reason: 'max_iterations',
    });
  });

  it('hasConverged reads the last two iterations', async () => {
    expect(hasConverged([])).toBe(false);
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v0',
      critiquer: s.critiquer,
      reviser: s.reviser,
      maxIterations: 2,
    });
    expect(hasConverged(r.history)).toBe(false);
    const done = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v3',
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    expect(hasConverged(done.history)).toBe(true);
  });

  it('improvementScore: score delta, else severity decrease, else 0', () => {
    expect(improvementScore({ score: 0.5 }, { score: 0.8 })).toBeCloseTo(0.3);
    expect(improvementScore({ severity: 0.7 }, { severity: 0.2 })).toBeCloseTo(0.5);
    expect(improvementScore({ score: 0.5, severity: 0.1 }, { severity: 0.2 })).toBeCloseTo(-0.1);
    expect(improvementScore({}, {})).toBe(0);
  });

  it('contentChange and normalizeContent ignore whitespace and measure the differing middle', () => {
    expect(normalizeContent('  a\n\n  b\t')).toBe('a b');
    expect(contentChange('abcd', 'abXd')).toBe(0.25);
    expect(contentChange('same', ' same\n')).toBe(0);
    expect(contentChange('abc', 'xyz')).toBe(1);
    expect(contentChange('', 'x')).toBe(1);
    expect(contentChange('aaaa', 'aaaaaa')).toBeCloseTo(2 / 6);
  });
});

describe('properties', () => {
  const critiqueArb = fc.record({
    severity: fc.double({ min: 0, max: 1, noNaN: true }),
    score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  });
  const runArb = fc.record({
    maxIterations: fc.integer({ min: 1, max: 8 }),
    critiques: fc.array(critiqueArb, { minLength: 1, maxLength: 12 }),
    sameRevision: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    convergenceThreshold: fc.double({ min: 0, max: 0.5, noNaN: true }),
    severityThreshold: fc.double({ min: 0, max: 0.5, noNaN: true }),
  });

  it('never exceeds maxIterations; best has the best score in the history; reasons are consistent', async () => {
    await fc.assert(
      fc.asyncProperty(runArb, async (c) => {
        let n = 0;
        let revisions = 0;
        const r = await runReflectionLoop({
          prompt: 'p',
          initialCandidate: 'c0',
          critiquer: () => {
            const row = c.critiques[n++ % c.critiques.length]!;
            return {
              issues: [],
              severity: row.severity,
              ...(row.score === undefined ? {} : { score: row.score }),
            };
          },
          reviser: (_p, cand) => {
            const same = c.sameRevision[revisions++ % 12];
            return same ? ` ${cand.content} ` : `c${revisions}`;
          },
          maxIterations: c.maxIterations,
          convergenceThreshold: c.convergenceThreshold,
          severityThreshold: c.severityThreshold,
        });
        expect(r.iterations).toBeLessThanOrEqual(c.maxIterations);
        expect(r.history).toHaveLength(r.iterations);
        expect(revisions).toBeLessThanOrEqual(c.maxIterations - 1 + (r.reason === 'minimal_change' ? 1 : 0));
        const top = Math.max(...r.history.map((h) => h.candidate.score!));
        expect(r.best.score).toBe(top);
        expect(r.history.some((h) => h.candidate === r.best)).toBe(true);
        expect(r.converged).toBe(['low_severity', 'minimal_change', 'score_plateau'].includes(r.reason));
        if (r.reason === 'max_iterations') expect(r.iterations).toBe(c.maxIterations);
        expect(hasConverged(r.history, c)).toBe(r.converged);
      }),
      { numRuns: 300 },
    );
  });
});

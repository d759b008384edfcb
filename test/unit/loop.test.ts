/**
 * The reflection loop (seed 003, 4.3.1/4.3.2 and the reflection_loop_test list): iterations, the
 * iteration limit, the convergence reasons that stop it, history and best-candidate selection.
 */
import { describe, expect, it } from 'vitest';
import { type IterationRecord, runReflectionLoop, type StepContext } from '../../lib/loop/index';
import { LADDER, ladder, NEXT } from './loop-helpers';

function tick(step = 1) {
  let t = 0;
  return () => {
    t += step;
    return t;
  };
}

describe('runReflectionLoop: iterations and limits', () => {
  it('executes multiple critique-revise iterations', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      generator: s.generator,
      critiquer: s.critiquer,
      reviser: s.reviser,
      maxIterations: 3,
    });
    expect(r.iterations).toBe(3);
    expect(r.history.map((h) => h.candidate.content)).toEqual(['v0', 'v1', 'v2']);
    expect(s.calls).toEqual({ generate: 1, critique: 3, revise: 2 });
  });

  it('uses the generator when no initial candidate is given', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      generator: s.generator,
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    expect(s.calls.generate).toBe(1);
    expect(r.initial).toEqual({ content: 'v0', metadata: {} });
  });

  it('starts from initialCandidate (string or object) without calling the generator', async () => {
    const s = ladder(LADDER, NEXT);
    const a = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v2',
      generator: s.generator,
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    const b = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: { content: 'v3', metadata: { from: 'cache' } },
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    expect(s.calls.generate).toBe(0);
    expect(a.history[0]!.candidate.content).toBe('v2');
    expect(b.initial.metadata).toEqual({ from: 'cache' });
  });

  it('enforces max_iterations: not converged, no revision after the last critique', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v0',
      critiquer: s.critiquer,
      reviser: s.reviser,
      maxIterations: 2,
    });
    expect(r).toMatchObject({ reason: 'max_iterations', converged: false, iterations: 2 });
    expect(r.history[1]!.revision).toBeUndefined();
    expect(s.calls).toMatchObject({ critique: 2, revise: 1 });
  });

  it('with maxIterations 1 critiques once and never revises', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v0',
      critiquer: s.critiquer,
      reviser: s.reviser,
      maxIterations: 1,
    });
    expect(r).toMatchObject({ iterations: 1, reason: 'max_iterations' });
    expect(s.calls.revise).toBe(0);
  });

  it('accepts components as objects with methods', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      generator: { generate: s.generator },
      critiquer: { critique: s.critiquer },
      reviser: { revise: s.reviser },
      maxIterations: 5,
    });
    expect(r).toMatchObject({ reason: 'low_severity', converged: true, iterations: 5 });
  });
});

describe('runReflectionLoop: convergence stops the loop', () => {
  it('stops on low severity', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v3',
      critiquer: s.critiquer,
      reviser: s.reviser,
      maxIterations: 10,
    });
    expect(r).toMatchObject({ reason: 'low_severity', converged: true, iterations: 2 });
    expect(r.best.content).toBe('good');
  });

  it('stops on a score plateau', async () => {
    const table = {
      a: { severity: 0.6, score: 0.4 },
      b: { severity: 0.55, score: 0.45 },
      c: { severity: 0, score: 1 },
    };
    const s = ladder(table, { a: 'b', b: 'c' });
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: s.critiquer,
      reviser: s.reviser,
      maxIterations: 5,
    });
    expect(r).toMatchObject({ reason: 'score_plateau', converged: true, iterations: 2 });
    expect(r.history[1]!.improvement).toBeCloseTo(0.05);
  });

  it('stops on minimal change: a whitespace-only revision is not progress and is not adopted', async () => {
    const table = { 'x = 1\nprint(x)': { severity: 0.6, score: 0.4 } };
    const s = ladder(table, { 'x = 1\nprint(x)': '  x = 1\n\n   print(x)  \n' });
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'x = 1\nprint(x)',
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    expect(r).toMatchObject({ reason: 'minimal_change', converged: true, iterations: 1 });
    expect(r.history[0]!.change).toBe(0);
    expect(r.history[0]!.revision!.content).toContain('   print');
    expect(r.best.content).toBe('x = 1\nprint(x)');
    expect(s.calls.critique).toBe(1);
  });

  it('a custom convergenceThreshold of 0 keeps going while there is any improvement', async () => {
    const table = {
      a: { severity: 0.6, score: 0.4 },
      b: { severity: 0.55, score: 0.45 },
      c: { severity: 0.5, score: 0.5 },
    };
    const s = ladder(table, { a: 'b', b: 'c', c: 'c!' });
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: s.critiquer,
      reviser: s.reviser,
      convergenceThreshold: 0,
      maxIterations: 3,
    });
    expect(r).toMatchObject({ reason: 'max_iterations', iterations: 3 });
  });
});

describe('runReflectionLoop: history and best candidate', () => {
  it('tracks every iteration: candidate, critique, revision and timings', async () => {
    const s = ladder(LADDER, NEXT);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v0',
      critiquer: s.critiquer,
      reviser: s.reviser,
      clock: tick(),
    });
    expect(r.history).toHaveLength(3);
    const [h1, h2, h3] = r.history as [IterationRecord, IterationRecord, IterationRecord];
    expect(h1).toMatchObject({
      iteration: 1,
      candidate: { content: 'v0', score: 0.2 },
      revision: { content: 'v1' },
    });
    expect(h1.critique).toEqual({
      issues: ['wrong unit', 'no example'],
      severity: 0.8,
      score: 0.2,
      feedback: 'Use metres; add an example.',
    });
    expect(h1.improvement).toBeUndefined();
    expect(h2.improvement).toBeCloseTo(0.3);
    expect(h1.change).toBe(0.5);
    expect(h3.revision).toBeUndefined();
    // A fake clock that ticks once per reading: every timing is deterministic.
    expect(h1.timings).toEqual({ critiqueMs: 1, reviseMs: 1, totalMs: 3 });
    expect(h3.timings).toEqual({ critiqueMs: 1, totalMs: 1 });
    expect(r.timings.generateMs).toBe(1);
  });

  it('returns the best candidate across iterations, not the last', async () => {
    const table = {
      a: { severity: 0.7, score: 0.3 },
      b: { severity: 0.3, score: 0.8 },
      c: { severity: 0.5, score: 0.5 },
    };
    const s = ladder(table, { a: 'b', b: 'c' });
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    expect(r).toMatchObject({ reason: 'score_plateau', iterations: 3 });
    expect(r.history.at(-1)!.candidate.content).toBe('c');
    expect(r.best).toMatchObject({ content: 'b', score: 0.8 });
  });

  it('breaks ties in favour of the earliest candidate', async () => {
    const table = { a: { severity: 0.5, score: 0.5 }, b: { severity: 0.5, score: 0.5 } };
    const s = ladder(table, { a: 'b' });
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: s.critiquer,
      reviser: s.reviser,
    });
    expect(r.best.content).toBe('a');
  });

  it('scores candidates from the critique: score, else 1 − severity; a prior score is kept', async () => {
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: { content: 'a', score: 0.99 },
      critiquer: () => ({ issues: ['x'], severity: 0.25 }),
      reviser: () => 'b',
      maxIterations: 1,
    });
    expect(r.history[0]!.candidate).toEqual({ content: 'a', score: 0.75, metadata: { priorScore: 0.99 } });
  });

  it('passes a step context: iteration, memory, history, usage and signal', async () => {
    const seen: { step: string; iteration: number; historyLength: number; signal: boolean }[] = [];
    const note = (step: string, ctx: StepContext) =>
      seen.push({
        step,
        iteration: ctx.iteration,
        historyLength: ctx.history.length,
        signal: ctx.signal !== undefined,
      });
    await runReflectionLoop({
      prompt: 'p',
      generator: (_p, ctx) => {
        note('g', ctx);
        return 'a';
      },
      critiquer: (_p, c, ctx) => {
        note('c', ctx);
        return { issues: [], severity: c.content === 'a' ? 0.9 : 0 };
      },
      reviser: (_p, _c, _k, ctx) => {
        note('r', ctx);
        return 'b';
      },
      signal: new AbortController().signal,
    });
    expect(seen).toEqual([
      { step: 'g', iteration: 0, historyLength: 0, signal: true },
      { step: 'c', iteration: 1, historyLength: 0, signal: true },
      { step: 'r', iteration: 1, historyLength: 1, signal: true },
      { step: 'c', iteration: 2, historyLength: 1, signal: true },
    ]);
  });
});

/**
 * The reflection loop (seed 003, 4.3.1/4.3.2 and the reflection_loop_test list): iterations,
 * convergence reasons, the iteration limit, history, best-candidate selection, cancellation, budgets,
 * and the ready components: scripted, tool-backed, and LLM-backed through the real SDK against the
 * local Messages API server. Property tests: never more than maxIterations; best has the best score.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, type LlmClient } from '../../lib/llm/index';
import {
  type Candidate,
  type Critique,
  checkConvergence,
  combinedSeverity,
  contentChange,
  createUsageMeter,
  hasConverged,
  type IterationRecord,
  improvementScore,
  llmCritiquer,
  llmGenerator,
  llmReviser,
  normalizeContent,
  runReflectionLoop,
  type StepContext,
  toolCritiquer,
} from '../../lib/loop/index';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';

type Row = { severity: number; score?: number; issues?: string[]; feedback?: string };

/** Scripted components: a critique per content, and a revision chain content → next content. */
function ladder(table: Record<string, Row>, next: Record<string, string>) {
  const calls = { critique: 0, revise: 0, generate: 0 };
  return {
    calls,
    critiquer: (_p: string, c: Candidate): Critique => {
      calls.critique++;
      const row = table[c.content];
      if (!row) throw new Error(`no critique scripted for ${c.content}`);
      return { issues: row.issues ?? (row.severity > 0.1 ? ['needs work'] : []), ...row };
    },
    reviser: (_p: string, c: Candidate) => {
      calls.revise++;
      const n = next[c.content];
      if (n === undefined) throw new Error(`no revision scripted for ${c.content}`);
      return n;
    },
    generator: () => {
      calls.generate++;
      return 'v0';
    },
  };
}

const LADDER: Record<string, Row> = {
  v0: {
    severity: 0.8,
    score: 0.2,
    issues: ['wrong unit', 'no example'],
    feedback: 'Use metres; add an example.',
  },
  v1: { severity: 0.5, score: 0.5, issues: ['no example'], feedback: 'Add an example.' },
  v2: { severity: 0.3, score: 0.75, issues: ['terse'] },
  v3: { severity: 0.2, score: 0.9, issues: ['typo'] },
  good: { severity: 0, score: 1, issues: [] },
};
const NEXT: Record<string, string> = { v0: 'v1', v1: 'v2', v2: 'v3', v3: 'good' };

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

describe('runReflectionLoop: validation and failures', () => {
  it('rejects invalid options with a ConfigError naming every problem', async () => {
    await expect(runReflectionLoop({ prompt: 'p' } as never)).rejects.toMatchObject({
      code: 'config_invalid',
    });
    const err = await runReflectionLoop({
      prompt: 1 as never,
      critiquer: 'x' as never,
      reviser: () => 'x',
      maxIterations: 0,
      convergenceThreshold: 2,
      budget: { llmCalls: -1 },
    }).catch((e) => e);
    expect(err.code).toBe('config_invalid');
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual([
      'prompt',
      'critiquer',
      'generator',
      'maxIterations',
      'convergenceThreshold',
      'budget.llmCalls',
    ]);
  });

  it('ends with reason "error" and the best so far when a component throws after the first candidate', async () => {
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: (_p, c) => ({
        issues: ['x'],
        severity: c.content === 'a' ? 0.6 : 0.3,
        score: c.content === 'a' ? 0.4 : 0.7,
      }),
      reviser: (_p, c) => {
        if (c.content === 'b') throw new Error('reviser crashed');
        return 'b';
      },
      maxIterations: 4,
    });
    expect(r).toMatchObject({
      reason: 'error',
      converged: false,
      iterations: 2,
      error: { message: 'reviser crashed' },
    });
    expect(r.best.content).toBe('b');
  });

  it('rejects with the generator error when there is no candidate at all', async () => {
    await expect(
      runReflectionLoop({
        prompt: 'p',
        generator: () => Promise.reject(new Error('no model')),
        critiquer: () => ({ issues: [], severity: 0 }),
        reviser: () => '',
      }),
    ).rejects.toThrow('no model');
  });

  it('never trusts a component result: a malformed critique ends the run with code component_invalid', async () => {
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: () => ({ issues: 'all wrong', severity: 7 }) as never,
      reviser: () => 'b',
    });
    expect(r).toMatchObject({
      reason: 'error',
      iterations: 0,
      error: { code: 'component_invalid' },
      best: { content: 'a' },
    });
  });
});

describe('runReflectionLoop: cancellation', () => {
  it('rejects at once with code aborted when the signal is already aborted', async () => {
    const s = ladder(LADDER, NEXT);
    await expect(
      runReflectionLoop({
        prompt: 'p',
        generator: s.generator,
        critiquer: s.critiquer,
        reviser: s.reviser,
        signal: AbortSignal.abort(),
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(s.calls.generate).toBe(0);
  });

  it('rejects with code aborted when aborted during generation', async () => {
    const controller = new AbortController();
    const pending = runReflectionLoop({
      prompt: 'p',
      generator: () => new Promise<string>(() => {}),
      critiquer: () => ({ issues: [], severity: 0 }),
      reviser: () => 'x',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('resolves with reason aborted and the best so far, even when a component ignores the signal', async () => {
    const controller = new AbortController();
    // The second critique never settles: resolving at all means the abort ended the loop.
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: (_p, c) =>
        c.content === 'a'
          ? { issues: ['x'], severity: 0.6 }
          : new Promise<Critique>(() => setTimeout(() => controller.abort(), 20)),
      reviser: () => 'b',
      signal: controller.signal,
    });
    expect(r).toMatchObject({ reason: 'aborted', converged: false, iterations: 1, best: { content: 'a' } });
  });

  it('stores no lessons after an abort', async () => {
    const stored: unknown[] = [];
    const controller = new AbortController();
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'v0',
      critiquer: (_p, c) => {
        if (c.content === 'v1') controller.abort();
        return { issues: ['x'], severity: LADDER[c.content]!.severity, score: LADDER[c.content]!.score };
      },
      reviser: (_p, c) => NEXT[c.content]!,
      memory: { retrieveSimilar: async () => [], store: async (e) => stored.push(e) },
      remember: 'always',
      signal: controller.signal,
    });
    expect(r.reason).toBe('aborted');
    expect(stored).toEqual([]);
  });
});

describe('runReflectionLoop: budgets', () => {
  /** Components that report LLM usage like the LLM-backed ones do. */
  const metered = (tokens: number) => ({
    generator: (_p: string, ctx: StepContext) => {
      ctx.usage.record({ inputTokens: tokens, outputTokens: 0 });
      return 'v0';
    },
    critiquer: (_p: string, c: Candidate, ctx: StepContext) => {
      ctx.usage.record({ inputTokens: tokens / 2, outputTokens: tokens / 2 });
      return { issues: ['x'], ...LADDER[c.content]! };
    },
    reviser: (_p: string, c: Candidate, _k: Critique, ctx: StepContext) => {
      ctx.usage.record({ inputTokens: tokens, outputTokens: 0 });
      return NEXT[c.content]!;
    },
  });

  it('stops with budget_exhausted once the LLM call budget is used', async () => {
    const r = await runReflectionLoop({
      prompt: 'p',
      ...metered(10),
      budget: { llmCalls: 3 },
      maxIterations: 5,
    });
    expect(r).toMatchObject({
      reason: 'budget_exhausted',
      converged: false,
      iterations: 1,
      usage: { llmCalls: 3, tokens: 30 },
    });
    expect(r.history[0]!.revision!.content).toBe('v1');
  });

  it('stops with budget_exhausted once the token budget is used', async () => {
    const r = await runReflectionLoop({
      prompt: 'p',
      ...metered(100),
      budget: { tokens: 350 },
      maxIterations: 5,
    });
    expect(r).toMatchObject({
      reason: 'budget_exhausted',
      iterations: 2,
      usage: { llmCalls: 4, tokens: 400 },
    });
  });

  it('rejects with budget_exhausted when nothing can be generated', async () => {
    await expect(
      runReflectionLoop({ prompt: 'p', ...metered(1), budget: { llmCalls: 0 } }),
    ).rejects.toMatchObject({
      code: 'budget_exhausted',
    });
  });

  it('a usage meter counts calls and tokens and asserts availability', () => {
    const meter = createUsageMeter({ tokens: 20 });
    meter.record({ inputTokens: 12, outputTokens: 3 });
    expect(meter.exhausted).toBe(false);
    meter.record({ inputTokens: 5, outputTokens: Number.NaN });
    expect(meter.totals).toEqual({ llmCalls: 2, inputTokens: 17, outputTokens: 3, tokens: 20 });
    expect(() => meter.assertAvailable()).toThrow(expect.objectContaining({ code: 'budget_exhausted' }));
  });
});

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

describe('toolCritiquer', () => {
  it('turns a validator’s issues into a critique with combined severity and feedback', async () => {
    const critiquer = toolCritiquer(
      (content) => {
        const issues: { message: string; severity?: number; path?: string }[] = [];
        if (!content.includes('SELECT')) issues.push({ message: 'not a query' });
        if (!content.includes('GROUP BY'))
          issues.push({ message: 'missing GROUP BY', severity: 0.8, path: 'sql' });
        return issues;
      },
      { name: 'sql' },
    );
    const c = await critiquer.critique('p', { content: 'count users', metadata: {} });
    expect(c.issues).toEqual(['[sql] not a query', '[sql] sql: missing GROUP BY']);
    expect(c.severity).toBeCloseTo(1 - 0.5 * 0.2);
    expect(c.score).toBeCloseTo(0.5 * 0.2);
    expect(c.feedback).toBe('Fix these problems:\n- [sql] not a query\n- [sql] sql: missing GROUP BY');
    expect(combinedSeverity([])).toBe(0);
  });

  it('accepts booleans and { issues, score, feedback }', async () => {
    const pass = await toolCritiquer(() => true).critique('p', { content: '', metadata: {} });
    expect(pass).toMatchObject({ issues: [], severity: 0, score: 1 });
    const fail = await toolCritiquer(() => false).critique('p', { content: '', metadata: {} });
    expect(fail).toMatchObject({ issues: ['check failed'], severity: 0.5 });
    const rich = await toolCritiquer(async () => ({
      issues: ['2 of 10 tests fail'],
      score: 0.8,
      feedback: 'see log',
    })).critique('p', {
      content: '',
      metadata: {},
    });
    expect(rich).toMatchObject({ severity: 0.5, score: 0.8, feedback: 'see log' });
  });

  it('reports a throwing check as one issue of severity 1, or rethrows when asked to', async () => {
    const throwing = () => JSON.parse('{nope');
    const c = await toolCritiquer(throwing).critique('p', { content: '', metadata: {} });
    expect(c.severity).toBe(1);
    expect(c.issues[0]).toMatch(/^check failed: /);
    await expect(
      toolCritiquer(throwing, { errorsAsIssues: false }).critique('p', { content: '', metadata: {} }),
    ).rejects.toThrow(SyntaxError);
  });

  it('never trusts the tool output shape', async () => {
    const bad = toolCritiquer(() => ({ problems: ['x'] }) as never);
    await expect(bad.critique('p', { content: '', metadata: {} })).rejects.toMatchObject({
      code: 'component_invalid',
    });
    const outOfRange = toolCritiquer(() => [{ message: 'x', severity: 3 }]);
    await expect(outOfRange.critique('p', { content: '', metadata: {} })).rejects.toMatchObject({
      code: 'component_invalid',
    });
  });

  it('drives the loop: a test-run critiquer and a scripted fixer converge on low severity', async () => {
    const tests: ((src: string) => string | true)[] = [
      (src: string) => src.includes('function add') || 'add is not defined',
      (src: string) => src.includes('a + b') || 'add(1, 2) should be 3',
      (src: string) => src.includes('export') || 'add is not exported',
    ];
    const critiquer = toolCritiquer(
      (src) => tests.map((t) => t(src)).filter((r): r is string => r !== true),
      { name: 'tests' },
    );
    const fixes: Record<string, string> = {
      'add is not defined': 'function add(a, b) { return a - b; }',
      'add(1, 2) should be 3': 'function add(a, b) { return a + b; }',
      'add is not exported': 'export function add(a, b) { return a + b; }',
    };
    const r = await runReflectionLoop({
      prompt: 'Write add(a, b)',
      initialCandidate: '',
      critiquer,
      reviser: (_p, _c, critique) => fixes[critique.issues[0]!.replace('[tests] ', '')]!,
      maxIterations: 5,
    });
    expect(r).toMatchObject({ reason: 'low_severity', converged: true, iterations: 4 });
    expect(r.best.content).toBe('export function add(a, b) { return a + b; }');
    expect(r.history.map((h) => h.critique.issues.length)).toEqual([3, 2, 1, 0]);
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

describe('LLM-backed components through the real SDK against the local Messages API', () => {
  let mock: MockAnthropic;
  let llm: LlmClient;
  beforeAll(async () => {
    mock = await startMockAnthropic();
    llm = anthropicClient({
      apiKey: 'sk-ant-test',
      baseURL: mock.url,
      retry: { random: () => 0, sleep: async () => {} },
    });
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());

  const json = (value: unknown, prose = true) => ({
    kind: 'json' as const,
    text: prose
      ? `Here is my assessment:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``
      : JSON.stringify(value),
    usage: { input_tokens: 20, output_tokens: 10 },
  });
  const bodies = () =>
    mock.requests.map((r) => r.body as { system?: string; messages: { role: string; content: string }[] });

  it('generates, critiques and revises until low severity, counting usage', async () => {
    mock.script([
      {
        kind: 'json',
        text: 'Paris is the capital of Germany.',
        usage: { input_tokens: 30, output_tokens: 8 },
      },
      json({
        issues: ['Paris is the capital of France, not Germany'],
        severity: 0.9,
        score: 0.1,
        feedback: 'Fix the country.',
      }),
      json({ content: 'Paris is the capital of France.', changes: ['Corrected the country'] }, false),
      json({ issues: [], severity: 0, score: 1 }),
    ]);
    const r = await runReflectionLoop({
      prompt: 'What is Paris the capital of?',
      generator: llmGenerator({ llm }),
      critiquer: llmCritiquer({ llm }),
      reviser: llmReviser({ llm }),
    });
    expect(r).toMatchObject({ reason: 'low_severity', converged: true, iterations: 2 });
    expect(r.best).toMatchObject({
      content: 'Paris is the capital of France.',
      score: 1,
      metadata: { changes: ['Corrected the country'] },
    });
    expect(r.usage).toEqual({ llmCalls: 4, inputTokens: 90, outputTokens: 38, tokens: 128 });
    const [gen, crit, rev] = bodies();
    expect(gen!.messages[0]!.content).toContain('Task:\nWhat is Paris the capital of?');
    expect(crit!.system).toContain('Reply with only a JSON object');
    expect(crit!.messages[0]!.content).toContain('Answer to judge:\nParis is the capital of Germany.');
    expect(rev!.messages[0]!.content).toContain('- Paris is the capital of France, not Germany');
    expect(rev!.messages[0]!.content).toContain('Feedback: Fix the country.');
  });

  it('never trusts the reply shape: a malformed critique gets one repair request', async () => {
    mock.script([
      { kind: 'json', text: 'Sure! The answer looks {great} to me, severity: low' },
      json({ issues: [{ description: 'too vague' }], severity: 'medium' }),
    ]);
    const c = await llmCritiquer({ llm }).critique('Explain DNS', {
      content: 'It resolves names.',
      metadata: {},
    });
    expect(c).toMatchObject({ issues: ['too vague'], severity: 0.5 });
    expect(mock.requests).toHaveLength(2);
    const repair = bodies()[1]!.messages;
    expect(repair.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair[2]!.content).toMatch(/could not be used \(the reply contains no JSON\)/);
  });

  it('rejects a reply that stays malformed with llm_reply_invalid, naming the bad fields', async () => {
    mock.script([
      json({ issues: 'everything', severity: 4 }),
      json({ issues: ['x'], severity: 1.5, score: -1 }),
    ]);
    const err = await llmCritiquer({ llm })
      .critique('p', { content: 'a', metadata: {} })
      .catch((e) => e);
    expect(err.code).toBe('llm_reply_invalid');
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['severity', 'score']),
    );
    expect(bodies()[1]!.messages[2]!.content).toMatch(/issues: /);
  });

  it('ends the loop with reason error when the critiquer keeps replying garbage', async () => {
    mock.script([{ kind: 'json', text: 'not json' }]);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: llmCritiquer({ llm, maxRepairs: 0 }),
      reviser: llmReviser({ llm }),
    });
    expect(r).toMatchObject({
      reason: 'error',
      error: { code: 'llm_reply_invalid' },
      usage: { llmCalls: 1 },
    });
  });

  it('rejects an empty revision', async () => {
    mock.script([json({ content: '   ', changes: [] }), json({ content: 'fixed', changes: 'one change' })]);
    const r = await llmReviser({ llm }).revise(
      'p',
      { content: 'a', metadata: {} },
      { issues: ['x'], severity: 0.5 },
    );
    expect(r).toMatchObject({ content: 'fixed', metadata: { changes: ['one change'] } });
  });

  it('stops on the LLM call budget', async () => {
    mock.script([
      json({ issues: ['x'], severity: 0.8, score: 0.2 }),
      json({ content: 'b', changes: [] }),
      json({ issues: [], severity: 0 }),
    ]);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: llmCritiquer({ llm }),
      reviser: llmReviser({ llm }),
      budget: { llmCalls: 2 },
    });
    expect(r).toMatchObject({
      reason: 'budget_exhausted',
      iterations: 1,
      usage: { llmCalls: 2, tokens: 60 },
    });
    expect(mock.requests).toHaveLength(2);
  });

  it('aborts a slow request through the SDK and resolves with reason aborted', async () => {
    // The reply would come after the test's timeout: only the abort can end the loop in time.
    mock.script([{ kind: 'json', text: '{"issues":[],"severity":0}', delayMs: 50_000 }]);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: llmCritiquer({ llm }),
      reviser: llmReviser({ llm }),
      signal: AbortSignal.timeout(100),
    });
    expect(r).toMatchObject({ reason: 'aborted', iterations: 0, best: { content: 'a' } });
  });
});

/**
 * The reflection loop when things go wrong: invalid options, throwing or malformed components,
 * cancellation through the signal, and the LLM call and token budgets.
 */
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  type Critique,
  createUsageMeter,
  runReflectionLoop,
  type StepContext,
} from '../../lib/loop/index';
import { LADDER, ladder, NEXT } from './loop-helpers';

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

/**
 * The reflection loop: generate, then critique and revise until convergence,
 * keeping the full history and returning the best judged candidate.
 */
import { describeError, isRearviewError } from '../core/index.js';
import type { LlmUsage } from '../llm/index.js';
import { checkConvergence } from './convergence.js';
import { formatLessons } from './keywords.js';
import type { ReflectionLoopOptions } from './loop-options.js';
import {
  abortedError,
  budgetError,
  defaultClock,
  guarded,
  judge,
  lessonsFrom,
  nonNegative,
  preflight,
  shouldRemember,
  stopKind,
  toCandidate,
  toCritique,
  toFn,
  toLesson,
  validate,
} from './loop-support.js';
import {
  type Candidate,
  CONVERGED_REASONS,
  type Critique,
  type IterationRecord,
  type LoopBudget,
  type LoopResult,
  type MemoryLesson,
  type StepContext,
  type StopReason,
  type UsageMeter,
  type UsageTotals,
} from './types.js';

export type { LessonSource, LoopMemory, ReflectionLoopOptions } from './loop-options.js';

/**
 * Runs generate → (critique → revise)* until convergence.
 *
 * Iteration k critiques the current candidate (its `score` becomes `critique.score`, else
 * `1 − severity`), then stops on low severity, score plateau (vs iteration k − 1) or `maxIterations`;
 * otherwise it revises, stops on minimal change (the revision is recorded but not adopted), and goes
 * on with the revision. So at most `maxIterations` critiques and `maxIterations − 1` revisions run,
 * every candidate in `history` is judged, and `best` is the highest-scoring one (earliest on ties).
 *
 * Failures never lose work: once a first candidate exists, an abort resolves with reason `aborted`,
 * a reached budget with `budget_exhausted`, and a component that throws with `error` (and
 * `result.error`), each with the best candidate so far. Before a first candidate exists there is
 * nothing to return, so the call rejects: a `RearviewError` with code `aborted` or
 * `budget_exhausted`, or the generator's own error. Invalid options reject with a `ConfigError`.
 *
 * With `memory`, similar past lessons are retrieved first and handed to every component
 * (`ctx.memory`, `ctx.memoryPrompt`); after the run, each critique whose revision was adopted and
 * judged better is stored as a mistake/correction pair (mistake: the critique's feedback or issues;
 * correction: the revision's `metadata.changes` when the reviser reports them, else its content).
 *
 * @example
 * ```ts
 * const result = await runReflectionLoop({
 *   prompt: 'Write a SQL query counting users per country',
 *   generator: llmGenerator({ llm }),
 *   critiquer: llmCritiquer({ llm }),
 *   reviser: llmReviser({ llm }),
 *   memory,
 *   budget: { llmCalls: 8 },
 *   signal: AbortSignal.timeout(60_000),
 * });
 * console.log(result.reason, result.best.content);
 * ```
 */
export async function runReflectionLoop(options: ReflectionLoopOptions): Promise<LoopResult> {
  const config = validate(options);
  const { prompt, signal, memory } = options;
  const clock = options.clock ?? defaultClock();
  const started = clock();
  const meter = createUsageMeter(options.budget);
  const history: IterationRecord[] = [];
  const generate = toFn(options.generator, 'generate');
  const critique = toFn(options.critiquer, 'critique')!;
  const revise = toFn(options.reviser, 'revise')!;

  let lessons: MemoryLesson[] = [];
  let memoryPrompt = '';
  let memoryError: string | undefined;
  const ctx = (iteration: number): StepContext => ({
    prompt,
    iteration,
    signal,
    memory: lessons,
    memoryPrompt,
    history,
    usage: meter,
  });

  // Consult memory before generating.
  if (memory) {
    try {
      const found = await guarded(
        () => memory.retrieveSimilar(prompt, { limit: config.memoryLimit }),
        signal,
      );
      lessons = found.map(toLesson);
      memoryPrompt = memory.formatForPrompt ? memory.formatForPrompt(lessons) : formatLessons(lessons);
    } catch (err) {
      if (stopKind(err, signal) === 'aborted') throw abortedError(signal, err);
      memoryError = describeError(err);
    }
  }

  // The first candidate.
  const g0 = clock();
  let current: Candidate;
  if (options.initialCandidate !== undefined) {
    current = toCandidate(options.initialCandidate, 'initialCandidate');
  } else {
    if (signal?.aborted) throw abortedError(signal);
    if (meter.exhausted) throw budgetError(meter);
    try {
      current = toCandidate(await guarded(() => generate!(prompt, ctx(0)), signal), 'generator');
    } catch (err) {
      const kind = stopKind(err, signal);
      if (kind === 'aborted') throw abortedError(signal, err);
      if (kind === 'budget_exhausted') throw budgetError(meter, err);
      throw err;
    }
  }
  const generateMs = clock() - g0;
  const initial = current;

  let reason: StopReason;
  let error: LoopResult['error'];
  const stop = (err: unknown) => {
    const kind = stopKind(err, signal);
    if (kind === 'error')
      error = { message: describeError(err), ...(isRearviewError(err) ? { code: err.code } : {}) };
    return kind;
  };

  for (let k = 1; ; k++) {
    const pre = preflight(signal, meter);
    if (pre) {
      reason = pre;
      break;
    }
    const t0 = clock();
    let verdict: Critique;
    try {
      verdict = toCritique(await guarded(() => critique(prompt, current, ctx(k)), signal));
    } catch (err) {
      reason = stop(err);
      break;
    }
    const critiqueMs = clock() - t0;
    const judged = judge(current, verdict);
    const record: IterationRecord = {
      iteration: k,
      candidate: judged,
      critique: verdict,
      timings: { critiqueMs, totalMs: critiqueMs },
    };
    const previous = history.at(-1);
    const check = checkConvergence(previous, record, { ...config, maxIterations: config.maxIterations });
    if (check.improvement !== undefined) record.improvement = check.improvement;
    history.push(record);
    if (check.reason) {
      reason = check.reason;
      break;
    }

    const preRevise = preflight(signal, meter);
    if (preRevise) {
      reason = preRevise;
      break;
    }
    const r0 = clock();
    let revision: Candidate;
    try {
      revision = toCandidate(await guarded(() => revise(prompt, judged, verdict, ctx(k)), signal), 'reviser');
    } catch (err) {
      reason = stop(err);
      break;
    }
    const end = clock();
    record.revision = revision;
    record.timings.reviseMs = end - r0;
    record.timings.totalMs = end - t0;
    const after = checkConvergence(previous, record, config);
    if (after.change !== undefined) record.change = after.change;
    if (after.reason === 'minimal_change') {
      reason = 'minimal_change';
      break;
    }
    current = revision;
  }

  const converged = CONVERGED_REASONS.includes(reason);
  let stored = 0;
  if (memory && shouldRemember(config.remember, reason, converged)) {
    const inputs = lessonsFrom(prompt, history, options.toLesson);
    if (inputs.length) {
      try {
        if (memory.storeMany) await memory.storeMany(inputs);
        else for (const input of inputs) await memory.store(input);
        stored = inputs.length;
      } catch (err) {
        memoryError = describeError(err);
      }
    }
  }

  return {
    best: pickBest(history) ?? initial,
    iterations: history.length,
    history,
    converged,
    reason,
    initial,
    usage: { ...meter.totals },
    ...(error ? { error } : {}),
    memory: { retrieved: lessons, stored, ...(memoryError ? { error: memoryError } : {}) },
    timings: { generateMs, totalMs: clock() - started },
  };
}

/**
 * The highest-scoring candidate of a history (earliest on ties), or undefined for an empty one.
 *
 * @example
 * ```ts
 * pickBest(result.history)?.content;
 * ```
 */
export function pickBest(history: readonly IterationRecord[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const { candidate } of history) {
    if (!best || (candidate.score ?? Number.NEGATIVE_INFINITY) > (best.score ?? Number.NEGATIVE_INFINITY)) {
      best = candidate;
    }
  }
  return best;
}

/**
 * A usage meter for a budget (see {@link UsageMeter}); the loop makes one per run. Exposed for
 * components tested on their own.
 *
 * @example
 * ```ts
 * const meter = createUsageMeter({ llmCalls: 2 });
 * meter.record({ inputTokens: 10, outputTokens: 5 });
 * meter.totals; // { llmCalls: 1, inputTokens: 10, outputTokens: 5, tokens: 15 }
 * ```
 */
export function createUsageMeter(budget?: LoopBudget): UsageMeter {
  const totals: UsageTotals = { llmCalls: 0, inputTokens: 0, outputTokens: 0, tokens: 0 };
  const isExhausted = () =>
    budget !== undefined &&
    ((budget.llmCalls !== undefined && totals.llmCalls >= budget.llmCalls) ||
      (budget.tokens !== undefined && totals.tokens >= budget.tokens));
  return {
    get totals() {
      return totals;
    },
    budget,
    get exhausted() {
      return isExhausted();
    },
    record(usage: LlmUsage) {
      const input = nonNegative(usage?.inputTokens);
      const output = nonNegative(usage?.outputTokens);
      totals.llmCalls++;
      totals.inputTokens += input;
      totals.outputTokens += output;
      totals.tokens += input + output;
    },
    assertAvailable() {
      if (isExhausted()) throw budgetError(this);
    },
  };
}

// ---------------------------------------------------------------------------------------------

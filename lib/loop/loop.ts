/**
 * The reflection loop (seed 003, step 4.3.1): generate, then critique and revise until convergence,
 * keeping the full history and returning the best judged candidate.
 */
import { ConfigError, isRearviewError, RearviewError } from '../core/index.js';
import type { LlmUsage } from '../llm/index.js';
import {
  type ConvergenceOptions,
  checkConvergence,
  DEFAULT_CONVERGENCE_THRESHOLD,
  DEFAULT_MIN_CHANGE,
  DEFAULT_SEVERITY_THRESHOLD,
} from './convergence.js';
import { formatLessons } from './memory.js';
import {
  type Candidate,
  type CandidateInput,
  CONVERGED_REASONS,
  type Critique,
  type CritiquerLike,
  type GeneratorLike,
  type IterationRecord,
  type LoopBudget,
  type LoopResult,
  type MemoryLesson,
  type ReviserLike,
  type StepContext,
  type StopReason,
  type UsageMeter,
  type UsageTotals,
} from './types.js';

/** The part of a memory the loop uses; `ReflexionMemory` has it. */
export interface LoopMemory {
  retrieveSimilar(prompt: string, options?: { limit?: number }): Promise<MemoryLesson[]>;
  formatForPrompt?(lessons: readonly MemoryLesson[]): string;
  store(input: { prompt: string; mistake: string; correction: string }): Promise<unknown>;
  storeMany?(inputs: { prompt: string; mistake: string; correction: string }[]): Promise<unknown>;
}

/** A lesson the loop is about to store: one critique and the revision that fixed it. */
export interface LessonSource {
  prompt: string;
  critique: Critique;
  candidate: Candidate;
  revision: Candidate;
  /** Score gain of the revision once judged. */
  improvement: number;
}

/**
 * Options of {@link runReflectionLoop}: the prompt, the components (`generator` is required unless
 * `initialCandidate` is given), memory, budget and the {@link ConvergenceOptions} thresholds.
 */
export interface ReflectionLoopOptions extends Omit<ConvergenceOptions, 'maxIterations'> {
  prompt: string;
  /** Where to start; without it, `generator` makes the first candidate. */
  initialCandidate?: CandidateInput;
  generator?: GeneratorLike;
  critiquer: CritiquerLike;
  reviser: ReviserLike;
  /** Most iterations (critiques); a revision follows every critique but the last. Default 3. */
  maxIterations?: number;
  /** Consulted before generating; lessons are stored after the run (see `remember`). */
  memory?: LoopMemory;
  /** Lessons retrieved from memory. Default 3. */
  memoryLimit?: number;
  /**
   * When to store lessons: `'converged'` (default) only after a converged run, `'always'` after any
   * run that was not aborted, `'never'`.
   */
  remember?: 'converged' | 'always' | 'never';
  /** Turns a fixed mistake into the stored lesson; return undefined to skip it. */
  toLesson?: (source: LessonSource) => { mistake: string; correction: string } | undefined;
  /** Cancels the run; the loop stops at once with reason `aborted` (see {@link runReflectionLoop}). */
  signal?: AbortSignal;
  /** Caps LLM calls and/or tokens; reaching it stops the loop with reason `budget_exhausted`. */
  budget?: LoopBudget;
  /** Clock for timings, in ms. Default `performance.now` (else `Date.now`). */
  clock?: () => number;
}

const LESSON_CHARS = 4000;

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
      memoryError = messageOf(err);
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
      error = { message: messageOf(err), ...(isRearviewError(err) ? { code: err.code } : {}) };
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
        memoryError = messageOf(err);
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

interface Config {
  maxIterations: number;
  convergenceThreshold: number;
  severityThreshold: number;
  minChange: number;
  memoryLimit: number;
  remember: 'converged' | 'always' | 'never';
}

function validate(o: ReflectionLoopOptions): Config {
  const issues: { path: string; message: string }[] = [];
  if (typeof o !== 'object' || o === null)
    throw new ConfigError([{ path: '', message: 'options must be an object' }]);
  if (typeof o.prompt !== 'string') issues.push({ path: 'prompt', message: 'must be a string' });
  if (!isComponent(o.critiquer, 'critique'))
    issues.push({ path: 'critiquer', message: 'must be a function or have critique()' });
  if (!isComponent(o.reviser, 'revise'))
    issues.push({ path: 'reviser', message: 'must be a function or have revise()' });
  if (o.initialCandidate === undefined) {
    if (!isComponent(o.generator, 'generate')) {
      issues.push({
        path: 'generator',
        message: 'is required (a function or generate()) when initialCandidate is absent',
      });
    }
  } else if (o.generator !== undefined && !isComponent(o.generator, 'generate')) {
    issues.push({ path: 'generator', message: 'must be a function or have generate()' });
  }
  const config: Config = {
    maxIterations: o.maxIterations ?? 3,
    convergenceThreshold: o.convergenceThreshold ?? DEFAULT_CONVERGENCE_THRESHOLD,
    severityThreshold: o.severityThreshold ?? DEFAULT_SEVERITY_THRESHOLD,
    minChange: o.minChange ?? DEFAULT_MIN_CHANGE,
    memoryLimit: o.memoryLimit ?? 3,
    remember: o.remember ?? 'converged',
  };
  if (!Number.isInteger(config.maxIterations) || config.maxIterations < 1) {
    issues.push({ path: 'maxIterations', message: 'must be an integer ≥ 1' });
  }
  for (const key of ['convergenceThreshold', 'severityThreshold', 'minChange'] as const) {
    if (!(typeof config[key] === 'number' && config[key] >= 0 && config[key] <= 1)) {
      issues.push({ path: key, message: 'must be a number in [0, 1]' });
    }
  }
  if (!Number.isInteger(config.memoryLimit) || config.memoryLimit < 0) {
    issues.push({ path: 'memoryLimit', message: 'must be an integer ≥ 0' });
  }
  if (!['converged', 'always', 'never'].includes(config.remember)) {
    issues.push({ path: 'remember', message: 'must be "converged", "always" or "never"' });
  }
  for (const key of ['llmCalls', 'tokens'] as const) {
    const value = o.budget?.[key];
    if (value !== undefined && !(typeof value === 'number' && value >= 0)) {
      issues.push({ path: `budget.${key}`, message: 'must be a number ≥ 0' });
    }
  }
  if (
    o.memory !== undefined &&
    (typeof o.memory?.retrieveSimilar !== 'function' || typeof o.memory.store !== 'function')
  ) {
    issues.push({ path: 'memory', message: 'must have retrieveSimilar() and store()' });
  }
  if (o.signal !== undefined && typeof o.signal?.aborted !== 'boolean') {
    issues.push({ path: 'signal', message: 'must be an AbortSignal' });
  }
  if (issues.length) throw new ConfigError(issues);
  return config;
}

function isComponent(c: unknown, method: string): boolean {
  return (
    typeof c === 'function' ||
    (typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>)[method] === 'function')
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the three component shapes share this adapter.
function toFn(c: any, method: string): any {
  if (c === undefined) return undefined;
  return typeof c === 'function' ? c : c[method].bind(c);
}

function preflight(signal: AbortSignal | undefined, meter: UsageMeter): StopReason | undefined {
  if (signal?.aborted) return 'aborted';
  if (meter.exhausted) return 'budget_exhausted';
  return undefined;
}

/** Runs `fn`, settling early with an abort error as soon as `signal` fires (even if `fn` ignores it). */
function guarded<T>(fn: () => T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve().then(fn);
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(fn)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function stopKind(err: unknown, signal: AbortSignal | undefined): 'aborted' | 'budget_exhausted' | 'error' {
  if (signal?.aborted) return 'aborted';
  if (isRearviewError(err)) {
    if (err.code === 'aborted' || err.code === 'llm_aborted') return 'aborted';
    if (err.code === 'budget_exhausted') return 'budget_exhausted';
  }
  return 'error';
}

function abortedError(signal: AbortSignal | undefined, cause?: unknown): RearviewError {
  return new RearviewError('aborted', 'The reflection loop was aborted', { cause: cause ?? signal?.reason });
}

function budgetError(meter: UsageMeter, cause?: unknown): RearviewError {
  const { llmCalls, tokens } = meter.totals;
  return new RearviewError(
    'budget_exhausted',
    `The LLM budget is exhausted (${llmCalls} calls, ${tokens} tokens; budget ${JSON.stringify(meter.budget ?? {})})`,
    cause === undefined ? undefined : { cause },
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function nonNegative(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

function defaultClock(): () => number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf && typeof perf.now === 'function' ? () => perf.now() : Date.now;
}

/** Checks a component's candidate: never trust its shape. */
function toCandidate(value: CandidateInput, from: string): Candidate {
  if (typeof value === 'string') return { content: value, metadata: {} };
  if (typeof value !== 'object' || value === null || typeof value.content !== 'string') {
    throw new RearviewError('component_invalid', `${from} must return a string or { content: string }`);
  }
  const metadata =
    typeof value.metadata === 'object' && value.metadata !== null && !Array.isArray(value.metadata)
      ? { ...value.metadata }
      : {};
  return {
    content: value.content,
    ...(typeof value.score === 'number' && Number.isFinite(value.score) ? { score: value.score } : {}),
    metadata,
  };
}

function toCritique(value: Critique): Critique {
  const c = value as Partial<Critique> | null;
  if (typeof c !== 'object' || c === null)
    throw new RearviewError('component_invalid', 'critiquer must return an object');
  const severity = c.severity;
  if (typeof severity !== 'number' || !(severity >= 0 && severity <= 1)) {
    throw new RearviewError('component_invalid', 'critique.severity must be a number in [0, 1]');
  }
  if (!Array.isArray(c.issues) || c.issues.some((i) => typeof i !== 'string')) {
    throw new RearviewError('component_invalid', 'critique.issues must be an array of strings');
  }
  if (c.score !== undefined && !(typeof c.score === 'number' && c.score >= 0 && c.score <= 1)) {
    throw new RearviewError('component_invalid', 'critique.score must be a number in [0, 1] when given');
  }
  return {
    issues: [...c.issues],
    severity,
    ...(c.score !== undefined ? { score: c.score } : {}),
    ...(typeof c.feedback === 'string' ? { feedback: c.feedback } : {}),
    ...(typeof c.metadata === 'object' && c.metadata !== null ? { metadata: { ...c.metadata } } : {}),
  };
}

/** The candidate with its score set from the critique (a score it had is kept as `metadata.priorScore`). */
function judge(candidate: Candidate, critique: Critique): Candidate {
  const score = critique.score ?? 1 - critique.severity;
  const metadata =
    candidate.score !== undefined && candidate.score !== score
      ? { ...candidate.metadata, priorScore: candidate.score }
      : candidate.metadata;
  return { content: candidate.content, score, metadata };
}

function toLesson(m: MemoryLesson): MemoryLesson {
  return {
    prompt: m.prompt,
    mistake: m.mistake,
    correction: m.correction,
    ...(m.similarity !== undefined ? { similarity: m.similarity } : {}),
  };
}

function shouldRemember(policy: Config['remember'], reason: StopReason, converged: boolean): boolean {
  if (policy === 'never') return false;
  if (policy === 'always') return reason !== 'aborted';
  return converged;
}

function lessonsFrom(
  prompt: string,
  history: readonly IterationRecord[],
  toLessonFn: ReflectionLoopOptions['toLesson'],
): { prompt: string; mistake: string; correction: string }[] {
  const out: { prompt: string; mistake: string; correction: string }[] = [];
  for (let i = 0; i + 1 < history.length; i++) {
    const rec = history[i]!;
    const next = history[i + 1]!;
    if (!rec.revision || (next.improvement ?? 0) <= 0) continue;
    const source: LessonSource = {
      prompt,
      critique: rec.critique,
      candidate: rec.candidate,
      revision: rec.revision,
      improvement: next.improvement!,
    };
    const lesson = toLessonFn ? toLessonFn(source) : defaultLesson(source);
    if (lesson && typeof lesson.mistake === 'string' && typeof lesson.correction === 'string') {
      out.push({ prompt, mistake: lesson.mistake, correction: lesson.correction });
    }
  }
  return out;
}

function defaultLesson({ critique, revision }: LessonSource): { mistake: string; correction: string } {
  const mistake = critique.feedback?.trim() || critique.issues.join('; ') || `severity ${critique.severity}`;
  const changes = revision.metadata.changes;
  const summary = Array.isArray(changes)
    ? changes.filter((c) => typeof c === 'string').join('; ')
    : typeof changes === 'string'
      ? changes
      : '';
  const correction = summary.trim() || revision.content;
  return { mistake: mistake.slice(0, LESSON_CHARS), correction: correction.slice(0, LESSON_CHARS) };
}

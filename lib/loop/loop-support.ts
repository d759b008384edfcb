/**
 * The reflection loop's plumbing: option validation, component adapters, abort and budget guards,
 * and the conversion of components' output (candidates, critiques, lessons) into checked records.
 * Kept apart from `loop.ts` so that the loop itself reads as the algorithm.
 *
 * @module
 * @internal
 */
import { ConfigError, isRearviewError, RearviewError } from '../core/index.js';
import {
  DEFAULT_CONVERGENCE_THRESHOLD,
  DEFAULT_MIN_CHANGE,
  DEFAULT_SEVERITY_THRESHOLD,
} from './convergence.js';
import type { LessonSource, ReflectionLoopOptions } from './loop-options.js';
import type {
  Candidate,
  CandidateInput,
  Critique,
  IterationRecord,
  MemoryLesson,
  StopReason,
  UsageMeter,
} from './types.js';

/** Most characters of a lesson's mistake or correction kept in memory. */
export const LESSON_CHARS = 4000;
export interface Config {
  maxIterations: number;
  convergenceThreshold: number;
  severityThreshold: number;
  minChange: number;
  memoryLimit: number;
  remember: 'converged' | 'always' | 'never';
}

export function validate(o: ReflectionLoopOptions): Config {
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

export function isComponent(c: unknown, method: string): boolean {
  return (
    typeof c === 'function' ||
    (typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>)[method] === 'function')
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the three component shapes share this adapter.
export function toFn(c: any, method: string): any {
  if (c === undefined) return undefined;
  return typeof c === 'function' ? c : c[method].bind(c);
}

export function preflight(signal: AbortSignal | undefined, meter: UsageMeter): StopReason | undefined {
  if (signal?.aborted) return 'aborted';
  if (meter.exhausted) return 'budget_exhausted';
  return undefined;
}

/** Runs `fn`, settling early with an abort error as soon as `signal` fires (even if `fn` ignores it). */
export function guarded<T>(fn: () => T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
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

export function stopKind(
  err: unknown,
  signal: AbortSignal | undefined,
): 'aborted' | 'budget_exhausted' | 'error' {
  if (signal?.aborted) return 'aborted';
  if (isRearviewError(err)) {
    if (err.code === 'aborted' || err.code === 'llm_aborted') return 'aborted';
    if (err.code === 'budget_exhausted') return 'budget_exhausted';
  }
  return 'error';
}

export function abortedError(signal: AbortSignal | undefined, cause?: unknown): RearviewError {
  return new RearviewError('aborted', 'The reflection loop was aborted', { cause: cause ?? signal?.reason });
}

export function budgetError(meter: UsageMeter, cause?: unknown): RearviewError {
  const { llmCalls, tokens } = meter.totals;
  return new RearviewError(
    'budget_exhausted',
    `The LLM budget is exhausted (${llmCalls} calls, ${tokens} tokens; budget ${JSON.stringify(meter.budget ?? {})})`,
    cause === undefined ? undefined : { cause },
  );
}

export function nonNegative(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

export function defaultClock(): () => number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf && typeof perf.now === 'function' ? () => perf.now() : Date.now;
}

/** Checks a component's candidate: never trust its shape. */
export function toCandidate(value: CandidateInput, from: string): Candidate {
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

export function toCritique(value: Critique): Critique {
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
export function judge(candidate: Candidate, critique: Critique): Candidate {
  const score = critique.score ?? 1 - critique.severity;
  const metadata =
    candidate.score !== undefined && candidate.score !== score
      ? { ...candidate.metadata, priorScore: candidate.score }
      : candidate.metadata;
  return { content: candidate.content, score, metadata };
}

export function toLesson(m: MemoryLesson): MemoryLesson {
  return {
    prompt: m.prompt,
    mistake: m.mistake,
    correction: m.correction,
    ...(m.similarity !== undefined ? { similarity: m.similarity } : {}),
  };
}

export function shouldRemember(policy: Config['remember'], reason: StopReason, converged: boolean): boolean {
  if (policy === 'never') return false;
  if (policy === 'always') return reason !== 'aborted';
  return converged;
}

export function lessonsFrom(
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

export function defaultLesson({ critique, revision }: LessonSource): { mistake: string; correction: string } {
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

import type { LlmUsage } from '../llm/index.js';

/**
 * One answer under refinement. `score` is in [0, 1] (higher is better); the loop sets it from the
 * candidate's critique (`critique.score`, else `1 − critique.severity`) when the candidate is judged.
 */
export interface Candidate {
  content: string;
  score?: number;
  metadata: Record<string, unknown>;
}

/** A candidate as components may return it: the content alone, or a candidate with optional metadata. */
export type CandidateInput = string | { content: string; score?: number; metadata?: Record<string, unknown> };

/**
 * What a critiquer thinks of a candidate. `severity` in [0, 1]: 0 means nothing left to fix, 1 means
 * the answer is wrong or unusable. `score` in [0, 1] is optional (higher is better).
 */
export interface Critique {
  issues: string[];
  severity: number;
  score?: number;
  feedback?: string;
  metadata?: Record<string, unknown>;
}

/** Why the loop stopped. */
export type StopReason =
  | 'low_severity'
  | 'minimal_change'
  | 'score_plateau'
  | 'max_iterations'
  | 'aborted'
  | 'budget_exhausted'
  | 'error';

/**
 * The reasons that count as convergence (`result.converged === true`).
 *
 * @example
 * ```ts
 * CONVERGED_REASONS.includes(result.reason); // same as result.converged
 * ```
 */
export const CONVERGED_REASONS: readonly StopReason[] = ['low_severity', 'minimal_change', 'score_plateau'];

/** LLM usage accumulated over a run. */
export interface UsageTotals {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** `inputTokens + outputTokens`. */
  tokens: number;
}

/** A cap on LLM usage; the loop stops with `budget_exhausted` once either figure is reached. */
export interface LoopBudget {
  llmCalls?: number;
  tokens?: number;
}

/**
 * Counts LLM usage for one run and enforces its {@link LoopBudget}. The LLM-backed components record
 * every reply's `usage` here; a custom component that calls a model should do the same (or call its
 * client through {@link meteredComplete}).
 */
export interface UsageMeter {
  readonly totals: UsageTotals;
  readonly budget: LoopBudget | undefined;
  /** True once the budget is reached (never without a budget). */
  readonly exhausted: boolean;
  /** Adds one LLM call and its token usage. */
  record(usage: LlmUsage): void;
  /** Throws a `RearviewError` with code `budget_exhausted` when the budget is reached. */
  assertAvailable(): void;
}

/** A remembered lesson (see `ReflexionMemory`), as components see it. */
export interface MemoryLesson {
  prompt: string;
  mistake: string;
  correction: string;
  similarity?: number;
}

/** What every component receives besides its main arguments. */
export interface StepContext {
  /** The task prompt of the run. */
  prompt: string;
  /** 0 while generating, then the 1-based iteration being critiqued or revised. */
  iteration: number;
  /** Cancels the run; pass it on to every request. */
  signal: AbortSignal | undefined;
  /** Lessons retrieved from reflexion memory for this prompt, most similar first (may be empty). */
  memory: readonly MemoryLesson[];
  /** `memory` formatted as few-shot context for a model prompt ('' when empty). */
  memoryPrompt: string;
  /** Iterations completed so far. */
  history: readonly IterationRecord[];
  /** Usage meter of the run (budget included). */
  usage: UsageMeter;
}

/** Produces the first candidate. */
export type GenerateFn = (prompt: string, ctx: StepContext) => CandidateInput | Promise<CandidateInput>;
/** Judges a candidate. */
export type CritiqueFn = (
  prompt: string,
  candidate: Candidate,
  ctx: StepContext,
) => Critique | Promise<Critique>;
/** Produces an improved candidate from a candidate and its critique. */
export type ReviseFn = (
  prompt: string,
  candidate: Candidate,
  critique: Critique,
  ctx: StepContext,
) => CandidateInput | Promise<CandidateInput>;

/** A generator component as an object, such as {@link llmGenerator} returns. */
export interface Generator {
  generate: GenerateFn;
}
/** A critiquer component as an object, such as {@link llmCritiquer} and {@link toolCritiquer} return. */
export interface Critiquer {
  critique: CritiqueFn;
}
/** A reviser component as an object, such as {@link llmReviser} returns. */
export interface Reviser {
  revise: ReviseFn;
}

/** Components may be objects with the method or plain functions. */
export type GeneratorLike = Generator | GenerateFn;
/** A critiquer: an object with `critique()` or a plain {@link CritiqueFn}. */
export type CritiquerLike = Critiquer | CritiqueFn;
/** A reviser: an object with `revise()` or a plain {@link ReviseFn}. */
export type ReviserLike = Reviser | ReviseFn;

/** One iteration: the candidate judged, its critique, and the revision made from it (if any). */
export interface IterationRecord {
  /** 1-based. */
  iteration: number;
  /** The candidate judged in this iteration, with its `score` set from the critique. */
  candidate: Candidate;
  critique: Critique;
  /** The revision produced from this critique; absent when the loop stopped before revising. */
  revision?: Candidate;
  /** `improvementScore` of this candidate over the previous iteration's (absent in iteration 1). */
  improvement?: number;
  /** `contentChange` from the candidate to its revision, in [0, 1] (absent without a revision). */
  change?: number;
  /** Wall times in milliseconds. */
  timings: { critiqueMs: number; reviseMs?: number; totalMs: number };
}

/** What `runReflectionLoop` resolves to. */
export interface LoopResult {
  /** The highest-scoring judged candidate of the run (the earliest one on ties). */
  best: Candidate;
  /** Number of iterations (critiques) performed; never more than `maxIterations`. */
  iterations: number;
  history: IterationRecord[];
  converged: boolean;
  reason: StopReason;
  /** The candidate the loop started from (generated or given). */
  initial: Candidate;
  usage: UsageTotals;
  /** Present when `reason` is `error`: the component failure that ended the run. */
  error?: { message: string; code?: string };
  /** Reflexion memory activity: lessons consulted before generating, lessons stored afterwards. */
  memory: { retrieved: MemoryLesson[]; stored: number; error?: string };
  timings: { generateMs: number; totalMs: number };
}

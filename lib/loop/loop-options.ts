/**
 * The options of `runReflectionLoop` and the shapes they name, in a file of their own: the loop and
 * its support functions both read them, and neither should import the other for a type.
 *
 * @module
 */
import type { ConvergenceOptions } from './convergence.js';
import type {
  Candidate,
  CandidateInput,
  Critique,
  CritiquerLike,
  GeneratorLike,
  LoopBudget,
  MemoryLesson,
  ReviserLike,
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

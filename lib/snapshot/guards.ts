/**
 * What keeps the trajectory reductions from rejecting: input read once and checked for shape, the
 * caller's callbacks (`countTokens`, `now`) and the model's reply read defensively, and {@link Stop},
 * the internal signal that ends a call early at the deterministic snapshot.
 */
import {
  countTokens,
  describeError,
  isRearviewError,
  LlmError,
  RearviewError,
  type TokenCounter,
} from '../core/index.js';
import type { LlmUsage } from '../llm/index.js';
import { deterministicSnapshotWithTrace } from './deterministic.js';
import type {
  ActiveContextSnapshot,
  ReflectionSkippedReason,
  SnapshotCategory,
  SnapshotInput,
  SnapshotTrace,
  TrajectoryReductionDiagnostics,
} from './types.js';

/** Ends a call early at the deterministic snapshot with `reason`. */
export class Stop extends RearviewError {
  constructor(
    readonly reason: ReflectionSkippedReason,
    detail: string,
  ) {
    super(reason, detail);
  }
}

/** An empty diagnostics record: the figures start at the deterministic path with no reflection. */
export function newDiagnostics(entryCount: number, taskCount: number): TrajectoryReductionDiagnostics {
  return {
    path: 'deterministic',
    reflectionUsed: false,
    reflectionInvoked: false,
    reflectionInputTokens: null,
    reflectionOutputTokens: null,
    reflectionLatencyMs: null,
    reflectionSkippedReason: null,
    reflectionError: null,
    deterministicTokens: 0,
    reflectedTokens: null,
    savingsTokens: null,
    snapshotTokens: 0,
    dropped: [],
    deterministicDropped: [],
    rejectedItems: [],
    cappedItems: 0,
    entryCount,
    taskCount,
    retiredCount: 0,
    logLine: '',
  };
}

/**
 * Reads the input's containers once. Input of the documented shape is returned as is (so the result
 * is the same as without this check); otherwise the fields that could be read, and the problem.
 */
export function readInput(input: unknown): {
  input: SnapshotInput;
  problem?: string;
  entryCount: number;
  taskCount: number;
} {
  try {
    if (!isObject(input)) {
      return {
        input: emptyInput(),
        problem: `input must be an object, got ${kind(input)}`,
        entryCount: 0,
        taskCount: 0,
      };
    }
    const { entries, tasks, previous } = input;
    const entryCount = Array.isArray(entries) ? entries.length : 0;
    const taskCount = Array.isArray(tasks) ? tasks.length : 0;
    const problems = [
      entries == null || Array.isArray(entries) ? '' : `input.entries must be an array, got ${kind(entries)}`,
      tasks == null || Array.isArray(tasks) ? '' : `input.tasks must be an array, got ${kind(tasks)}`,
      previous == null || isObject(previous)
        ? ''
        : `input.previous must be a snapshot or null, got ${kind(previous)}`,
    ].filter(Boolean);
    if (!problems.length) return { input: input as unknown as SnapshotInput, entryCount, taskCount };
    const clean: SnapshotInput = {
      objective: typeof input.objective === 'string' ? input.objective : '',
      entries: Array.isArray(entries) ? entries : [],
      ...(Array.isArray(tasks) ? { tasks } : {}),
      previous: isObject(previous) ? (previous as unknown as ActiveContextSnapshot) : null,
    };
    return { input: clean, problem: problems.join('; '), entryCount, taskCount };
  } catch (err) {
    const problem = `reading the input threw: ${describeError(err)}`;
    return { input: emptyInput(), problem, entryCount: 0, taskCount: 0 };
  }
}

export function emptyInput(): SnapshotInput {
  return { objective: '', entries: [] };
}

/** The deterministic snapshot with default caps, or an empty one when even that throws. */
export function safeDeterministic(input: SnapshotInput): SnapshotTrace {
  try {
    return deterministicSnapshotWithTrace(input);
  } catch {
    let objective = '';
    try {
      if (typeof input.objective === 'string') objective = input.objective;
    } catch {
      // An objective that cannot be read stays empty.
    }
    return {
      snapshot: { currentObjective: objective, ...emptyLists() },
      kept: [],
      dropped: [],
      candidateCount: 0,
      consolidatedCount: 0,
    };
  }
}

export function emptyLists(): Record<SnapshotCategory, string[]> {
  return {
    openHypotheses: [],
    blockers: [],
    nextActions: [],
    unresolvedQuestions: [],
    requiredEvidenceLinks: [],
  };
}

/** The model's reply as this module reads it: a text (required) and what usage it gives. */
export function readReply(response: unknown): { text: string; usage: Partial<LlmUsage> } {
  const text = isObject(response) ? response.text : undefined;
  if (typeof text !== 'string') {
    throw new LlmError(
      'llm_invalid_response',
      `The model client's reply has no text: got ${kind(response)}${isObject(response) ? ` with text ${kind(text)}` : ''}`,
    );
  }
  const usage = isObject(response) && isObject(response.usage) ? response.usage : {};
  return { text, usage: usage as Partial<LlmUsage> };
}

/** A counter whose failure stops the call (`callback_error`) instead of rejecting it. */
export function guardedCounter(counter: TokenCounter | undefined): (text: string) => Promise<number> {
  return async (text) => {
    try {
      return await countTokens(text, counter);
    } catch (err) {
      throw new Stop('callback_error', `countTokens threw: ${describeError(err)}`);
    }
  };
}

/** A clock whose failure (a throw, or not a number) stops the call (`callback_error`). */
export function guardedClock(now: () => number): () => number {
  return () => {
    let t: unknown;
    try {
      t = now();
    } catch (err) {
      throw new Stop('callback_error', `now threw: ${describeError(err)}`);
    }
    if (typeof t !== 'number') throw new Stop('callback_error', `now returned ${kind(t)}, not a number`);
    return t;
  };
}

export function positive(n: unknown): number | undefined {
  return typeof n === 'number' && n > 0 ? n : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** A RearviewError's code, else an Error's name, else `error`; never throws. */
export function errorName(err: unknown): string {
  if (isRearviewError(err)) return err.code;
  try {
    return err instanceof Error ? err.name : 'error';
  } catch {
    return 'error';
  }
}

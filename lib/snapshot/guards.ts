/**
 * What keeps the reflected reduction from rejecting: input read once and checked for shape, and the
 * deterministic snapshot as the fallback that cannot fail. The generic guards (callbacks, the model's
 * reply, the early-stop signal) are core's and llm's.
 */
import { describeError, describeKind, isObject } from '../core/index.js';
import { deterministicSnapshotWithTrace } from './deterministic.js';
import type {
  ActiveContextSnapshot,
  SnapshotCategory,
  SnapshotInput,
  SnapshotTrace,
  TrajectoryReductionDiagnostics,
} from './types.js';

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
        problem: `input must be an object, got ${describeKind(input)}`,
        entryCount: 0,
        taskCount: 0,
      };
    }
    const { entries, tasks, previous } = input;
    const entryCount = Array.isArray(entries) ? entries.length : 0;
    const taskCount = Array.isArray(tasks) ? tasks.length : 0;
    const problems = [
      entries == null || Array.isArray(entries)
        ? ''
        : `input.entries must be an array, got ${describeKind(entries)}`,
      tasks == null || Array.isArray(tasks) ? '' : `input.tasks must be an array, got ${describeKind(tasks)}`,
      previous == null || isObject(previous)
        ? ''
        : `input.previous must be a snapshot or null, got ${describeKind(previous)}`,
    ].filter(Boolean);
    if (!problems.length) return { input: input as unknown as SnapshotInput, entryCount, taskCount };
    const clean: SnapshotInput = {
      objective: typeof input.objective === 'string' ? input.objective : '',
      entries: Array.isArray(entries) ? entries : [],
      ...(Array.isArray(tasks) ? { tasks } : {}),
      previous: isObject(previous) ? (previous as unknown as ActiveContextSnapshot) : null,
      ...(typeof input.root === 'string' ? { root: input.root } : {}),
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

export function positive(n: unknown): number | undefined {
  return typeof n === 'number' && n > 0 ? n : undefined;
}

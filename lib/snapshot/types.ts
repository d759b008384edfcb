/**
 * The shapes of `rearview/snapshot`: memory entries and tasks in, an active-context snapshot out.
 */
import type { SnapshotCategory } from '../categorise/index.js';

export type { SnapshotCategory };

/**
 * One remembered fact of an agent run.
 *
 * @example
 * ```ts
 * const entry: MemoryEntry = { scope: 'notes', key: 'ci', value: 'CI is red: 3 tests failing', sourceIteration: 4 };
 * ```
 */
export interface MemoryEntry {
  /** A grouping such as `notes`, `blockers`, `evidence`. Scopes named after a category force it. */
  scope: string;
  key: string;
  value: string;
  /** The iteration that wrote the entry; higher is more recent. */
  sourceIteration: number;
  /**
   * Who wrote the words, when known: `user` (the person), `assistant` (the agent) or `tool` (a tool's
   * output). Set by `entriesFromMessages` and `entriesFromSteps`; passed to an injected categoriser
   * (`SnapshotOptions.categorise`), which may read a person's words otherwise than an agent's. The
   * built-in rules ignore it.
   */
  role?: 'user' | 'assistant' | 'tool';
}

/**
 * A task of the run and its status (`todo`, `pending`, `in_progress`, `blocked`, `done`, …).
 *
 * @example
 * ```ts
 * const task: SnapshotTask = { id: 'T2', title: 'Wire the retry policy', status: 'in_progress' };
 * ```
 */
export interface SnapshotTask {
  id: string;
  title: string;
  status: string;
}

/**
 * What the next iteration needs to know. Every list holds at most {@link MAX_CATEGORY_ITEMS} items of
 * at most {@link MAX_TEXT_LENGTH} characters.
 *
 * @example
 * ```ts
 * const s: ActiveContextSnapshot = {
 *   currentObjective: 'Fix the flaky retry test', openHypotheses: [], blockers: ['CI is red'],
 *   nextActions: ['Run the suite again'], unresolvedQuestions: [], requiredEvidenceLinks: ['lib/retry.ts'],
 * };
 * ```
 */
export interface ActiveContextSnapshot {
  currentObjective: string;
  openHypotheses: string[];
  blockers: string[];
  nextActions: string[];
  unresolvedQuestions: string[];
  requiredEvidenceLinks: string[];
}

/**
 * Input of {@link deterministicSnapshot} and {@link computeTrajectoryReduction}.
 *
 * @example
 * ```ts
 * const input: SnapshotInput = { objective: 'Ship v2', entries: [], tasks: [], previous: null, iteration: 3 };
 * ```
 */
export interface SnapshotInput {
  objective: string;
  entries: readonly MemoryEntry[];
  tasks?: readonly SnapshotTask[];
  /** The snapshot of the previous iteration, for retirements and the reflection prompt. */
  previous?: ActiveContextSnapshot | null;
  /** The current iteration N (the prompt labels the previous snapshot N-1). Default: the highest sourceIteration. */
  iteration?: number;
  /**
   * The folder the session worked in, absolute (`/Users/ana/proj`, `C:\\work\\repo`): evidence under
   * it is listed relative to it (`src/a.ts`), and the folder itself or a folder above it is not
   * listed. `readSnapshotSource` sets it from the transcript's `meta.cwd`.
   */
  root?: string;
}

/**
 * Where a snapshot item came from: `m<n>` is the n-th memory entry (1-based), `task:<id>` a task.
 *
 * @example
 * ```ts
 * const item: TracedItem = { category: 'blockers', text: 'CI is red', sources: ['m3', 'm7'], score: 0.8 };
 * ```
 */
export interface TracedItem {
  category: SnapshotCategory;
  text: string;
  sources: string[];
  /** Relevance to the objective plus recency (deterministic path only). */
  score?: number;
}

/**
 * An entry or item that did not make it into the snapshot, and why.
 *
 * Reasons: `resolved` (a resolved or negated problem, or an entry of scope `fixed`: the error of a
 * failed call a later call made good, what the agent acted on with an edit that succeeded, or an error
 * of the model's own call it answered after; or a problem of scope `superseded`, with an edit that
 * worked after it), `done` (a step or a question an entry of scope `done`, `answered` or `superseded`
 * names: carried out or answered, so no next action and no open question; the person's latest turn of
 * scope `delivered`, answered at length; a question of scope `replied`, the person's latest turn the
 * agent answered; and a guess of scope `answered`, said before the person's latest turn, or
 * `superseded`), `uncategorized`, `duplicate`, `near_duplicate` (consolidated into a kept item; for
 * evidence, another spelling of the same place), `root` (evidence that is the session's folder or a
folder above it: `SnapshotInput.root`), `placeholder` (a link left to fill in:
`https://your-domain.com`, `https://YOUR_PRODUCTION_URL`, `path/to/file`,
`github.com/your-username/…`), `word_list` (words joined by slashes, "run/lint/typecheck/test",
written bare, that no other path of the session goes through), `over_cap`, or the model's own
reason.
 *
 * @example
 * ```ts
 * const d: DroppedItem = { text: 'no error found', reason: 'resolved', sources: ['m2'] };
 * ```
 */
export interface DroppedItem {
  text: string;
  reason: string;
  sources?: string[];
  category?: SnapshotCategory;
  /** For `near_duplicate`: the kept item it was folded into. */
  into?: string;
}

/**
 * {@link deterministicSnapshotWithTrace}: the snapshot plus what was kept and dropped.
 *
 * @example
 * ```ts
 * const { snapshot, kept, dropped } = deterministicSnapshotWithTrace(input);
 * ```
 */
export interface SnapshotTrace {
  snapshot: ActiveContextSnapshot;
  kept: TracedItem[];
  dropped: DroppedItem[];
  /** Candidate items before exact and near-duplicate consolidation, over all categories. */
  candidateCount: number;
  /** Items folded into another item (exact or near duplicates). */
  consolidatedCount: number;
}

/**
 * Why the reflected snapshot was not used. `no_llm`: no client given; `below_threshold`: the
 * deterministic snapshot is under `minSnapshotTokens`; `api_error` / `timeout` / `aborted`: the call
 * failed; `parse_error`: no JSON in the reply; `invalid_schema`: JSON of the wrong shape;
 * `insufficient_savings`: saves less than `minSavingsTokens`; `validation_failed`: an item does not
 * trace to a source entry or task; `callback_error`: the caller's `countTokens` or `now` threw (or the
 * clock gave no number); `invalid_input`: the input is not of the documented shape (entries, tasks or
 * previous of the wrong type, or something the deterministic path cannot read).
 *
 * @example
 * ```ts
 * const reason: ReflectionSkippedReason = 'below_threshold';
 * ```
 */
export type ReflectionSkippedReason =
  | 'no_llm'
  | 'below_threshold'
  | 'api_error'
  | 'timeout'
  | 'aborted'
  | 'parse_error'
  | 'invalid_schema'
  | 'insufficient_savings'
  | 'validation_failed'
  | 'callback_error'
  | 'invalid_input';

/**
 * An item of the previous snapshot that the current one no longer holds.
 *
 * @example
 * ```ts
 * const r: RetiredTrajectoryRecord = { category: 'blockers', text: 'CI is red', reason: 'resolved', iteration: 5 };
 * ```
 */
export interface RetiredTrajectoryRecord {
  category: SnapshotCategory;
  text: string;
  /** `resolved` when a current entry says so, else `superseded` (dropped, consolidated or over cap). */
  reason: 'resolved' | 'superseded';
  /** The iteration that retired it. */
  iteration: number;
  /** The entries that resolved it, when `reason` is `resolved`. */
  resolvedBy?: string[];
}

/**
 * Diagnostics of {@link computeTrajectoryReduction} (the reference design's `TrajectoryReductionDiagnostics`).
 *
 * @example
 * ```ts
 * if (!d.reflectionUsed) console.log(d.reflectionSkippedReason, d.reflectionError);
 * ```
 */
export interface TrajectoryReductionDiagnostics {
  /** Which path produced the snapshot. */
  path: 'deterministic' | 'reflected';
  /** True when the reflected snapshot was adopted. */
  reflectionUsed: boolean;
  /** True when the model was called (it may still have been rejected). */
  reflectionInvoked: boolean;
  reflectionInputTokens: number | null;
  reflectionOutputTokens: number | null;
  reflectionLatencyMs: number | null;
  reflectionSkippedReason: ReflectionSkippedReason | null;
  /** Detail of the failure: the LLM error code and message, the invalid field, … */
  reflectionError: string | null;
  /** Tokens of the deterministic snapshot (the gate's `original_tokens`). */
  deterministicTokens: number;
  /** Tokens of the reflected snapshot as parsed, before validation; null when there was none. */
  reflectedTokens: number | null;
  /** `deterministicTokens - reflectedTokens`; null when there was no reflected snapshot. */
  savingsTokens: number | null;
  /** Tokens of the snapshot returned. */
  snapshotTokens: number;
  /** The model's `dropped` audit list (the reference design's audit trail); empty when no reply parsed. */
  dropped: DroppedItem[];
  /** What the deterministic path dropped (resolved, uncategorized, duplicates, over cap). */
  deterministicDropped: DroppedItem[];
  /** Reflected items that failed validation. */
  rejectedItems: { category: string; text: string; why: string }[];
  /** Items cut by the caps (over the item count or shortened to the text length). */
  cappedItems: number;
  entryCount: number;
  taskCount: number;
  retiredCount: number;
  /** The reference design's viewer log line: `[TRAJECTORY] reflection=used|skipped …`. */
  logLine: string;
}

/**
 * Result of {@link computeTrajectoryReduction}.
 *
 * @example
 * ```ts
 * const { snapshot, retired, diagnostics } = await computeTrajectoryReduction(input, { llm });
 * ```
 */
export interface TrajectoryReduction {
  snapshot: ActiveContextSnapshot;
  retired: RetiredTrajectoryRecord[];
  diagnostics: TrajectoryReductionDiagnostics;
  /** Kept items with their sources, from whichever path produced the snapshot. */
  kept: TracedItem[];
}

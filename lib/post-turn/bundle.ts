/**
 * What post-turn reflection takes and gives: the turn bundle, the options of a run, and the result
 * with its metrics.
 */
import type { MemoryEntryStore } from '../kv/index.js';
import type { ReflectionBackend } from './config.js';
import type { FetchLike, ReflectionLlmAdapter } from './llm-fixtures.js';
import type { ReflectionLogRecord, ReflectionLogSink } from './log.js';
import type { ReflectionMemoryEntry } from './memory.js';

/** What reflection sees of a finished turn. */
export interface ReflectionBundle {
  /** Agent id; `unknown` when absent. */
  agent?: string;
  /** Turn number (integer ≥ 0); 0 when absent. */
  turn?: number;
  /** The turn's fixed clock as an ISO string, stamped on entries (`ts`); `0000-00-00T00:00:00Z` when absent. */
  nowIso?: string;
  /** The final user-facing utterance. */
  utter: string;
  /** Top-K retrieval snippets, best first. */
  snippets?: readonly string[];
  /** The executed plan; `plan.reflection` asks for reflection (booleans, `"true"`, `1`, … accepted). */
  plan?: { reflection?: unknown } | null;
  /** Planner policy state; an LLM planner stashes its reflection flag here (`policyState.reflection`). */
  policyState?: { reflection?: unknown } | null;
}

/** Why reflection did not run: gate off, plan did not ask, or a dry run. */
export type ReflectionSkip = 'disabled' | 'not_requested' | 'dry_run';

/** Metrics of one reflection (the Python reference's `metrics`, in camelCase). */
export interface ReflectionMetrics {
  backend: ReflectionBackend;
  /** Whitespace tokens in the summary. */
  summaryLen: number;
  embed: boolean;
  /** Memory entries written (≤ `budgets.opsReflection`). */
  opsWritten: number;
  /** LLM backend only: first 12 hex characters of the prompt's SHA-256. */
  fixtureKey?: string;
  /** Milliseconds spent; 0 when `options.ci`. */
  ms: number;
  /**
   * `null` on success; `reflection_timeout` (nothing written); `reflect_error:<Type>` (nothing
   * written, e.g. `reflect_error:FixtureMissingError`); `embed_error:<Type>` (entry written without a
   * vector); `log_error:<Type>` (the log sink failed; result only).
   */
  reason: string | null;
}

/** What {@link reflect} returns. */
export interface ReflectionResult {
  /** Whether the step ran (gate open, plan asked, not a dry run). */
  ran: boolean;
  /** Why it did not run. */
  skipped?: ReflectionSkip;
  /** Normalized summary, at most `summaryTokens` whitespace tokens. */
  summary: string;
  /** The entries written (or, without `options.memory`, to be written), at most `opsReflection`. */
  memoryEntries: ReflectionMemoryEntry[];
  metrics: ReflectionMetrics;
  /** The `t3_reflection.jsonl` record (written when `reflection.log` is on and `options.log` is given). */
  log?: ReflectionLogRecord;
}

/** Options of {@link reflect} and {@link reflectBatch}. */
export interface ReflectOptions {
  /** Where entries go: one store, or one per agent. Omit to only return them. */
  memory?:
    | MemoryEntryStore<ReflectionMemoryEntry>
    | ((agent: string) => MemoryEntryStore<ReflectionMemoryEntry>);
  /** Where log records go (an array of lines, a `{ write(line) }` stream, or a KeyValueStore). */
  log?: ReflectionLogSink;
  /**
   * LLM backend: the fixtures, as an adapter (see `reflectionFixtureAdapter`, `loadReflectionFixtures`)
   * or JSONL text. Default: loaded from `config.llm.fixtures` (inline `jsonl`, or `path` fetched).
   */
  fixtures?: ReflectionLlmAdapter | string;
  /** `fetch` used to load `llm.fixtures.path` when `fixtures` is not given. Default: the runtime's. */
  fetch?: FetchLike;
  /** Base URL a relative `llm.fixtures.path` is resolved against. */
  baseUrl?: string;
  /** Replaces the deterministic embedding (must return finite numbers). */
  embedder?: (text: string) => readonly number[] | Promise<readonly number[]>;
  /**
   * Milliseconds clock for the time budget and `ms`. Default `performance.now`. When given, the budget
   * is checked only between steps (deterministic); otherwise a timer also bounds slow adapters.
   */
  clock?: () => number;
  /** Running in CI: `ms` is normalized to 0 (lib/ never reads the environment; pass it in). */
  ci?: boolean;
  /** The orchestrator's dry run: reflection is skipped. */
  dryRun?: boolean;
}

/**
 * The public shapes of `rearview/session`: the facade's options, what `observe` and `endSession`
 * return, and the facade itself.
 *
 * @module
 */

import type { TrajectoryLike } from '../failures/index.js';
import type {
  CompiledMarkers,
  MarkerSet,
  MessageLike,
  ReflectionInsight,
  TurnScorer,
  TurnScores,
} from '../heuristic/index.js';
import type { KeyValueStore } from '../kv/index.js';
import type { LlmClient } from '../llm/index.js';
import type {
  AppliedOperation,
  KeyPointProposal,
  KeyPointTag,
  Playbook,
  SectionName,
  Selection,
} from '../playbook/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { PlaybookChange, PlaybookStore, PlaybookStoreOptions } from '../store/index.js';

/** Token and count limits of a {@link Rearview}. */
export interface RearviewBudgets {
  /** Default `tokenBudget` of {@link Rearview.systemPrompt}. Default 1500. */
  promptTokens?: number;
  /**
   * Hard token budget of the whole stored playbook, enforced at the end of each session (least trusted
   * key points evicted first; what this session added goes last). Default: no limit.
   */
  playbookTokens?: number;
  /** Most key points the heuristics add per session. Default 10. */
  heuristicKeyPoints?: number;
  /** Most Curator operations per session (with a model). Default 10. */
  curatorOperations?: number;
}

/** Options of {@link createRearview}. */
export interface RearviewOptions {
  /**
   * Where playbooks live: a `PlaybookStore`, or any `KeyValueStore` (`idbStore()` in browsers,
   * `workersKvStore(env.KV)` or `memoryStore()` at the edge) that is wrapped in `playbookStore`.
   */
  store: PlaybookStore | KeyValueStore;
  /** Options of the `playbookStore` created around a `KeyValueStore` (ignored for a `PlaybookStore`). */
  storeOptions?: PlaybookStoreOptions;
  /** A model for the Reflector and Curator. Without one, only the heuristics run. */
  llm?: LlmClient;
  /**
   * Redaction of what leaves the conversation: every text before it is stored (heuristic key points,
   * Curator operations, merges), the prompts of the Reflector and the Curator, and the key points
   * `systemPrompt` and `select` inject (stored text may predate redaction or come from another
   * writer). Default on; `false` turns it off; an object tunes it (`rearview/redact` options). Error
   * messages are scrubbed of key-like values whatever this says.
   */
  redact?: boolean | RedactOptions;
  /**
   * Time limit of each model call of `endSession` (Reflector, Curator) in milliseconds, retries
   * included, even for a client that ignores its signal. Default 60,000 (`DEFAULT_MODEL_TIMEOUT_MS`).
   */
  timeoutMs?: number;
  budgets?: RearviewBudgets;
  /** Playbook id in the store. Default `'default'`. */
  playbookId?: string;
  /** Id of each new session (stamped as provenance on what it adds). Default a random UUID. */
  sessionId?: () => string;
  /** Marker lists of the heuristics (`rearview/heuristic`). */
  markers?: MarkerSet | CompiledMarkers;
  /**
   * Lowest `score` of an insight the heuristics keep (`heuristicReflect`'s `minScore`): one floor, or
   * one per category (`{ correction: 0.7, friction: 0.9 }`, as `READER_MIN_SCORE` of
   * `rearview/heuristic-model` gives for its reader). Default the heuristics' own (`DEFAULT_MIN_SCORE`).
   */
  minScore?: number | Partial<TurnScores>;
  /**
   * A learned scorer for the heuristics (`heuristicReflect`'s `scorer`), e.g. `readerModel` from
   * `rearview/heuristic-model`. Default none with `createRearview`: the marker scores; `loadRearview`
   * imports the reader and passes it. With a scorer, key points are written
   * only from the turns the markers report too; the turns only the scorer finds give insights, no key
   * point (blind judges rejected every key point such turns gave).
   */
  scorer?: TurnScorer;
  /**
   * The folder the agent works in (a coding agent's working directory, as `TranscriptMeta.cwd` gives
   * it): the failure lessons of its tool calls read it as one path in error text, even when its name
   * holds a space, as `lessons` does with `LessonsInput.root`. Default none.
   */
  root?: string;
  /**
   * A dictionary test (e.g. `nspell(dictionary).correct`): a typo in a key point written from a
   * person's turn is then repaired to the one spelling the session so far uses ("beforu" → "before";
   * `repairSpelling` of `rearview/playbook`). Default none: the person's spelling.
   */
  isWord?: (word: string) => boolean;
  /**
   * Lowest confidence of a correction that becomes a key point. Default `'medium'` (challenging
   * questions such as "Shouldn't that use a fixture?" count; `'high'` keeps only explicit ones).
   */
  minConfidence?: 'high' | 'medium' | 'low';
  /** Receives each non-fatal problem (store failures of `systemPrompt`, model diagnostics). */
  onError?: (error: SessionError) => void;
}

/**
 * One problem met while ending a session or building a prompt, or (`scorer`) the reader `loadRearview`
 * could not import, so that the markers read people's turns. Nothing is thrown.
 */
export interface SessionError {
  stage: 'aborted' | 'store' | 'reflector' | 'curator' | 'llm' | 'budget' | 'prompt' | 'internal' | 'scorer';
  message: string;
  code?: string;
}

/**
 * A key point the heuristics propose from one user turn or one failure class: `proposeKeyPoint` of
 * `rearview/playbook` (section, text, the insight's category, its trace references, and for a
 * correction what it corrected).
 */
export type ProposedKeyPoint = KeyPointProposal<ReflectionInsight['category']>;

/**
 * What {@link lessons} reads: a conversation (`Message[]` of `rearview/transcript`: user turns, and
 * tool calls and results of Claude Code sessions) and agent runs (SWE-agent and mini-swe-agent
 * trajectories, whose failed steps the messages do not mark).
 *
 * @example
 * ```ts
 * const input: LessonsInput = { messages: parseTranscript(text).messages };
 * ```
 */
export interface LessonsInput {
  messages?: readonly MessageLike[];
  trajectories?: readonly TrajectoryLike[];
  /**
   * The folder the conversation's agent worked in (`TranscriptMeta.cwd`; `lessonsInputOf` sets it):
   * the failure lessons of its tool calls read it as one path in error text, even when its name holds
   * a space.
   */
  root?: string;
}

/**
 * What {@link lessons} found: what a session observing the same input would hold at `endSession`.
 *
 * @example
 * ```ts
 * const { insights, proposed, tags } = lessons({ messages });
 * ```
 */
export interface LessonsResult {
  /** The user turns' insights, then one failure lesson per tool and error class. */
  insights: ReflectionInsight[];
  /** One key point per lesson (near-duplicates merged by the playbook's dedup). */
  proposed: ProposedKeyPoint[];
  /** Evidence on key points the assistant cited: corrected or complained about, or approved. */
  tags: KeyPointTag[];
}

/**
 * Options of {@link lessons}: the heuristics' markers and score floor and the policy's confidence
 * floor, as in {@link RearviewOptions}.
 *
 * @example
 * ```ts
 * lessons({ messages }, { minConfidence: 'high' });
 * ```
 */
export type LessonsOptions = Pick<
  RearviewOptions,
  'markers' | 'minScore' | 'minConfidence' | 'scorer' | 'isWord'
>;

/** What {@link Rearview.observe} found in the new messages. */
export interface ObserveResult {
  /** Messages analysed by this call (only the new ones). */
  analysed: number;
  /** Insights found in them. */
  insights: ReflectionInsight[];
  /** Key points proposed from them (saved at `endSession`). */
  proposed: ProposedKeyPoint[];
}

/** What {@link Rearview.endSession} changed. */
export interface SessionSummary {
  sessionId: string;
  playbookId: string;
  /** Messages observed in the session. */
  messages: number;
  /** Every heuristic insight of the session. */
  insights: ReflectionInsight[];
  /** Key points added (by the heuristics and by the Curator). */
  added: { name: string; section: SectionName; text: string; by: 'heuristic' | 'curator' }[];
  /**
   * Heuristic proposals left out because the playbook already says it (`of` = that key point; a
   * failure lesson learned again raises its helpful count) or an earlier proposal of the session does
   * (`of` = `(new N)`, the N-th key point added).
   */
  duplicates: { text: string; section: SectionName; of: string }[];
  /** Helpful/harmful tags applied to key points cited in the session, and who decided them. */
  tags: { applied: number; skipped: number; by: 'heuristic' | 'reflector' | 'none' };
  /** Every operation the store applied, in order (heuristic ADDs, merges, Curator operations, evictions). */
  applied: AppliedOperation[];
  /** Operations the store refused, with the reason. */
  rejected: { op: unknown; reason: string }[];
  /** Names evicted to meet `budgets.playbookTokens`. */
  evicted: string[];
  /** Whether the Reflector and Curator ran. */
  llm: boolean;
  /** The Reflector's analysis of the session ('' without a model or when it failed). */
  analysis: string;
  /** Playbook content version after the session (0 when it does not exist). */
  version: number;
  /** True when the playbook content or counters changed. */
  changed: boolean;
  /**
   * True when the signal fired: before the start nothing was done and the session goes on; after it,
   * the current model call settled at once and nothing more was written.
   */
  aborted: boolean;
  /** Problems met; the session still ended unless `aborted` before the start. */
  errors: SessionError[];
}

/** The session facade returned by {@link createRearview}. */
export interface Rearview {
  readonly playbookId: string;
  /** The PlaybookStore in use. */
  readonly store: PlaybookStore;
  /** The current session's id. */
  readonly sessionId: string;
  /**
   * Feeds the conversation as it grows: pass the whole message array each time (the same array
   * mutated, or a copy holding the same or equal messages). Only messages not seen before are
   * analysed, with the previous user turn as context, so a call costs O(new messages). A different
   * conversation (its last seen message no longer matches) is analysed from its start. The insights
   * and proposals it returns are redacted (unless `redact: false`); the session keeps the originals.
   * Placeholders are numbered per call: `[email-1]` in two calls' results may stand for different
   * values; `insights()` and `proposed()` number them once over the whole session.
   */
  observe(messages: readonly MessageLike[]): ObserveResult;
  /**
   * Adds an agent run to the session: a SWE-agent or mini-swe-agent trajectory (`parseTrajectory`),
   * whose failed steps become failure lessons. Claude Code sessions need nothing more than `observe`:
   * their tool calls and results are messages.
   */
  observeTrajectory(trajectory: TrajectoryLike): void;
  /** The insights of the current session so far: the user turns', then the failure lessons (redacted). */
  insights(): ReflectionInsight[];
  /** Key points the current session will propose at `endSession`, one per lesson (text and context redacted). */
  proposed(): ProposedKeyPoint[];
  /**
   * Ends the session: saves the heuristic key points (deduplicated against the playbook, with the
   * session id and trace references as provenance), applies helpful/harmful tags to the key points
   * the assistant cited, runs the Reflector and Curator when a model is configured, enforces the
   * playbook budget, then starts a new session. Never rejects: problems are listed in `errors`.
   * `signal` stops it at the next step (a pending model call settles at once) and nothing more is
   * written; calls are serialized, so a later call waits only for the steps already under way.
   */
  endSession(options?: {
    signal?: AbortSignal;
    messages?: readonly MessageLike[];
    /** Agent runs to observe first, as {@link Rearview.observeTrajectory}. */
    trajectories?: readonly TrajectoryLike[];
  }): Promise<SessionSummary>;
  /**
   * The playbook section to append to the next system prompt: the key points most relevant to `query`
   * within `tokenBudget` (default `budgets.promptTokens`), inside the template with the citation
   * directive. Never rejects (a store failure gives the template with no key points and an `onError`).
   */
  systemPrompt(options?: { query?: string; tokenBudget?: number }): Promise<string>;
  /** Same selection with its scores and token count. */
  select(options?: { query?: string; tokenBudget?: number }): Promise<Selection>;
  /** The stored playbook. */
  playbook(): Promise<Playbook>;
  /** Playbook changes from this object, other objects on the same store and other tabs. */
  on(event: 'change', listener: (change: PlaybookChange) => void): () => void;
  /** Stops listening and releases the store's BroadcastChannel when this object created the store. */
  close(): void;
}

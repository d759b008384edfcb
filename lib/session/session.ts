/**
 * `createRearview`: the drop-in session facade. Feed the conversation as it grows (`observe`, heuristic
 * and incremental: ./observe.ts), end the session (`endSession`: key points from the user's corrections
 * and preferences, then the Reflector and Curator when a model is configured, saved through a
 * `PlaybookStore`: ./end-session.ts), and inject what was learned into the next system prompt
 * (`systemPrompt`). The facade only assembles: its state is one {@link FacadeState} handed to plain
 * functions.
 *
 * @module
 */

import type { TrajectoryLike } from '../failures/index.js';
import type { MessageLike, ReflectionInsight } from '../heuristic/index.js';
import {
  emptyPlaybook,
  formatPlaybook,
  type Playbook,
  redactorFor,
  redactPlaybookTexts,
  type Selection,
  selectForPrompt,
} from '../playbook/index.js';
import { redact } from '../redact/index.js';
import { type PlaybookStore, playbookStore } from '../store/index.js';
import { type EndSessionConfig, emptySummary, endSessionSteps, sessionError } from './end-session.js';
import {
  failureInsights,
  lessonsOf,
  observeTrajectory,
  sessionInsights,
  sessionProposals,
} from './lessons.js';
import {
  type ConversationTracker,
  newSessionState,
  newTracker,
  type ObserveConfig,
  observeMessages,
  type SessionState,
} from './observe.js';
import { withSplitSecrets } from './split-secrets.js';
import type {
  LessonsInput,
  LessonsOptions,
  LessonsResult,
  ProposedKeyPoint,
  Rearview,
  RearviewOptions,
  SessionError,
  SessionSummary,
} from './types.js';

/** Everything one facade holds: fixed configuration, the conversation seen, the current session. */
interface FacadeState {
  config: EndSessionConfig;
  observe: ObserveConfig;
  newId: () => string;
  report: (error: SessionError) => void;
  tracker: ConversationTracker;
  session: SessionState;
  /** endSession calls run one after the other. */
  queue: Promise<unknown>;
  /** The folder the agent works in (`RearviewOptions.root`), for the failure lessons. */
  root: string | undefined;
}

interface PromptOptions {
  query?: string;
  tokenBudget?: number;
}

function isPlaybookStore(store: unknown): store is PlaybookStore {
  const s = store as Partial<PlaybookStore> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.applyDelta === 'function' &&
    typeof s.load === 'function' &&
    typeof s.subscribe === 'function'
  );
}

function randomId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c && typeof c.randomUUID === 'function') return `session-${c.randomUUID()}`;
  return `session-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** How turns are read: the heuristics' markers and score floor, the policy's confidence floor. */
function observeConfig(options: LessonsOptions): ObserveConfig {
  return {
    heuristic: {
      ...(options?.markers ? { markers: options.markers } : {}),
      ...(typeof options?.minScore === 'number' || (options?.minScore && typeof options.minScore === 'object')
        ? { minScore: options.minScore }
        : {}),
      ...(typeof options?.scorer === 'function' ? { scorer: options.scorer } : {}),
    },
    policy: { minConfidence: options?.minConfidence ?? 'medium' },
    ...(typeof options?.isWord === 'function' ? { isWord: options.isWord } : {}),
  };
}

/**
 * The lesson pipeline on one input, without a store: what a {@link createRearview} session observing
 * the same messages and trajectories proposes at `endSession` — the user turns' insights (corrections,
 * preferences, friction, approvals) and one failure lesson per tool and error class, one key point per
 * lesson (the policy of `rearview/playbook`, near-duplicates merged by its dedup), and the evidence on
 * key points the assistant cited. The CLI, the playground and the examples show exactly this.
 * Deterministic; never throws on malformed messages.
 *
 * @example
 * ```ts
 * import { lessons } from 'rearview/session';
 * import { parseTranscript } from 'rearview/transcript';
 *
 * const { insights, proposed } = lessons({ messages: parseTranscript(text).messages });
 * for (const p of proposed) console.log(`${p.section}: ${p.text}`);
 * ```
 */
export function lessons(input: LessonsInput, options: LessonsOptions = {}): LessonsResult {
  return lessonsOf(input, observeConfig(options));
}

/**
 * What the lesson pipeline reads from one read text (`readSnapshotSource` of rearview/snapshot, or
 * anything shaped like it): the messages, and the agent run for SWE-agent and mini-swe-agent. A Claude
 * Code session's tool calls are messages already, so its trajectory is left out (it would count every
 * failure twice). The CLI and the playground both build their lessons' input here.
 *
 * @example
 * ```ts
 * import { readSnapshotSource } from 'rearview/snapshot';
 *
 * const { proposed } = lessons(lessonsInputOf(readSnapshotSource(text)));
 * ```
 */
export function lessonsInputOf(source: {
  kind: string;
  transcript: { messages: readonly MessageLike[]; meta?: { cwd?: string } } | null;
  trajectory: TrajectoryLike | null;
}): LessonsInput {
  const input: LessonsInput = {
    messages: source.transcript?.messages ?? [],
    trajectories: source.kind === 'trajectory' && source.trajectory ? [source.trajectory] : [],
  };
  const root = source.transcript?.meta?.cwd;
  if (typeof root === 'string') input.root = root;
  return input;
}

/** Reads `options` into the facade's state (a `KeyValueStore` is wrapped in `playbookStore`). */
function facadeState(options: RearviewOptions, store: PlaybookStore): FacadeState {
  const newId = options.sessionId ?? randomId;
  const budgets = options.budgets ?? {};
  return {
    config: {
      store,
      playbookId: options.playbookId ?? 'default',
      llm: options.llm,
      redact: options.redact ?? true,
      budgets,
      timeoutMs: options.timeoutMs,
    },
    // Redaction also reads the join of consecutive messages: a key split across two is found whole.
    observe: { ...observeConfig(options), redact: options.redact ?? true, findSecrets: redact },
    newId,
    report: (e) => {
      try {
        options.onError?.(e);
      } catch {
        // A throwing sink must not break the never-rejects contract.
      }
    },
    tracker: newTracker(),
    session: newSessionState(newId()),
    queue: Promise.resolve(),
    root: typeof options.root === 'string' ? options.root : undefined,
  };
}

/** Ends the current session (after the calls already queued) and starts a new one; never rejects. */
async function endSession(
  f: FacadeState,
  opts: {
    signal?: AbortSignal;
    messages?: readonly MessageLike[];
    trajectories?: readonly TrajectoryLike[];
  } = {},
): Promise<SessionSummary> {
  const run = async (): Promise<SessionSummary> => {
    if (opts?.messages) observeMessages(f.tracker, f.session, opts.messages, f.observe);
    if (Array.isArray(opts?.trajectories)) for (const t of opts.trajectories) observeTrajectory(f.session, t);
    const signal = opts?.signal;
    const s = f.session;
    // Read the whole history once: the summary's insights and the proposals saved share them.
    const failures = failureInsights(s, f.root);
    const insights = redactInsights(
      sessionInsights(s, failures),
      redactorFor(withSplitSecrets(f.config.redact, s.splitSecrets)),
    );
    const summary = emptySummary(s.id, f.config.playbookId, s.history.length, insights);
    if (signal?.aborted) {
      summary.aborted = true;
      summary.errors.push({ stage: 'aborted', message: 'endSession was aborted before it started' });
      return summary;
    }
    f.session = newSessionState(f.newId());
    try {
      await endSessionSteps(f.config, s, signal, summary, failures);
    } catch (err) {
      summary.errors.push(sessionError('store', err));
    }
    summary.aborted = signal?.aborted === true;
    summary.changed = summary.applied.length > 0 || summary.tags.applied > 0;
    return summary;
  };
  const next = f.queue.then(run, run);
  f.queue = next.catch(() => undefined);
  try {
    return await next;
  } catch (err) {
    // Unreachable in practice (run catches everything); kept for the never-rejects contract.
    const summary = emptySummary(f.session.id, f.config.playbookId, 0, []);
    summary.errors.push(sessionError('internal', err));
    return summary;
  }
}

/**
 * The key points for the next prompt. Stored text is redacted on the way out too: it may predate
 * redaction or come from another writer of the same store.
 */
async function select(f: FacadeState, opts: PromptOptions = {}): Promise<Selection> {
  let playbook: Playbook;
  try {
    playbook = await f.config.store.load(f.config.playbookId);
  } catch (err) {
    f.report(sessionError('prompt', err));
    playbook = emptyPlaybook();
  }
  return selectForPrompt(
    redactPlaybookTexts(playbook, f.config.redact),
    typeof opts?.query === 'string' ? opts.query : '',
    { tokenBudget: opts?.tokenBudget ?? f.config.budgets.promptTokens ?? 1500 },
  );
}

async function systemPrompt(f: FacadeState, opts: PromptOptions = {}): Promise<string> {
  try {
    return (await select(f, opts)).text;
  } catch (err) {
    f.report(sessionError('prompt', err));
    return formatPlaybook(emptyPlaybook());
  }
}

/**
 * Creates the session facade: a chat UI or an edge function learns across sessions in a few lines.
 *
 * @example
 * ```ts
 * import { createRearview } from 'rearview/session';
 * import { idbStore } from 'rearview/store';
 *
 * const rv = createRearview({ store: idbStore('my-chat', 'playbooks') });
 * const system = `${basePrompt}\n\n${await rv.systemPrompt({ query: userText, tokenBudget: 800 })}`;
 * rv.observe(messages);                 // after each turn: cheap, incremental
 * const summary = await rv.endSession(); // when the conversation ends: never rejects
 * rv.on('change', () => render());      // this tab or another one changed the playbook
 * ```
 */
export function createRearview(options: RearviewOptions): Rearview {
  if (!options || typeof options !== 'object' || !options.store) {
    throw new TypeError('createRearview: options.store is required (a KeyValueStore or a PlaybookStore)');
  }
  const ownsStore = !isPlaybookStore(options.store);
  const store: PlaybookStore = isPlaybookStore(options.store)
    ? options.store
    : playbookStore(options.store, options.storeOptions ?? {});
  const f = facadeState(options, store);
  const { playbookId } = f.config;
  const unsubscribers = new Set<() => void>();
  return {
    playbookId,
    store,
    get sessionId() {
      return f.session.id;
    },
    observe: (messages) => {
      const r = observeMessages(f.tracker, f.session, messages, f.observe);
      // Most calls learn nothing new: no redactor (with the session's split-secret patterns) to build.
      if (!r.insights.length && !r.proposed.length) return r;
      const redactor = redactorFor(withSplitSecrets(f.config.redact, f.session.splitSecrets));
      return {
        ...r,
        insights: redactInsights(r.insights, redactor),
        proposed: redactProposals(r.proposed, redactor),
      };
    },
    observeTrajectory: (trajectory) => observeTrajectory(f.session, trajectory),
    insights: () =>
      redactInsights(
        sessionInsights(f.session, failureInsights(f.session, f.root)),
        redactorFor(withSplitSecrets(f.config.redact, f.session.splitSecrets)),
      ),
    proposed: () =>
      redactProposals(
        sessionProposals(f.session, failureInsights(f.session, f.root)),
        redactorFor(withSplitSecrets(f.config.redact, f.session.splitSecrets)),
      ),
    endSession: (opts) => endSession(f, opts),
    systemPrompt: (opts) => systemPrompt(f, opts),
    select: (opts) => select(f, opts),
    playbook: () => store.load(playbookId),
    on(event, listener) {
      if (event !== 'change') throw new TypeError(`Unknown event ${JSON.stringify(event)}: use 'change'`);
      const off = store.subscribe(playbookId, listener);
      const once = () => {
        if (unsubscribers.delete(once)) off();
      };
      unsubscribers.add(once);
      return once;
    },
    close() {
      for (const off of [...unsubscribers]) off();
      if (ownsStore) store.close();
    },
  };
}

/**
 * Insights with their fact and recommendation redacted: they quote the user's turns and tool output,
 * and a summary is shown, logged and printed. One redactor, so a value keeps its placeholder throughout.
 */
function redactInsights(
  insights: ReflectionInsight[],
  redactor: ReturnType<typeof redactorFor>,
): ReflectionInsight[] {
  if (!redactor) return insights;
  return insights.map((i) => ({
    ...i,
    fact: redactor.redactText(i.fact),
    recommendation: redactor.redactText(i.recommendation),
  }));
}

/**
 * Proposals with their text and context redacted: they quote the user's turn and the agent's message
 * before it, and are shown before `endSession` stores them (redacted again there, with the store's map).
 */
function redactProposals(
  proposed: ProposedKeyPoint[],
  redactor: ReturnType<typeof redactorFor>,
): ProposedKeyPoint[] {
  if (!redactor) return proposed;
  return proposed.map((p) => ({
    ...p,
    text: redactor.redactText(p.text),
    ...(p.context !== undefined ? { context: redactor.redactText(p.context) } : {}),
  }));
}

/**
 * `createRearview`: the drop-in session facade. Feed the conversation as it grows (`observe`, heuristic
 * and incremental), end the session (`endSession`: key points from the user's corrections and
 * preferences, then the Reflector and Curator when a model is configured, saved through a
 * `PlaybookStore`), and inject what was learned into the next system prompt (`systemPrompt`).
 *
 * @module
 */
import {
  contentText,
  defaultRef,
  describeError,
  errorCode,
  jaccard,
  shingles,
  truncateUtf8,
} from '../core/index.js';
import {
  type CompiledMarkers,
  type HeuristicOptions,
  heuristicReflect,
  type MarkerSet,
  type MessageLike,
  type ReflectionInsight,
} from '../heuristic/index.js';
import type { KeyValueStore } from '../kv/index.js';
import type { LlmClient } from '../llm/index.js';
import {
  type AppliedOperation,
  type BulletTag,
  DEDUP_THRESHOLD,
  emptyPlaybook,
  enforceBudget,
  extractCitedIds,
  formatPlaybook,
  type Playbook,
  SECTION_NAMES,
  type SectionName,
  type Selection,
  sanitizeKeyPointText,
  selectForPrompt,
} from '../playbook/index.js';
import { createRedactor, type RedactOptions } from '../redact/index.js';
import {
  type PlaybookChange,
  type PlaybookStore,
  type PlaybookStoreOptions,
  playbookStore,
} from '../store/index.js';
import { reflectSession } from './reflect-session.js';

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
   * Redaction of what leaves the conversation: key point texts the heuristics derive from user turns
   * before they are stored, and the transcript the Reflector sees. Default on; `false` turns it off;
   * an object tunes it (`rearview/redact` options).
   */
  redact?: boolean | RedactOptions;
  budgets?: RearviewBudgets;
  /** Playbook id in the store. Default `'default'`. */
  playbookId?: string;
  /** Id of each new session (stamped as provenance on what it adds). Default a random UUID. */
  sessionId?: () => string;
  /** Marker lists of the heuristics (`rearview/heuristic`). */
  markers?: MarkerSet | CompiledMarkers;
  /**
   * Lowest confidence of a correction that becomes a key point. Default `'medium'` (challenging
   * questions such as "Shouldn't that use a fixture?" count; `'high'` keeps only explicit ones).
   */
  minConfidence?: 'high' | 'medium' | 'low';
  /** Receives each non-fatal problem (store failures of `systemPrompt`, model diagnostics). */
  onError?: (error: SessionError) => void;
}

/** One problem met while ending a session or building a prompt. Nothing is thrown. */
export interface SessionError {
  stage: 'aborted' | 'store' | 'reflector' | 'curator' | 'llm' | 'budget' | 'prompt' | 'internal';
  message: string;
  code?: string;
}

/** A key point the heuristics propose from one user turn. */
export interface ProposedKeyPoint {
  section: SectionName;
  text: string;
  /** The insight it comes from. */
  category: ReflectionInsight['category'];
  /** `message:{id}` of the turn, then its context. */
  traceRefs: string[];
}

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
  /** Heuristic proposals left out because the playbook already says it (`of` = that key point). */
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
  /** True when the signal fired (before the start: nothing was done and the session goes on). */
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
   * conversation (its last seen message no longer matches) is analysed from its start.
   */
  observe(messages: readonly MessageLike[]): ObserveResult;
  /** The insights of the current session so far. */
  insights(): ReflectionInsight[];
  /** Key points the current session will propose at `endSession`. */
  proposed(): ProposedKeyPoint[];
  /**
   * Ends the session: saves the heuristic key points (deduplicated against the playbook, with the
   * session id and trace references as provenance), applies helpful/harmful tags to the key points
   * the assistant cited, runs the Reflector and Curator when a model is configured, enforces the
   * playbook budget, then starts a new session. Never rejects: problems are listed in `errors`.
   */
  endSession(options?: { signal?: AbortSignal; messages?: readonly MessageLike[] }): Promise<SessionSummary>;
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

const CONFIDENCE_RANK = { high: 3, medium: 2, low: 1 } as const;
const RECOMMENDATION_MARKERS = [
  /(?<![a-z])instead,/i,
  /(?<![a-z])actually,/i,
  /(?<![a-z])please /i,
  /(?<![a-z])use /i,
  /(?<![a-z])don['’]t /i,
];

interface Tracked {
  m: MessageLike;
  gi: number;
}

interface SessionState {
  id: string;
  history: MessageLike[];
  insights: ReflectionInsight[];
  proposed: ProposedKeyPoint[];
  /** Evidence on cited key points, in order. */
  tags: BulletTag[];
  prevUser: Tracked | undefined;
  /** How many insights `prevUser` alone yields (they are dropped when it is re-read as context). */
  prevUserInsights: number;
  lastOther: Tracked | undefined;
  pendingCited: Set<string>;
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

function isUser(m: MessageLike): boolean {
  return m.role === 'user' || m.role === 'human';
}

/** The same message as before: the same object, or the same role, id and text. */
function sameMessage(a: MessageLike | undefined, b: MessageLike | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.role !== b.role || a.id !== b.id) return false;
  return contentText(a.content) === contentText(b.content);
}

/** The specific advice in a turn (`use pnpm instead of npm`), or undefined when there is none. */
function specificAdvice(text: string): string | undefined {
  for (const marker of RECOMMENDATION_MARKERS) {
    const found = marker.exec(text);
    if (!found) continue;
    const rest = text.slice(found.index);
    // A sentence ends at . ! ? followed by a space or the end (not inside `jane.doe` or `v1.2`).
    const end = rest.search(/[.!?](?=\s|$)|\n/);
    let out = truncateUtf8(end >= 0 ? rest.slice(0, end) : rest, 200).trim();
    out = out.replace(/^(?:instead|actually),\s*/i, '').replace(/^please\s+/i, '');
    if (out.split(/\s+/).length >= 2) return out;
  }
  return undefined;
}

function sentence(text: string): string {
  const t = text.trim().replace(/[,;:]+$/, '');
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(cap) ? cap : `${cap}.`;
}

function quote(text: string, bytes: number): string {
  const oneLine = sanitizeKeyPointText(text);
  const cut = truncateUtf8(oneLine, bytes);
  return `"${cut}${cut.length < oneLine.length ? '…' : ''}"`;
}

/** Turns one heuristic insight into a key point proposal, or undefined when it teaches nothing durable. */
function propose(insight: ReflectionInsight, turnText: string): ProposedKeyPoint | undefined {
  const advice = specificAdvice(turnText);
  const refs = [...insight.traceRefs];
  switch (insight.category) {
    case 'correction':
      return {
        section: 'MISTAKES TO AVOID',
        text: advice ? sentence(advice) : `The user corrected this: ${quote(turnText, 200)}`,
        category: insight.category,
        traceRefs: refs,
      };
    case 'preference':
      if (insight.tags.includes('approval')) return undefined;
      return {
        section: 'USER PREFERENCES',
        text: advice ? sentence(advice) : `User preference: ${quote(turnText, 200)}`,
        category: insight.category,
        traceRefs: refs,
      };
    case 'friction':
      // Repetition is worth remembering only when it says what to do.
      return advice
        ? { section: 'USER PREFERENCES', text: sentence(advice), category: insight.category, traceRefs: refs }
        : undefined;
    default:
      return undefined;
  }
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function errorOf(stage: SessionError['stage'], err: unknown): SessionError {
  const code = errorCode(err);
  return { stage, message: describeError(err), ...(code !== undefined ? { code } : {}) };
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
  const playbookId = options.playbookId ?? 'default';
  const budgets = options.budgets ?? {};
  const promptTokens = budgets.promptTokens ?? 1500;
  const maxHeuristic = budgets.heuristicKeyPoints ?? 10;
  const minRank = CONFIDENCE_RANK[options.minConfidence ?? 'medium'];
  const newId = options.sessionId ?? randomId;
  const heuristicOptions: HeuristicOptions = options.markers ? { markers: options.markers } : {};
  const redactOption = options.redact ?? true;
  const unsubscribers = new Set<() => void>();
  const report = (e: SessionError) => {
    try {
      options.onError?.(e);
    } catch {
      // A throwing sink must not break the never-rejects contract.
    }
  };

  const fresh = (): SessionState => ({
    id: newId(),
    history: [],
    insights: [],
    proposed: [],
    tags: [],
    prevUser: undefined,
    prevUserInsights: 0,
    lastOther: undefined,
    pendingCited: new Set(),
  });
  let state = fresh();
  // Conversation tracking survives endSession: a UI that keeps appending to the same array only has
  // its new messages analysed in the next session.
  let seenCount = 0;
  let seenLast: MessageLike | undefined;
  let seenArray: readonly MessageLike[] | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function observe(messages: readonly MessageLike[]): ObserveResult {
    const empty: ObserveResult = { analysed: 0, insights: [], proposed: [] };
    if (!Array.isArray(messages)) return empty;
    let start = 0;
    if (
      seenCount > 0 &&
      messages.length >= seenCount &&
      (messages === seenArray || sameMessage(messages[seenCount - 1], seenLast))
    ) {
      start = seenCount;
    }
    seenArray = messages;
    seenCount = messages.length;
    seenLast = messages[messages.length - 1];
    if (start >= messages.length) return empty;

    const s = state;
    const base = s.history.length;
    // The window: the previous user turn and the last other message (the context heuristicReflect
    // reads for a correction), then the new messages.
    const window: MessageLike[] = [];
    const globalIndex: number[] = [];
    let skip = 0;
    if (s.prevUser) {
      window.push(s.prevUser.m);
      globalIndex.push(s.prevUser.gi);
      skip = s.prevUserInsights;
    }
    if (s.lastOther && s.lastOther.gi > (s.prevUser?.gi ?? -1)) {
      window.push(s.lastOther.m);
      globalIndex.push(s.lastOther.gi);
    }
    for (let i = start; i < messages.length; i++) {
      const m = messages[i]!;
      s.history.push(m);
      window.push(m);
      globalIndex.push(base + i - start);
    }
    const refOf = (m: MessageLike, i: number) => defaultRef(m, globalIndex[i] ?? i);
    const found = heuristicReflect(window, { ...heuristicOptions, ref: refOf }).slice(skip);
    const byRef = new Map<string, ReflectionInsight[]>();
    for (const insight of found) {
      const ref = insight.traceRefs[0] ?? '';
      const list = byRef.get(ref);
      if (list) list.push(insight);
      else byRef.set(ref, [insight]);
    }

    const proposed: ProposedKeyPoint[] = [];
    const offset = window.length - (messages.length - start);
    for (let w = offset; w < window.length; w++) {
      const m = window[w]!;
      if (m === null || typeof m !== 'object') continue;
      const gi = globalIndex[w]!;
      const text = contentText(m.content);
      if (!isUser(m)) {
        if (text !== undefined) s.lastOther = { m, gi };
        if (m.role === 'assistant') for (const id of extractCitedIds([m])) s.pendingCited.add(id);
        continue;
      }
      if (text === undefined || text.trim() === '') continue;
      const turn = byRef.get(refOf(m, w)) ?? [];
      // Evidence on the key points the assistant cited since the previous user turn.
      if (s.pendingCited.size) {
        const corrected = turn.some((i) => i.category === 'correction');
        const approved = !corrected && turn.some((i) => i.tags.includes('approval'));
        if (corrected || approved) {
          for (const name of s.pendingCited) {
            s.tags.push({
              name,
              tag: corrected ? 'harmful' : 'helpful',
              rationale: `${corrected ? 'corrected' : 'approved'} by the user in ${refOf(m, w)}`,
            });
          }
        }
        s.pendingCited.clear();
      }
      for (const insight of turn) {
        if (insight.category === 'correction' && CONFIDENCE_RANK[insight.confidence] < minRank) continue;
        const p = propose(insight, text);
        if (p) proposed.push(p);
      }
      s.prevUser = { m, gi };
      s.prevUserInsights = turn.length;
      s.lastOther = undefined;
    }
    s.insights.push(...found);
    s.proposed.push(...proposed);
    return { analysed: messages.length - start, insights: found, proposed };
  }

  async function runEnd(
    s: SessionState,
    signal: AbortSignal | undefined,
    summary: SessionSummary,
  ): Promise<void> {
    const errors = summary.errors;
    const redactor =
      redactOption === false ? undefined : createRedactor(redactOption === true ? undefined : redactOption);
    const before = await store.open(playbookId);
    summary.version = before.version;
    let playbook = before.playbook;

    // 1. Heuristic key points, deduplicated against the playbook and each other.
    const index = new Map<SectionName, { name: string; norm: string; shingles: Set<string> }[]>();
    const norms = new Map<string, string>();
    for (const section of SECTION_NAMES) {
      const list = playbook.sections[section].map((kp) => ({
        name: kp.name,
        norm: normalize(kp.text),
        shingles: new Set(shingles(kp.text)),
      }));
      for (const e of list) if (!norms.has(e.norm)) norms.set(e.norm, e.name);
      index.set(section, list);
    }
    const adds: { type: 'ADD'; section: SectionName; text: string; source: object }[] = [];
    for (const p of s.proposed) {
      if (adds.length >= maxHeuristic) break;
      const text = sanitizeKeyPointText(redactor ? redactor.redactText(p.text) : p.text);
      if (!text) continue;
      const norm = normalize(text);
      const sh = new Set(shingles(text));
      let of = norms.get(norm);
      if (of === undefined) {
        for (const e of index.get(p.section)!) {
          if (jaccard(sh, e.shingles) >= DEDUP_THRESHOLD) {
            of = e.name;
            break;
          }
        }
      }
      if (of !== undefined) {
        summary.duplicates.push({ text, section: p.section, of });
        continue;
      }
      const pendingName = `(new ${adds.length + 1})`;
      norms.set(norm, pendingName);
      index.get(p.section)!.push({ name: pendingName, norm, shingles: sh });
      adds.push({
        type: 'ADD',
        section: p.section,
        text,
        source: { session: s.id, traceRefs: p.traceRefs.slice(0, 8) },
      });
    }
    const addedNames = new Set<string>();
    if (adds.length) {
      const res = await store.applyDelta(playbookId, adds);
      summary.applied.push(...res.applied);
      summary.rejected.push(...res.rejected);
      for (const op of res.applied) {
        if (op.type !== 'ADD') continue;
        addedNames.add(op.name);
        summary.added.push({ name: op.name, section: op.section, text: op.text, by: 'heuristic' });
      }
      playbook = res.playbook;
      summary.version = res.version;
    }

    // 2. The Reflector and the Curator.
    let reflectorTags = 0;
    if (options.llm && !signal?.aborted) {
      try {
        const out = await reflectSession(s.history, store, {
          llm: options.llm,
          id: playbookId,
          source: { session: s.id },
          ...(signal ? { signal } : {}),
          redact: redactOption,
          ...(budgets.curatorOperations !== undefined ? { maxOperations: budgets.curatorOperations } : {}),
          ...(budgets.playbookTokens !== undefined ? { budget: { maxTokens: budgets.playbookTokens } } : {}),
          onDiagnostic: (d) => errors.push({ stage: d.role, message: d.message, code: d.code }),
        });
        summary.llm = true;
        summary.analysis = out.reflection.analysis;
        reflectorTags = out.tags.applied;
        summary.tags = { applied: out.tags.applied, skipped: out.tags.skipped.length, by: 'reflector' };
        summary.applied.push(...out.applied);
        summary.rejected.push(...out.rejected);
        for (const op of out.applied) {
          if (op.type === 'ADD')
            summary.added.push({ name: op.name, section: op.section, text: op.text, by: 'curator' });
          else if (op.type === 'REMOVE' && out.evicted.some((e) => e.name === op.name))
            summary.evicted.push(op.name);
        }
        playbook = out.playbook;
        summary.version = out.version;
      } catch (err) {
        errors.push(errorOf('llm', err));
      }
    }

    // 3. Heuristic tags when no model judged the citations.
    if (reflectorTags === 0 && s.tags.length) {
      const known = new Set<string>();
      for (const section of SECTION_NAMES) for (const kp of playbook.sections[section]) known.add(kp.name);
      const tags = s.tags.filter((t) => known.has(t.name));
      if (tags.length) {
        const res = await store.applyTags(playbookId, tags);
        summary.tags = { applied: res.applied, skipped: res.skipped.length, by: 'heuristic' };
        playbook = await store.load(playbookId);
      }
    }

    // 4. The playbook budget (the Curator path enforced it already).
    if (budgets.playbookTokens !== undefined && !summary.llm) {
      try {
        const res = enforceBudget(playbook, { maxTokens: budgets.playbookTokens, protect: addedNames });
        if (res.operations.length) {
          const out = await store.applyDelta(playbookId, res.operations);
          summary.applied.push(...out.applied);
          summary.rejected.push(...out.rejected);
          summary.evicted.push(...res.evicted.map((e) => e.name));
          summary.version = out.version;
        }
      } catch (err) {
        errors.push(errorOf('budget', err));
      }
    }
  }

  async function endSession(
    opts: { signal?: AbortSignal; messages?: readonly MessageLike[] } = {},
  ): Promise<SessionSummary> {
    const run = async (): Promise<SessionSummary> => {
      if (opts?.messages) observe(opts.messages);
      const signal = opts?.signal;
      const s = state;
      const summary = emptySummary(s.id, playbookId, s.history.length, s.insights.slice());
      if (signal?.aborted) {
        summary.aborted = true;
        summary.errors.push({ stage: 'aborted', message: 'endSession was aborted before it started' });
        return summary;
      }
      state = fresh();
      try {
        await runEnd(s, signal, summary);
      } catch (err) {
        summary.errors.push(errorOf('store', err));
      }
      summary.aborted = signal?.aborted === true;
      summary.changed = summary.applied.length > 0 || summary.tags.applied > 0;
      return summary;
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    try {
      return await next;
    } catch (err) {
      // Unreachable in practice (run catches everything); kept for the never-rejects contract.
      const summary = emptySummary(state.id, playbookId, 0, []);
      summary.errors.push(errorOf('internal', err));
      return summary;
    }
  }

  async function select(opts: { query?: string; tokenBudget?: number } = {}): Promise<Selection> {
    let playbook: Playbook;
    try {
      playbook = await store.load(playbookId);
    } catch (err) {
      report(errorOf('prompt', err));
      playbook = emptyPlaybook();
    }
    return selectForPrompt(playbook, typeof opts?.query === 'string' ? opts.query : '', {
      tokenBudget: opts?.tokenBudget ?? promptTokens,
    });
  }

  return {
    playbookId,
    store,
    get sessionId() {
      return state.id;
    },
    observe,
    insights: () => state.insights.slice(),
    proposed: () => state.proposed.slice(),
    endSession,
    async systemPrompt(opts = {}) {
      try {
        return (await select(opts)).text;
      } catch (err) {
        report(errorOf('prompt', err));
        return formatPlaybook(emptyPlaybook());
      }
    },
    select,
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

/** A summary in which nothing has happened yet; endSession fills it in as it goes. */
function emptySummary(
  sessionId: string,
  playbookId: string,
  messages: number,
  insights: SessionSummary['insights'],
): SessionSummary {
  return {
    sessionId,
    playbookId,
    messages,
    insights,
    added: [],
    duplicates: [],
    tags: { applied: 0, skipped: 0, by: 'none' },
    applied: [],
    rejected: [],
    evicted: [],
    llm: false,
    analysis: '',
    version: 0,
    changed: false,
    aborted: false,
    errors: [],
  };
}

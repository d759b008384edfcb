/**
 * Incremental heuristic observation: each `observe` call reads only the messages not seen before, with
 * the previous user turn and the last other message as context, so the result equals
 * `heuristicReflect` of the whole history at a cost proportional to the new messages — plus, with a
 * scorer that reads replies (`acknowledges`), the corrections the agent's replies confirm
 * (./acknowledge.ts), the same whether the messages came at once or one by one.
 *
 * @module
 */
import { contentText, defaultRef } from '../core/index.js';
import type { TrajectoryLike } from '../failures/index.js';
import {
  type HeuristicOptions,
  type MessageLike,
  opensSession,
  type ReflectionInsight,
} from '../heuristic/index.js';
import {
  extractCitedIds,
  insightProposals,
  type KeyPointTag,
  noteAgentLines,
  ownWords,
  type ProposeOptions,
  repairSpelling,
  type SaidLines,
  saidLines,
  turnVerdict,
  wordCounts,
} from '../playbook/index.js';
import type { RedactOptions, RedactPattern } from '../redact/index.js';
import { acknowledgements, mergeByPosition, type PendingAck, readWindow } from './acknowledge.js';
import { collectSplitSecrets, type SecretFinder, tailOf } from './split-secrets.js';
import { type ConversationTracker, firstNew } from './tracker.js';
import type { ObserveResult, ProposedKeyPoint } from './types.js';

/** User turns the heuristics compare a new turn with (`heuristicReflect` keeps the last 8). */
const RECENT_USERS = 8;

interface Tracked {
  m: MessageLike;
  gi: number;
}

/** What one session has gathered so far; `endSession` consumes it and starts a fresh one. */
export interface SessionState {
  id: string;
  history: MessageLike[];
  insights: ReflectionInsight[];
  proposed: ProposedKeyPoint[];
  /** Evidence on cited key points, in order. */
  tags: KeyPointTag[];
  /**
   * The last user turns (as many as the heuristics compare a turn with to find a repeated request),
   * re-read as context; their own insights are dropped.
   */
  recentUsers: Tracked[];
  /** Every other message since the last user turn: the reply a correction follows, interruptions. */
  tail: Tracked[];
  /** The agent's last message since the previous user turn: what a correction corrects. */
  lastAgent: MessageLike | undefined;
  /** The agent has replied in the current session (heuristicReflect: a turn before that corrects nothing). */
  answered: boolean;
  pendingCited: Set<string>;
  /**
   * Who said which long line first: a person's line pasted back from the agent proposes no key point.
   * Only grows: a streamed message re-sent with more text (`restoreLast`) leaves the lines of its
   * earlier copy in it, which can only make a later line of the same text read as the agent's.
   */
  said: SaidLines;
  /** Agent runs observed besides the conversation (SWE-agent, mini-swe-agent trajectories). */
  trajectories: TrajectoryLike[];
  /**
   * The words of `history[0 … wordsUpTo)`, counted once a key point needs them (`ObserveConfig.isWord`)
   * and from there on only for messages not counted yet.
   */
  words: Map<string, number> | undefined;
  wordsUpTo: number;
  /** Halves of keys split across two messages, as literal patterns of their kinds (./split-secrets.ts). */
  splitSecrets: RedactPattern[];
  /** The end of the last message's text and of the last user turn's, for the next join. */
  joinTail: string | undefined;
  joinUserTail: string | undefined;
  /**
   * The state before the last message was read: a streamed message re-sent with more text replaces it
   * (`restoreLast`), so its partial copies leave nothing behind.
   */
  undo: Undo | undefined;
  /** The last person's turn, read before the agent's reply to it came (./acknowledge.ts). */
  pendingAck: PendingAck | undefined;
}

/** What reading one message changes, as it was before (every field is O(1) to save and restore). */
interface Undo {
  history: number;
  insights: number;
  proposed: number;
  tags: number;
  splitSecrets: number;
  recentUsers: Tracked[];
  tail: Tracked[];
  tailLength: number;
  lastAgent: MessageLike | undefined;
  answered: boolean;
  pendingCited: Set<string>;
  joinTail: string | undefined;
  joinUserTail: string | undefined;
  pendingAck: PendingAck | undefined;
}

export type { ConversationTracker } from './tracker.js';
export { newTracker } from './tracker.js';

/** How observation reads turns: the heuristics' markers and the policy's confidence floor. */
export interface ObserveConfig {
  heuristic: HeuristicOptions;
  policy: ProposeOptions;
  /** The session's redaction, to find keys split across two messages; `false`/absent: not searched. */
  redact?: boolean | RedactOptions;
  /** The finder that searches the joins (`rearview/redact`'s `redact`); absent: joins not searched. */
  findSecrets?: SecretFinder;
  /** A dictionary test: typos in proposed key points are repaired against the session's words. */
  isWord?: (word: string) => boolean;
}

/** A session with nothing observed yet. */
export function newSessionState(id: string): SessionState {
  return {
    id,
    history: [],
    insights: [],
    proposed: [],
    tags: [],
    recentUsers: [],
    tail: [],
    lastAgent: undefined,
    answered: false,
    pendingCited: new Set(),
    said: saidLines(),
    trajectories: [],
    words: undefined,
    wordsUpTo: 0,
    splitSecrets: [],
    joinTail: undefined,
    joinUserTail: undefined,
    undo: undefined,
    pendingAck: undefined,
  };
}

const ANSWERED: MessageLike = Object.freeze({ role: 'assistant', content: undefined });

function isUser(m: MessageLike): boolean {
  return m.role === 'user' || m.role === 'human';
}

function isObject(m: unknown): m is MessageLike {
  return m !== null && typeof m === 'object';
}

/** Saves what reading the next message changes. */
function saveUndo(s: SessionState, history: number, proposedSoFar: number, pendingAck?: PendingAck): Undo {
  return {
    pendingAck,
    history,
    insights: s.insights.length,
    proposed: s.proposed.length + proposedSoFar,
    tags: s.tags.length,
    splitSecrets: s.splitSecrets.length,
    recentUsers: s.recentUsers.slice(),
    tail: s.tail,
    tailLength: s.tail.length,
    lastAgent: s.lastAgent,
    answered: s.answered,
    pendingCited: new Set(s.pendingCited),
    joinTail: s.joinTail,
    joinUserTail: s.joinUserTail,
  };
}

/** Forgets the last message read (its history entry, insights, proposals, evidence and context). */
function restoreLast(s: SessionState, u: Undo): void {
  // The forgotten copy's words were counted: count again from the start when next needed.
  if (s.wordsUpTo > u.history) s.words = undefined;
  s.history.length = u.history;
  s.insights.length = u.insights;
  s.proposed.length = u.proposed;
  s.tags.length = u.tags;
  s.splitSecrets.length = u.splitSecrets;
  s.recentUsers = u.recentUsers;
  u.tail.length = u.tailLength;
  s.tail = u.tail;
  s.lastAgent = u.lastAgent;
  s.answered = u.answered;
  s.pendingCited = u.pendingCited;
  s.pendingAck = u.pendingAck;
  s.joinTail = u.joinTail;
  s.joinUserTail = u.joinUserTail;
  s.undo = undefined;
}

/** Keeps the halves of keys split between the previous message (or user turn) and this one. */
function joinWithPrevious(s: SessionState, m: MessageLike, config: ObserveConfig): void {
  const redactOption = config.redact;
  const find = config.findSecrets;
  if (!redactOption || !find || !isObject(m)) return;
  const text = contentText(m.content);
  if (!text) return;
  const options = redactOption === true ? undefined : redactOption;
  if (s.joinTail !== undefined) collectSplitSecrets(s.joinTail, text, options, s.splitSecrets, find);
  if (isUser(m)) {
    // Two user turns with a reply between them: a key may be split across them too.
    if (s.joinUserTail !== undefined && s.joinUserTail !== s.joinTail) {
      collectSplitSecrets(s.joinUserTail, text, options, s.splitSecrets, find);
    }
    s.joinUserTail = tailOf(text);
  }
  s.joinTail = tailOf(text);
}

/**
 * Reads the messages of `messages` not seen before into `session`: its history, insights, proposed key
 * points and citation evidence.
 */
export function observeMessages(
  tracker: ConversationTracker,
  session: SessionState,
  messages: readonly MessageLike[],
  config: ObserveConfig,
): ObserveResult {
  const empty: ObserveResult = { analysed: 0, insights: [], proposed: [] };
  if (!Array.isArray(messages)) return empty;
  const { start, replace } = firstNew(tracker, messages);
  if (start >= messages.length) return empty;

  const s = session;
  // A replaced last message is forgotten before its new copy is read (the session that read it may
  // have ended: then there is nothing to forget).
  if (replace && s.undo && s.history.length === s.undo.history + 1) restoreLast(s, s.undo);
  const base = s.history.length;
  // The window: the context heuristicReflect reads for the first new turn — the last user turns (a
  // repeated request is friction) and every message since (the reply a correction follows, an
  // interrupted tool call) — then the new messages. Insights of context turns are dropped.
  const window: MessageLike[] = [];
  const globalIndex: number[] = [];
  // The replies before the window are not in it: a reply with no text stands for them, so that a
  // turn after them is not read as one no reply had answered yet (it is never a turn's reference).
  if (s.answered) {
    window.push(ANSWERED);
    globalIndex.push(-1);
  }
  for (const t of [...s.recentUsers, ...s.tail]) {
    window.push(t.m);
    globalIndex.push(t.gi);
  }
  const offset = window.length;
  for (let i = start; i < messages.length; i++) {
    const m = messages[i]!;
    s.history.push(m);
    window.push(m);
    globalIndex.push(base + i - start);
  }
  const refOf = (m: MessageLike, i: number) => defaultRef(m, globalIndex[i] ?? i);
  const fresh = new Set<string>();
  const position = new Map<string, number>();
  for (let w = offset; w < window.length; w++) {
    const ref = refOf(window[w]!, w);
    fresh.add(ref);
    position.set(ref, w);
  }
  const lastRef = refOf(window[window.length - 1]!, window.length - 1);
  // The turns' insights (as heuristicReflect gives them), then the corrections the agent's replies
  // confirm (./acknowledge.ts), in the order of the messages they belong to.
  const reading = readWindow(window, config.heuristic, refOf, fresh, offset);
  const { reported } = reading;
  const acked = acknowledgements(window, offset, refOf, reading, s.pendingAck, config.heuristic);
  s.pendingAck = acked.awaiting;
  const late = new Set(acked.found.map((a) => a.insight));
  // An insight belongs to its turn; a confirmed correction to the reply that confirmed it, the last of
  // its references (its turn may have come in an earlier call).
  const keyOf = (i: ReflectionInsight): string => (late.has(i) ? i.traceRefs.at(-1) : i.traceRefs[0]) ?? '';
  const found = mergeByPosition(
    reading.insights.filter((i) => fresh.has(i.traceRefs[0] ?? '')),
    acked.found,
    (i) => position.get(i.traceRefs[0] ?? '') ?? -1,
  );
  const byRef = new Map<string, ReflectionInsight[]>();
  for (const insight of found) {
    const ref = keyOf(insight);
    const list = byRef.get(ref);
    if (list) list.push(insight);
    else byRef.set(ref, [insight]);
  }
  // The last message's insights go last, so that forgetting it (a streamed copy replaced) is a truncation.
  for (const insight of found) if (keyOf(insight) !== lastRef) s.insights.push(insight);

  const proposed: ProposedKeyPoint[] = [];
  for (let w = offset; w < window.length; w++) {
    const m = window[w]!;
    if (w === window.length - 1) {
      s.undo = saveUndo(s, base + (w - offset), proposed.length, acked.beforeLast);
      s.insights.push(...(byRef.get(lastRef) ?? []));
    }
    joinWithPrevious(s, m, config);
    // As in heuristicReflect: a turn no person wrote is neither a user turn nor the reply.
    if (m === null || typeof m !== 'object' || m.synthetic) continue;
    const gi = globalIndex[w]!;
    const text = contentText(m.content);
    if (!isUser(m)) {
      s.tail.push({ m, gi });
      if (opensSession(m, text)) s.answered = false;
      if (m.role === 'assistant') {
        s.answered = true;
        s.lastAgent = m;
        if (text !== undefined) noteAgentLines(s.said, text);
        for (const id of extractCitedIds([m])) s.pendingCited.add(id);
      }
      continue;
    }
    if (text === undefined) continue;
    const previous = s.lastAgent;
    // A user message with no text (tool results in the user's seat) still ends the reply before it.
    s.lastAgent = undefined;
    if (text.trim() === '' || text.startsWith('[Request interrupted')) {
      // Not a turn for the heuristics: an interruption notice is context of the next one.
      if (text.trim() !== '') s.tail.push({ m, gi });
      continue;
    }
    const ref = refOf(m, w);
    const turn = byRef.get(ref) ?? [];
    recordCitationEvidence(s, turn, text, ref);
    const own = ownWords(s.said, text);
    const context = previous ? { text: own, previous: agentOf(previous) } : { text: own };
    // With a learned scorer, a key point comes only from a turn the markers report too (its insights
    // stay): the turns a scorer adds hold no rule to write (`readWindow`, ./acknowledge.ts).
    if (!reported || reported.has(text))
      for (const insight of turn) {
        for (const p of insightProposals(insight, context, config.policy))
          proposed.push(config.isWord ? spelt(s, p, config.isWord) : p);
      }
    s.recentUsers.push({ m, gi });
    if (s.recentUsers.length > RECENT_USERS) s.recentUsers.shift();
    s.tail = [];
  }
  s.proposed.push(...proposed);
  return { analysed: messages.length - start, insights: found, proposed };
}

/**
 * `p` with its typos repaired (`repairSpelling`, which never throws) against the words of the session
 * so far, counted once each.
 */
function spelt(s: SessionState, p: ProposedKeyPoint, isWord: (word: string) => boolean): ProposedKeyPoint {
  if (!s.words) {
    s.words = new Map();
    s.wordsUpTo = 0;
  }
  for (; s.wordsUpTo < s.history.length; s.wordsUpTo++) {
    const text = contentText(s.history[s.wordsUpTo]!.content);
    if (text) for (const [w, n] of wordCounts([text])) s.words.set(w, (s.words.get(w) ?? 0) + n);
  }
  const r = repairSpelling(p.text, { isWord, counts: s.words });
  return r.repairs.length ? { ...p, text: r.text } : p;
}

function agentOf(m: MessageLike): { content: unknown; toolName?: string } {
  const toolName = (m as { toolName?: unknown }).toolName;
  return typeof toolName === 'string' ? { content: m.content, toolName } : { content: m.content };
}

/**
 * Evidence on the key points the assistant cited since the previous user turn: this turn's verdict
 * (`turnVerdict`: corrected or complained about → harmful, approved → helpful).
 */
function recordCitationEvidence(
  s: SessionState,
  turn: readonly ReflectionInsight[],
  text: string,
  ref: string,
): void {
  if (!s.pendingCited.size) return;
  const verdict = turnVerdict(turn, text);
  if (verdict) {
    for (const name of s.pendingCited) {
      s.tags.push({ name, tag: verdict.tag, rationale: `${verdict.reason} by the user in ${ref}` });
    }
  }
  s.pendingCited.clear();
}

/**
 * Incremental heuristic observation: each `observe` call reads only the messages not seen before, with
 * the previous user turn and the last other message as context, so the result equals
 * `heuristicReflect` of the whole history at a cost proportional to the new messages.
 *
 * @module
 */
import { contentText, defaultRef } from '../core/index.js';
import {
  type HeuristicOptions,
  heuristicReflect,
  type MessageLike,
  type ReflectionInsight,
} from '../heuristic/index.js';
import { type BulletTag, extractCitedIds, type ProposeOptions, proposeKeyPoint } from '../playbook/index.js';
import type { ObserveResult, ProposedKeyPoint } from './types.js';

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
  tags: BulletTag[];
  prevUser: Tracked | undefined;
  /** How many insights `prevUser` alone yields (they are dropped when it is re-read as context). */
  prevUserInsights: number;
  lastOther: Tracked | undefined;
  pendingCited: Set<string>;
}

/**
 * Where the caller's conversation was last seen. It survives `endSession`: a UI that keeps appending
 * to the same array only has its new messages analysed in the next session.
 */
export interface ConversationTracker {
  count: number;
  last: MessageLike | undefined;
  array: readonly MessageLike[] | undefined;
}

/** How observation reads turns: the heuristics' markers and the policy's confidence floor. */
export interface ObserveConfig {
  heuristic: HeuristicOptions;
  policy: ProposeOptions;
}

/** A session with nothing observed yet. */
export function newSessionState(id: string): SessionState {
  return {
    id,
    history: [],
    insights: [],
    proposed: [],
    tags: [],
    prevUser: undefined,
    prevUserInsights: 0,
    lastOther: undefined,
    pendingCited: new Set(),
  };
}

/** A tracker that has seen no conversation yet. */
export function newTracker(): ConversationTracker {
  return { count: 0, last: undefined, array: undefined };
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

/** Index of the first message not seen before (0 for a different conversation); updates the tracker. */
function firstNew(tracker: ConversationTracker, messages: readonly MessageLike[]): number {
  let start = 0;
  if (
    tracker.count > 0 &&
    messages.length >= tracker.count &&
    (messages === tracker.array || sameMessage(messages[tracker.count - 1], tracker.last))
  ) {
    start = tracker.count;
  }
  tracker.array = messages;
  tracker.count = messages.length;
  tracker.last = messages[messages.length - 1];
  return start;
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
  const start = firstNew(tracker, messages);
  if (start >= messages.length) return empty;

  const s = session;
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
  const found = heuristicReflect(window, { ...config.heuristic, ref: refOf }).slice(skip);
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
    // As in heuristicReflect: a turn no person wrote is neither the previous user turn nor the reply.
    if (m === null || typeof m !== 'object' || m.synthetic) continue;
    const gi = globalIndex[w]!;
    const text = contentText(m.content);
    if (!isUser(m)) {
      if (text !== undefined) s.lastOther = { m, gi };
      if (m.role === 'assistant') for (const id of extractCitedIds([m])) s.pendingCited.add(id);
      continue;
    }
    if (text === undefined || text.trim() === '') continue;
    const ref = refOf(m, w);
    const turn = byRef.get(ref) ?? [];
    recordCitationEvidence(s, turn, ref);
    for (const insight of turn) {
      const p = proposeKeyPoint(insight, text, config.policy);
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

/** Evidence on the key points the assistant cited since the previous user turn: this turn's verdict. */
function recordCitationEvidence(s: SessionState, turn: readonly ReflectionInsight[], ref: string): void {
  if (!s.pendingCited.size) return;
  const corrected = turn.some((i) => i.category === 'correction');
  const approved = !corrected && turn.some((i) => i.tags.includes('approval'));
  if (corrected || approved) {
    for (const name of s.pendingCited) {
      s.tags.push({
        name,
        tag: corrected ? 'harmful' : 'helpful',
        rationale: `${corrected ? 'corrected' : 'approved'} by the user in ${ref}`,
      });
    }
  }
  s.pendingCited.clear();
}

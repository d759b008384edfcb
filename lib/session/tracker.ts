/**
 * Where the caller's conversation was last seen, and what a new `observe` call reads of it: the
 * messages after the last one seen, or that last one again when it came back with other text (a
 * streamed message growing, an edited turn), or everything (a different conversation).
 *
 * @module
 */
import { contentText } from '../core/index.js';
import type { MessageLike } from '../heuristic/index.js';

/**
 * Where the caller's conversation was last seen. It survives `endSession`: a UI that keeps appending
 * to the same array only has its new messages analysed in the next session.
 */
export interface ConversationTracker {
  count: number;
  last: MessageLike | undefined;
  /** The last message's role, id and text when it was read: a UI may grow the same object in place. */
  lastRole: unknown;
  lastId: unknown;
  lastText: string | undefined;
  /** The message before it, to tell a replaced last message from a different conversation. */
  beforeLast: MessageLike | undefined;
  array: readonly MessageLike[] | undefined;
}

/** A tracker that has seen no conversation yet. */
export function newTracker(): ConversationTracker {
  return {
    count: 0,
    last: undefined,
    lastRole: undefined,
    lastId: undefined,
    lastText: undefined,
    beforeLast: undefined,
    array: undefined,
  };
}

/** The same message as before: the same object, or the same role, id and text. */
function sameMessage(a: MessageLike | undefined, b: MessageLike | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.role !== b.role || a.id !== b.id) return false;
  return contentText(a.content) === contentText(b.content);
}

function isObject(m: unknown): m is MessageLike {
  return m !== null && typeof m === 'object';
}

/** The last message seen is still there as it was read: same role, id and text. */
function unchanged(tracker: ConversationTracker, m: MessageLike | undefined): boolean {
  if (!isObject(m)) return m === tracker.last;
  return (
    m.role === tracker.lastRole && m.id === tracker.lastId && contentText(m.content) === tracker.lastText
  );
}

/**
 * The last message seen, re-sent with other text: a streamed message growing (same id, or no id and
 * the same role at the same position), or the last turn edited. The message before it must be the same.
 */
function replaced(tracker: ConversationTracker, messages: readonly MessageLike[]): boolean {
  const m = messages[tracker.count - 1];
  if (!isObject(m) || !isObject(tracker.last) || m.role !== tracker.lastRole) return false;
  if (tracker.lastId !== undefined && m.id !== tracker.lastId) return false;
  return (
    tracker.count === 1 ||
    messages === tracker.array ||
    sameMessage(messages[tracker.count - 2], tracker.beforeLast)
  );
}

/**
 * Where to start reading `messages` (0 for a different conversation), and whether the message there
 * replaces the last one read; updates the tracker.
 */
export function firstNew(
  tracker: ConversationTracker,
  messages: readonly MessageLike[],
): { start: number; replace: boolean } {
  let start = 0;
  let replace = false;
  const n = tracker.count;
  if (n > 0 && messages.length >= n) {
    const at = messages[n - 1];
    if ((messages === tracker.array || sameMessage(at, tracker.last)) && unchanged(tracker, at)) start = n;
    else if (replaced(tracker, messages)) {
      start = n - 1;
      replace = true;
    }
  }
  const last = messages[messages.length - 1];
  tracker.array = messages;
  tracker.count = messages.length;
  tracker.last = last;
  tracker.beforeLast = messages[messages.length - 2];
  tracker.lastRole = isObject(last) ? last.role : undefined;
  tracker.lastId = isObject(last) ? last.id : undefined;
  tracker.lastText = isObject(last) ? contentText(last.content) : undefined;
  return { start, replace };
}

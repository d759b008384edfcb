/**
 * What the agent did after a message: whether it acted on it with an edit that worked, and whether any
 * edit worked later in the session. `entriesFromMessages` (adapters.ts) turns both into scopes
 * (`fixed`, `superseded`; scopes.ts).
 */

import { isAppliedEditReport, isFileEditCall, type Message } from '../transcript/index.js';

/** {@link editsAfter}'s answer, one flag per message. */
export interface EditsAfter {
  /**
   * The agent acted on the message with an edit, write or patch that succeeded: an assistant message
   * whose tool calls or outputs right after it (before the next message that is not a call or a
   * result) include one ("The test config is missing `secret_key_base`." then an Edit), and a person's
   * message whose answer, up to their next turn, includes one (they reported a problem, the agent
   * changed the code).
   */
  acted: boolean[];
  /** An edit that succeeded comes anywhere after the message in the session. */
  later: boolean[];
}

/**
 * Which messages are followed by an edit that worked (`isFileEditCall` with a result that is no error
 * or, for a call with an id, no result at all,
 * or aider's own report of an edit it applied, `isAppliedEditReport`): right after them, in answer to
 * them, or anywhere later (see {@link EditsAfter}). One backward pass.
 *
 * @example
 * ```ts
 * const { acted, later } = editsAfter(parseTranscript(text).messages);
 * ```
 */
export function editsAfter(messages: readonly Message[]): EditsAfter {
  const acted: boolean[] = new Array(messages.length).fill(false);
  const later: boolean[] = new Array(messages.length).fill(false);
  // Calls paired with a result that is no error, by id; a call without an id, by the message after it.
  // A call with an id and no result at all is taken as applied: the exports that render edits without
  // a result (SpecStory's Cursor and Copilot ones) show only edits the editor applied.
  const worked = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'tool' || !m.toolUseId) continue;
    answered.add(m.toolUseId);
    if (!m.isError) worked.add(m.toolUseId);
  }
  let edited = false;
  let answeredByEdit = false;
  let any = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    later[i] = any;
    if (m.role === 'tool') {
      // aider applies the reply's edit blocks itself and reports it in its output, with no call.
      if (!m.isError && m.toolName && isAppliedEditReport(m.toolName, m.content))
        edited = answeredByEdit = any = true;
      continue;
    }
    if (m.role === 'assistant' && m.toolName) {
      const next = messages[i + 1];
      const ok = m.toolUseId
        ? worked.has(m.toolUseId) || !answered.has(m.toolUseId)
        : next?.role === 'tool' && !next.isError;
      if (ok && isFileEditCall(m.toolName, m.content)) edited = answeredByEdit = any = true;
      continue;
    }
    if (m.role === 'assistant') acted[i] = edited;
    else if (m.role === 'user') {
      acted[i] = answeredByEdit;
      // What no person wrote (a notification, a tool's output in the user's seat) ends no turn.
      if (m.synthetic === undefined) answeredByEdit = false;
    }
    edited = false;
  }
  return { acted, later };
}

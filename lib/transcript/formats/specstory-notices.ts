/**
 * Tool notices that SpecStory's Cursor exports print as a bare section of the agent's turn, without
 * the tool block they belong to: the output of a call the export does not show. Read as prose, they
 * were the agent's notes ("Cancelled" a snapshot's entry, a failed edit nobody saw fail).
 *
 * - `Cancelled`: the person stopped a call (Cursor's stop button, or a new message sent while it ran).
 *   Newer exports print it just before the call's empty `<tool-use>` block; older ones print it alone.
 *   Its output is `Cancelled`, an error that is no tool failure (`declinedCall` of `rearview/core`) and
 *   an interruption the person's next turn answers.
 * - A failed edit: `The string to replace was not found in the file.`, `Model provided invalid arguments
 *   to find/replace tool.`, `Cannot edit files blocked by globalIgnore`. The call is not shown; it gets
 *   the name of the next edit call of the same turn (the retry, so that failure lessons can pair them),
 *   or `Edit file` (specstory-edits.ts).
 *
 * Counted over `../shared/data`'s SpecStory exports: `Cancelled` 41 lines (12 authors), the three edit
 * failures 50 (9 authors). A line is a notice only where a section starts, and only as the whole line.
 */
import { isFileEditTool } from '../edit-tools.js';
import type { Message } from '../types.js';
import type { ParseState } from './result.js';

/** The notice of a call the person stopped. */
export const CANCELLED = 'Cancelled';

/** Cursor's reports of an edit that was not applied, exactly as exported. */
const FAILED_EDITS: ReadonlySet<string> = new Set([
  'The string to replace was not found in the file.',
  'Model provided invalid arguments to find/replace tool.',
  'Cannot edit files blocked by globalIgnore',
]);

const NOTICES = [CANCELLED, ...FAILED_EDITS];

/**
 * The first letters of the notices, as a table by ASCII code (each notice starts with one; a code
 * past the table reads `undefined`). With the lengths below, derived from the notices too, it rules
 * out almost every line before any string is built: every line of the agent's turns is tested, and
 * a trim of every short line cost about a tenth of the parse. The parser reads the table itself before
 * calling {@link noticeOf}: the call on every line cost another 2 %.
 *
 * @example
 * ```ts
 * NOTICE_LEADS['C'.charCodeAt(0)]; // 1
 * ```
 */
export const NOTICE_LEADS: Uint8Array = leadsOf(NOTICES);
const SHORTEST = Math.min(...NOTICES.map((n) => n.length));
/** Longest notice, with room for the spaces an export may leave after it. */
const LONGEST = Math.max(...NOTICES.map((n) => n.length)) + 8;

function leadsOf(notices: readonly string[]): Uint8Array {
  const leads = new Uint8Array(128);
  for (const n of notices) leads[n.charCodeAt(0)] = 1;
  return leads;
}

/**
 * What a line that starts a section is, when it is a tool notice: `cancelled`, `failed-edit` or
 * undefined. Only the whole line counts, from its first character (exports print notices flush left).
 *
 * @example
 * ```ts
 * noticeOf('Cancelled'); // 'cancelled'
 * noticeOf('The string to replace was not found in the file.'); // 'failed-edit'
 * noticeOf('Cancelled the deploy because the tests failed.'); // undefined
 * ```
 */
export function noticeOf(line: string): 'cancelled' | 'failed-edit' | undefined {
  if (line.length < SHORTEST || line.length > LONGEST || NOTICE_LEADS[line.charCodeAt(0)] !== 1)
    return undefined;
  const text = line.trimEnd();
  if (text === CANCELLED) return 'cancelled';
  return FAILED_EDITS.has(text) ? 'failed-edit' : undefined;
}

/**
 * A call's output that is a notice: `isError`, on the notice's own line. Shared by the hidden calls
 * below and by a `Cancelled` call block whose body is empty (specstory-tools.ts).
 *
 * @example
 * ```ts
 * noticeOutput('m12', 'run_terminal_command_v2', CANCELLED, 11);
 * ```
 */
export function noticeOutput(callId: string, tool: string, notice: string, line: number): Message {
  return {
    id: `${callId}.out`,
    role: 'tool',
    content: notice,
    toolName: tool,
    toolUseId: callId,
    isError: true,
    source: { line },
  };
}

/**
 * Emits a call the export does not show and its notice as the output. The call's content is empty:
 * the export holds none of its input.
 *
 * @example
 * ```ts
 * pushNoticeCall({ line: 12, notice: 'Cancelled', tool: 'tool' }, undefined, state);
 * ```
 */
export function pushNoticeCall(
  at: { line: number; notice: string; tool: string },
  ts: string | undefined,
  state: ParseState,
): Message {
  const id = `m${at.line}`;
  const call: Message = {
    id,
    role: 'assistant',
    content: '',
    toolName: at.tool,
    toolUseId: id,
    source: { line: at.line },
  };
  if (ts !== undefined) call.ts = ts;
  state.messages.push(call, noticeOutput(id, at.tool, at.notice, at.line));
  return call;
}

/** The name of a call whose tool the export does not say. */
export const UNNAMED_TOOL = 'tool';

/**
 * Emits a `Cancelled` whose call the export does not show (no call block right after it, or one that
 * has an output of its own): a call of {@link UNNAMED_TOOL}.
 *
 * @example
 * ```ts
 * pushCancelledCall(14, undefined, state);
 * ```
 */
export function pushCancelledCall(line: number, ts: string | undefined, state: ParseState): void {
  pushNoticeCall({ line, notice: CANCELLED, tool: UNNAMED_TOOL }, ts, state);
}

/**
 * Names each failed edit's hidden call, and its output, after the next edit call of the same agent
 * turn (the retry), once the export is read; a call with none before the person's next turn keeps
 * the name it was given (`Edit file`, specstory-edits.ts). Another hidden call is no retry.
 *
 * @example
 * ```ts
 * nameFailedEdits(state.messages, new Set(failedCalls));
 * ```
 */
export function nameFailedEdits(messages: readonly Message[], failed: ReadonlySet<Message>): void {
  if (failed.size === 0) return;
  // One backward pass (the next edit's name carried back to the person's turn before it): a turn of
  // many failed notices and no retry costs one step each, not a walk to the turn's end each.
  let next: string | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user') next = undefined;
    else if (failed.has(m)) {
      if (next === undefined) continue;
      m.toolName = next;
      messages[i + 1]!.toolName = next;
    } else if (m.role === 'assistant' && m.toolName !== undefined && isFileEditTool(m.toolName))
      next = m.toolName;
  }
}

/**
 * Cline task histories, both files Cline keeps per task:
 *
 * - `ui_messages.json`: `[{ts, type: 'say'|'ask', say|ask, text}]`, what the panel showed. The first
 *   `say: text` (or `say: task`) is the person's task and each `say: user_feedback` a reply; later
 *   `say: text`, `completion_result`, `ask: followup` and `plan_mode_respond` are the agent's words (a
 *   newer Cline writes the last two as `{"question" | "response", "options"}`: the question or the
 *   answer, the options being the panel's buttons);
 *   `tool`, `command` are
 *   tool calls and `command_output` their output; `error` a failed step. API bookkeeping, checkpoints,
 *   reasoning and progress lists are ignored (counted by kind).
 * - `api_conversation_history.json`: the Anthropic messages Cline sent. What a person typed sits in
 *   `<task>`, `<feedback>`, `<answer>` and `<user_message>` tags inside user-role text; the rest of a
 *   user message is harness text: `[tool for 'x'] Result:` blocks become `tool` messages, the
 *   `<environment_details>` Cline appends to every request is ignored, and other injected text
 *   (`[TASK RESUMPTION]`, reminders, `[ERROR] You did not use a tool`) is kept flagged `hook`.
 */

import { type Prepared, tryJson } from '../input.js';
import { ItemError, isRecord, typeName } from '../sink.js';
import type { Message, Role } from '../types.js';
import { convertRoleMessage, type ItemBase } from './convert.js';
import { forEachObject } from './items.js';
import { commit, newItemOut, noteCwd, noteModel, type ParseState } from './result.js';

/** `say` / `ask` kinds that are bookkeeping, not conversation. */
const IGNORED = new Set([
  'api_req_started',
  'api_req_finished',
  'api_req_retried',
  'api_req_failed',
  'api_req_cost',
  'deleted_api_reqs',
  'checkpoint_created',
  'task_progress',
  'reasoning',
  'resume_task',
  'resume_completed_task',
  'error_retry',
  'shell_integration_warning',
  'user_feedback_diff',
  'mcp_server_request_started',
  'browser_action_launch',
  'use_mcp_server',
  'condense',
]);

/** Tags holding text a person typed, in api_conversation_history user messages. */
const HUMAN_TAGS = ['task', 'feedback', 'answer', 'user_message'] as const;

/**
 * True for a Cline `ui_messages.json` item: `{ts, type: 'say'|'ask', say|ask}`.
 *
 * @example
 * ```ts
 * isClineUiMessage({ ts: 1, type: 'say', say: 'text', text: 'hi' }); // true
 * ```
 */
export function isClineUiMessage(obj: Record<string, unknown>): boolean {
  return (
    'ts' in obj &&
    ((obj.type === 'say' && typeof obj.say === 'string') ||
      (obj.type === 'ask' && typeof obj.ask === 'string'))
  );
}

/**
 * Parses either Cline layout into `state`.
 *
 * @example
 * ```ts
 * parseCline({ kind: 'value', value: [{ ts: 1, type: 'say', say: 'text', text: 'fix the bug' }] }, state);
 * ```
 */
export function parseCline(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'value' || !Array.isArray(prepared.value)) {
    throw state.sink.error('Expected a JSON array (ui_messages.json or api_conversation_history.json)');
  }
  const items = prepared.value;
  if (items.length === 0) throw state.sink.error('The array is empty', {}, undefined, 'transcript_empty');
  const first = items.find(isRecord);
  state.meta = { agent: 'cline' };
  if (first && 'role' in first) parseApiHistory(prepared, state);
  else parseUi(prepared, state);
}

/** What opens the folder in the `<environment_details>` Cline appends to its requests. */
const CWD_MARK = '# Current Working Directory (';

/**
 * The folder of Cline's `# Current Working Directory (c:/Users/ana/proj) Files` line, if `text` holds
 * one (the person's request in the API history, the request's JSON in the UI messages).
 */
function workingDirectory(text: string): string | undefined {
  const at = text.indexOf(CWD_MARK);
  if (at < 0) return undefined;
  const from = at + CWD_MARK.length;
  const end = text.indexOf(')', from);
  const folder = end < 0 ? '' : text.slice(from, end);
  return folder.length > 0 && folder.length <= 1024 && !/[\n\r"]/.test(folder) ? folder : undefined;
}

/** Cline's `ts` (epoch milliseconds, a number or a numeric string) as ISO. */
function isoTs(ts: unknown): string | undefined {
  const n = typeof ts === 'number' ? ts : typeof ts === 'string' ? Number(ts) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 8.64e15) return undefined;
  return new Date(n).toISOString();
}

function parseUi(prepared: Prepared, state: ParseState): void {
  let taskSeen = false;
  forEachObject(prepared, state.sink, (obj, at) => {
    if (!isClineUiMessage(obj)) throw new ItemError('Item is not a Cline message ({ts, type: say|ask})');
    const kind = (obj.type === 'say' ? obj.say : obj.ask) as string;
    const text = obj.text === undefined || obj.text === null ? '' : obj.text;
    if (typeof text !== 'string') throw new ItemError(`Message text must be a string, got ${typeName(text)}`);
    if (state.meta?.cwd === undefined) noteCwd(state, workingDirectory(text));
    modelFrom(obj.modelInfo, state);
    const ts = isoTs(obj.ts);
    const id = `m${at.index ?? at.line}`;
    const push = (role: Role, content: string, extra: Partial<Message> = {}): void => {
      const m: Message = { id, role, content, source: at, ...extra };
      if (ts !== undefined) m.ts = ts;
      state.messages.push(m);
    };
    if (IGNORED.has(kind)) {
      state.sink.ignore(kind);
      return;
    }
    if (kind === 'task' || (kind === 'text' && obj.type === 'say' && !taskSeen)) {
      taskSeen = true;
      push('user', text);
    } else if (kind === 'user_feedback') push('user', text);
    else if (
      kind === 'text' ||
      kind === 'completion_result' ||
      kind === 'followup' ||
      kind === 'plan_mode_respond'
    ) {
      const said =
        kind === 'followup'
          ? panelText(text, 'question')
          : kind === 'plan_mode_respond'
            ? panelText(text, 'response')
            : text;
      if (said.trim().length === 0) state.sink.ignore(`${obj.type}:${kind}`);
      else push('assistant', said);
    } else if (
      kind === 'tool' ||
      kind === 'command' ||
      kind === 'browser_action' ||
      kind === 'use_mcp_server'
    ) {
      const name = kind === 'tool' ? toolField(text) : kind === 'command' ? 'execute_command' : kind;
      push('assistant', text, { toolName: name, toolUseId: id });
    } else if (
      kind === 'command_output' ||
      kind === 'browser_action_result' ||
      kind === 'mcp_server_response'
    ) {
      const call = lastCall(state.messages);
      push('tool', text, call ? { toolName: call.toolName!, toolUseId: call.toolUseId! } : {});
    } else if (kind === 'error' || kind === 'mistake_limit_reached' || kind === 'diff_error') {
      push('tool', text, { toolName: 'cline', isError: true });
    } else state.sink.ignore(`${obj.type}:${kind}`);
  });
}

/** The `tool` field of a `say: tool` payload (`{"tool":"editedExistingFile",…}`), else `tool`. */
function toolField(text: string): string {
  const at = text.indexOf('"tool":"');
  if (at < 0 || at > 64) return 'tool';
  const start = at + 8;
  const end = text.indexOf('"', start);
  return end > start && end - start < 80 ? text.slice(start, end) : 'tool';
}

function lastCall(messages: Message[]): Message | undefined {
  for (let i = messages.length - 1; i >= 0 && i >= messages.length - 8; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant' && m.toolName !== undefined) return m;
    if (m.role === 'user') return undefined;
  }
  return undefined;
}

/** `modelInfo: {modelId}` (an object, or a string the export stringified) → `meta.models`. */
function modelFrom(info: unknown, state: ParseState): void {
  if (isRecord(info) && typeof info.modelId === 'string') noteModel(state, info.modelId);
  else if (typeof info === 'string') {
    const at = info.indexOf('modelId');
    if (at < 0 || at > 200) return;
    const quote = info.indexOf("'", at + 9) >= 0 ? "'" : '"';
    const start = info.indexOf(quote, at + 8) + 1;
    const end = start > 0 ? info.indexOf(quote, start) : -1;
    if (end > start && end - start < 120) noteModel(state, info.slice(start, end));
  }
}

function parseApiHistory(prepared: Prepared, state: ParseState): void {
  /** The latest assistant item's calls that no `[name] Result:` has answered yet, in order. */
  let calls: Message[] = [];
  forEachObject(prepared, state.sink, (obj, at) => {
    const out = newItemOut();
    const ts = isoTs(obj.ts);
    const id = `m${at.index ?? at.line}`;
    const base: ItemBase = { id, source: at, ...(ts ? { ts } : {}) };
    modelFrom(obj.modelInfo, state);
    if (obj.role !== 'user' || !Array.isArray(obj.content)) {
      convertRoleMessage(obj, base, state.tools, out);
      if (obj.role === 'assistant') calls = out.messages.filter((m) => m.toolName && m.toolUseId);
      commit(state, out);
      return;
    }
    const texts: Message[] = [];
    /** The tool whose `[name] Result:` header came last: later plain blocks are its output. */
    const result: ResultHeader = { calls };
    let k = 0;
    for (const block of obj.content) {
      if (!isRecord(block)) throw new ItemError(`Content block must be an object, got ${typeName(block)}`);
      if (block.type !== 'text') {
        // Images, and tool_result blocks of newer Cline versions: the shared converter.
        convertRoleMessage(
          { role: 'user', content: [block] },
          { ...base, id: `${id}.b${k++}` },
          state.tools,
          out,
        );
        continue;
      }
      if (typeof block.text !== 'string') throw new ItemError('Text block has no text');
      if (state.meta?.cwd === undefined) noteCwd(state, workingDirectory(block.text));
      splitUserText(block.text, { ...base, id: `${id}.${k++}` }, texts, out.ignored, result);
    }
    for (const m of texts) out.messages.push(m);
    commit(state, out);
  });
}

/**
 * One user-role text block of the API history → the person's text (inside the human tags) and the
 * harness text around it (tool results, injected instructions), each its own message.
 */
function splitUserText(
  text: string,
  base: ItemBase,
  out: Message[],
  ignored: string[],
  result: ResultHeader,
): void {
  const lead = text.trimStart();
  if (lead.startsWith('<environment_details>')) {
    ignored.push('environment');
    return;
  }
  const human: string[] = [];
  for (const tag of HUMAN_TAGS) collectTag(text, tag, human);
  const make = (role: Role, content: string, suffix: string, extra: Partial<Message> = {}): Message => {
    const m: Message = { id: `${base.id}${suffix}`, role, content, source: base.source, ...extra };
    if (base.ts !== undefined) m.ts = base.ts;
    return m;
  };
  const name = toolResultName(lead);
  if (name !== undefined) answer(result, name, lead);
  // The status may open the block after a bare header (older Cline versions split them).
  else if (result.name !== undefined && lead.startsWith(FAILED)) result.failed = true;
  // A tool result may carry the person's reply (`<feedback>`, `<answer>`): both are kept.
  if (name !== undefined || (human.length === 0 && result.name !== undefined && !isInjected(lead))) {
    // With no header, the body of the result whose header came in the block before.
    out.push(make('tool', text, '.r', resultFields(result)));
  }
  // Injected text no person typed: resumption notices, reminders, "[ERROR] You did not use a tool".
  else if (human.length === 0) out.push(make('user', text, '.h', { synthetic: 'hook' }));
  for (let i = 0; i < human.length; i++) out.push(make('user', human[i]!, `.u${i}`));
}

/** The result being read in a user item, and the calls of the assistant item before it not yet answered. */
interface ResultHeader {
  name?: string;
  /** The call it answers, when the assistant item before made one of that name. */
  id?: string;
  /** The person declined the call ("The user denied this operation."). */
  declined?: boolean;
  /** The command ran and exited with a non-zero code ("Command failed with exit code 1."). */
  failed?: boolean;
  calls: Message[];
}

/**
 * Pairs a `[name] Result:` header with the first call of that name the assistant made before it and
 * no result answered: Cline writes the results in the order of the calls, with no id.
 */
function answer(result: ResultHeader, name: string, lead: string): void {
  result.name = name;
  const at = result.calls.findIndex((c) => c.toolName === name);
  result.id = at < 0 ? undefined : result.calls.splice(at, 1)[0]!.toolUseId;
  const body = lead.indexOf('\n');
  result.declined = body >= 0 && lead.startsWith(DENIED, body + 1);
  result.failed = body >= 0 && lead.startsWith(FAILED, body + 1);
}

/** Cline's answer when the person rejects a call, as the first line of the result. */
const DENIED = 'The user denied this operation.';
/** Cline's first result line for a command that exited non-zero (`… exit code 1.`; zero reads "executed successfully"). */
const FAILED = 'Command failed with exit code ';

/** The fields of a result message: its tool, the call it answers, and whether it failed (declined, or a non-zero exit). */
function resultFields(result: ResultHeader): Partial<Message> {
  const fields: Partial<Message> = { toolName: result.name! };
  if (result.id !== undefined) fields.toolUseId = result.id;
  if (result.declined || result.failed) fields.isError = true;
  return fields;
}

/** Cline's own notices and reminders, which follow a tool result without belonging to it. */
function isInjected(lead: string): boolean {
  return (
    lead.startsWith('[') ||
    lead.startsWith('#') ||
    lead.startsWith('The user ') ||
    lead.startsWith('(The user') ||
    lead.startsWith('New instructions') ||
    lead.startsWith('Files attached')
  );
}

/** `[execute_command for 'ls'] Result:` / `[attempt_completion] Result:` → the tool name. */
function toolResultName(lead: string): string | undefined {
  if (lead.charCodeAt(0) !== 0x5b /* [ */) return undefined;
  // The command inside may hold brackets: look for the whole `] Result:`.
  const close = lead.indexOf('] Result:');
  if (close < 0) return undefined;
  const inner = lead.slice(1, close);
  const space = inner.indexOf(' for ');
  return space < 0 ? inner : inner.slice(0, space);
}

/** Appends the trimmed text of every `<tag>…</tag>` in `text` (in order, `indexOf` only). */
function collectTag(text: string, tag: string, into: string[]): void {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) return;
    const end = text.indexOf(close, start + open.length);
    if (end < 0) return;
    const inner = text.slice(start + open.length, end).trim();
    if (inner.length > 0) into.push(inner);
    from = end + close.length;
  }
}

/**
 * What a followup asks or a plan-mode answer says: newer Cline versions write `{"question": "…",
 * "options": […]}` and `{"response": "…", "options": […]}` (the options are the buttons the panel
 * offers, not the agent's words); older ones the text itself.
 */
function panelText(text: string, field: 'question' | 'response'): string {
  if (!text.trimStart().startsWith('{')) return text;
  const parsed = tryJson(text);
  if (!parsed.ok || !isRecord(parsed.value)) return text;
  const said = parsed.value[field];
  return typeof said === 'string' ? said : text;
}

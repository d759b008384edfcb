/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/**.jsonl`). Recent rollouts wrap every item as
 * `{timestamp, type, payload}` (`session_meta`, `turn_context`, `response_item`, `event_msg`); older
 * ones open with a `{id, timestamp, instructions, git}` header and write the response items bare,
 * between `{record_type: 'state'}` lines.
 *
 * Messages come from the `response_item`s only. Codex writes every user prompt twice — as a
 * `response_item` message (what the model received) and as an `event_msg` `user_message` (what the
 * terminal shows) — and every reply twice (`message` and `agent_message`). The response items are
 * the one source present in every rollout version (the bare-item ones have no events at all), and
 * they keep prompts, replies and tool calls in the order the model saw them; the events are counted
 * as ignored. The one event kept is `turn_aborted`: the person stopping a turn, written as the
 * `[Request interrupted by user]` marker Claude Code uses, so readers treat both alike.
 */
import type { Prepared } from '../input.js';
import { ItemError, isRecord, typeName } from '../sink.js';
import type { SourceRef } from '../types.js';
import { timestamp } from './chat.js';
import { convertRoleMessage, type ItemBase, type ItemOut, message, safeStringify } from './convert.js';
import { forEachObject } from './items.js';
import { commit, newItemOut, noteCwd, type ParseState } from './result.js';

/** Top-level rollout line types of the wrapped layout. */
const WRAPPED = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** Bare response-item types of the older layout (message lines also carry a role). */
const BARE_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'web_search_call',
]);

/** What the interruption marker says: the words Claude Code writes, which the heuristics read. */
const INTERRUPTED_MARKER = '[Request interrupted by user]';

/**
 * True for a line of a Codex rollout: a `{timestamp, type, payload}` wrapper of a known type, the
 * older layout's `{id, timestamp, instructions|git}` header or `{record_type}` line, or a bare
 * response item whose type only Codex writes (`function_call`, `reasoning`, `custom_tool_call`…).
 *
 * @example
 * ```ts
 * isCodexLine({ timestamp: '2025-11-06T06:44:45Z', type: 'session_meta', payload: { id: 's1' } }); // true
 * isCodexLine({ type: 'user', message: { role: 'user', content: 'hi' } }); // false
 * ```
 */
export function isCodexLine(obj: Record<string, unknown>): boolean {
  const type = obj.type;
  if (typeof type === 'string') {
    if (isRecord(obj.payload)) return WRAPPED.has(type);
    return type !== 'message' && BARE_ITEMS.has(type) && !('role' in obj);
  }
  if (typeof obj.record_type === 'string') return true;
  return (
    typeof obj.id === 'string' && typeof obj.timestamp === 'string' && ('instructions' in obj || 'git' in obj)
  );
}

/**
 * Parses a Codex rollout into `state`: user, assistant and developer (→ `system`) messages, one
 * assistant message per tool call (`toolName`, `toolUseId` = `call_id`, the arguments or input as
 * content) and one `tool` message per output, paired by `call_id` (`isError` on a non-zero exit code
 * or a failure report). Injected context (`<environment_context>`, `<user_instructions>`, AGENTS.md)
 * is flagged `synthetic`.
 *
 * @example
 * ```ts
 * parseCodex({ kind: 'text', text: rollout }, state);
 * ```
 */
export function parseCodex(prepared: Prepared, state: ParseState): void {
  state.exitCodes ??= new Map();
  forEachObject(prepared, state.sink, (obj, at) => {
    const out = newItemOut();
    codexLine(obj, at, state, out);
    commit(state, out);
  });
}

function codexLine(obj: Record<string, unknown>, at: SourceRef, state: ParseState, out: ItemOut): void {
  const type = obj.type;
  if (typeof type !== 'string') {
    if (typeof obj.record_type === 'string') out.ignored.push('state');
    else if (typeof obj.id === 'string') out.ignored.push('session_meta');
    else throw new ItemError('Rollout line has no "type"');
    return;
  }
  const wrapped = WRAPPED.has(type);
  if (wrapped && !isRecord(obj.payload))
    throw new ItemError(`The ${type} line's payload must be an object, got ${typeName(obj.payload)}`);
  const item = wrapped ? (obj.payload as Record<string, unknown>) : obj;
  const base: ItemBase = { id: `m${at.line ?? at.index ?? 0}`, source: at, ...timestamp(obj) };
  if (type === 'session_meta' || type === 'turn_context') noteCwd(state, item.cwd);
  if (wrapped && type !== 'response_item') {
    if (type === 'event_msg' && item.type === 'turn_aborted') {
      out.messages.push(message(base, 'user', INTERRUPTED_MARKER));
    } else {
      out.ignored.push(type === 'event_msg' && typeof item.type === 'string' ? item.type : type);
    }
    return;
  }
  responseItem(item, base, state, out);
}

function responseItem(item: Record<string, unknown>, base: ItemBase, state: ParseState, out: ItemOut): void {
  const type = item.type;
  if (typeof type !== 'string') throw new ItemError('Response item has no "type"');
  if (type === 'message') {
    // Codex writes `developer` messages (permissions, collaboration mode): they read as system.
    convertRoleMessage(item.role === 'user' ? withoutIdeContext(item, out) : item, base, state.tools, out);
    return;
  }
  if (type === 'reasoning') {
    out.ignored.push('reasoning');
    return;
  }
  if (type.endsWith('_call_output')) {
    toolOutput(item, base, state, out);
    return;
  }
  if (type.endsWith('_call')) {
    toolCall(item, type, base, state, out);
    return;
  }
  out.ignored.push(type);
}

const IDE_CONTEXT = '# Context from my IDE setup:';
const IDE_REQUEST = '\n## My request for Codex:\n';

/**
 * The IDE extension sends a prompt as `# Context from my IDE setup:` (open tabs, the active file,
 * selections) then `## My request for Codex:` and what the person typed: only the request is theirs.
 */
function withoutIdeContext(item: Record<string, unknown>, out: ItemOut): Record<string, unknown> {
  const content = item.content;
  if (!Array.isArray(content) || content.length === 0) return item;
  const first: unknown = content[0];
  if (!isRecord(first) || typeof first.text !== 'string' || !first.text.startsWith(IDE_CONTEXT)) return item;
  const at = first.text.indexOf(IDE_REQUEST);
  if (at < 0) return item;
  out.ignored.push('ide-context');
  const blocks = content.slice();
  blocks[0] = { ...first, text: first.text.slice(at + IDE_REQUEST.length) };
  return { ...item, content: blocks };
}

function toolCall(
  item: Record<string, unknown>,
  type: string,
  base: ItemBase,
  state: ParseState,
  out: ItemOut,
): void {
  const name = typeof item.name === 'string' ? item.name : type.slice(0, -'_call'.length);
  const input = item.arguments ?? item.input ?? item.action ?? {};
  const m = message(base, 'assistant', typeof input === 'string' ? input : safeStringify(input));
  m.toolName = name;
  if (item.call_id !== undefined && item.call_id !== null) {
    if (typeof item.call_id !== 'string')
      throw new ItemError(`The ${type} call_id must be a string, got ${typeName(item.call_id)}`);
    m.toolUseId = item.call_id;
    state.tools.set(item.call_id, name);
  }
  out.messages.push(m);
}

function toolOutput(item: Record<string, unknown>, base: ItemBase, state: ParseState, out: ItemOut): void {
  const id = item.call_id;
  if (typeof id !== 'string') throw new ItemError(`The ${String(item.type)} has no call_id string`);
  const read = readOutput(item.output);
  const m = message(base, 'tool', read.text);
  m.toolUseId = id;
  const name = state.tools.get(id);
  if (name !== undefined) m.toolName = name;
  if (read.failed) m.isError = true;
  if (read.exitCode !== undefined) state.exitCodes?.set(m, read.exitCode);
  out.messages.push(m);
}

/** Openings of an output that report a failed call (sandbox refusals, a patch that did not apply…). */
const FAILURE_OPENINGS = [
  'failed in sandbox',
  'exec_command failed',
  'apply_patch verification failed',
  'error:',
  'Error:',
];

/** How far into a text output the `Process exited with code N` / `Exit code: N` header is looked for. */
const HEADER_WINDOW = 300;

/**
 * Reads a tool output: the `{output, metadata: {exit_code}}` JSON of shell calls, the text header
 * of newer unified exec (`Process exited with code N`, `Exit code: N`), or plain text; failed when
 * the exit code is not 0 or the text opens with a failure report.
 */
function readOutput(output: unknown): { text: string; failed: boolean; exitCode?: number } {
  if (isRecord(output))
    return readOutput(typeof output.content === 'string' ? output.content : safeStringify(output));
  if (typeof output !== 'string') {
    if (output === undefined || output === null) return { text: '', failed: false };
    return { text: safeStringify(output), failed: false };
  }
  if (output.charCodeAt(0) === 0x7b /* { */ && output.includes('"metadata"')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isRecord(parsed) && typeof parsed.output === 'string' && isRecord(parsed.metadata)) {
        const code = parsed.metadata.exit_code;
        if (typeof code === 'number') return { text: parsed.output, failed: code !== 0, exitCode: code };
        return { text: parsed.output, failed: false };
      }
    } catch {
      // Not the shell wrapper: the text as written.
    }
  }
  const code = headerExitCode(output);
  if (code !== undefined) return { text: output, failed: code !== 0, exitCode: code };
  for (const opening of FAILURE_OPENINGS)
    if (output.startsWith(opening)) return { text: output, failed: true };
  return { text: output, failed: false };
}

function headerExitCode(text: string): number | undefined {
  const head = text.length > HEADER_WINDOW ? text.slice(0, HEADER_WINDOW) : text;
  for (const key of ['Process exited with code ', 'Exit code: ']) {
    const at = head.indexOf(key);
    if (at < 0 || (at > 0 && head.charCodeAt(at - 1) !== 0x0a)) continue;
    let i = at + key.length;
    let n = 0;
    let digits = 0;
    let sign = 1;
    if (head.charCodeAt(i) === 0x2d) {
      sign = -1;
      i++;
    }
    while (i < head.length && digits < 6) {
      const c = head.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      n = n * 10 + (c - 0x30);
      digits++;
      i++;
    }
    if (digits > 0) return sign * n;
  }
  return undefined;
}

/**
 * The session id of a rollout: `session_meta.payload.id`, or the older header's `id`.
 *
 * @example
 * ```ts
 * codexSessionId({ type: 'session_meta', payload: { id: 's1' } }); // 's1'
 * ```
 */
export function codexSessionId(obj: Record<string, unknown>): string | undefined {
  if (obj.type === 'session_meta' && isRecord(obj.payload) && typeof obj.payload.id === 'string')
    return obj.payload.id;
  if (obj.type === undefined && typeof obj.id === 'string' && typeof obj.timestamp === 'string')
    return obj.id;
  return undefined;
}

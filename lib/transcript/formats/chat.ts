/**
 * Anthropic Messages and OpenAI chat arrays, bare or wrapped in `{messages}` / `{system, messages}`
 * (and SWE-agent's `{history}`). Both share one converter: a message may carry Anthropic content
 * blocks or OpenAI `tool_calls`, so mixed logs read correctly whichever name they were given.
 */

import type { Prepared } from '../input.js';
import { isRecord, typeName } from '../sink.js';
import { convertRoleMessage, type ItemBase, message } from './convert.js';
import { forEachObject } from './items.js';
import { commit, newItemOut, noteCwd, type ParseState } from './result.js';

/**
 * Parses a chat-message array or wrapper into `state`.
 *
 * @example
 * ```ts
 * parseChat({ kind: 'value', value: [{ role: 'user', content: 'hi' }] }, state);
 * ```
 */
export function parseChat(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'value') throw state.sink.error('Expected a JSON array of messages', { line: 1 });
  let items = prepared.value;
  const agent = isAgentRun(items);
  let answered = false;
  if (isRecord(items)) {
    const wrapped = Array.isArray(items.messages)
      ? items.messages
      : Array.isArray(items.history)
        ? items.history
        : undefined;
    if (!wrapped)
      throw state.sink.error('Expected an array of messages or an object with a "messages" array');
    // A converted session's facts (`{messages, meta: {cwd}}`, or its `session_meta`): the folder it ran in.
    const meta = items.meta;
    if (isRecord(meta)) noteCwd(state, isRecord(meta.session_meta) ? meta.session_meta.cwd : meta.cwd);
    const system = items.system;
    if (system !== undefined && system !== null) pushSystem(system, state);
    items = wrapped;
  }
  if (!Array.isArray(items)) throw state.sink.error(`Expected an array of messages, got ${typeName(items)}`);
  if (items.length === 0)
    throw state.sink.error('The messages array is empty', {}, undefined, 'transcript_empty');
  forEachObject({ kind: 'value', value: items }, state.sink, (obj, at) => {
    const out = newItemOut();
    const base: ItemBase = { id: `m${at.index}`, source: at, ...timestamp(obj) };
    // In an agent run no person types: the harness sends the task, then every tool output, as user.
    if (agent) base.synthetic = answered ? 'observation' : 'task';
    convertRoleMessage(obj, base, state.tools, out);
    if (obj.role === 'assistant') answered = true;
    commit(state, out);
  });
}

/**
 * True for a SWE-agent or mini-swe-agent run read as a transcript: a `history` wrapper (SWE-agent),
 * or a `messages` wrapper with a `trajectory` array, a `trajectory_format`, or an `info` holding an
 * `exit_status` or a `mini_version`.
 *
 * @example
 * ```ts
 * isAgentRun({ messages: [], trajectory_format: 'mini-swe-agent-1' }); // true
 * isAgentRun({ messages: [] }); // false
 * ```
 */
export function isAgentRun(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.trajectory) || typeof value.trajectory_format === 'string') return true;
  if (!Array.isArray(value.messages)) return Array.isArray(value.history);
  const info = value.info;
  return isRecord(info) && ('exit_status' in info || 'mini_version' in info);
}

function pushSystem(system: unknown, state: ParseState): void {
  const out = newItemOut();
  if (typeof system === 'string') {
    out.messages.push(message({ id: 'system', source: {} }, 'system', system));
  } else {
    // Anthropic's system may be an array of text blocks.
    try {
      convertRoleMessage({ role: 'system', content: system }, { id: 'system', source: {} }, state.tools, out);
    } catch (err) {
      state.sink.invalid(
        `The system prompt is invalid: ${err instanceof Error ? err.message : String(err)}`,
        {},
      );
      return;
    }
  }
  commit(state, out);
}

/**
 * The item's timestamp (`timestamp`, `ts`, `created_at` or `_metadata.timestamp` as a string), as a
 * spreadable object.
 *
 * @example
 * ```ts
 * timestamp({ timestamp: '2025-01-01T00:00:00Z' }); // { ts: '2025-01-01T00:00:00Z' }
 * ```
 */
export function timestamp(obj: Record<string, unknown>): { ts?: string } {
  // Session converters put it in `_metadata.timestamp`.
  const meta = obj._metadata;
  const ts = obj.timestamp ?? obj.ts ?? obj.created_at ?? (isRecord(meta) ? meta.timestamp : undefined);
  return typeof ts === 'string' ? { ts } : {};
}

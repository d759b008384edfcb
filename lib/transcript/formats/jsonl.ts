/**
 * Line formats: Claude Code session JSONL and generic JSONL whose lines are chat messages
 * (`{role, content}` in Anthropic or OpenAI style, or ShareGPT `{from, value}`).
 */

import type { Prepared } from '../input.js';
import { ItemError, isRecord } from '../sink.js';
import type { SourceRef } from '../types.js';
import { timestamp } from './chat.js';
import { convertRoleMessage, type ItemBase } from './convert.js';
import { forEachObject } from './items.js';
import { commit, newItemOut, noteCwd, type ParseState } from './result.js';
import { convertShareGptTurn } from './sharegpt.js';

/**
 * Parses generic JSONL (or an array / single object of the same shapes) into `state`.
 *
 * @example
 * ```ts
 * parseJsonl({ kind: 'text', text: '{"role":"user","content":"hi"}\n{"from":"gpt","value":"hello"}' }, state);
 * ```
 */
export function parseJsonl(prepared: Prepared, state: ParseState): void {
  forEachObject(prepared, state.sink, (obj, at) => {
    const out = newItemOut();
    const id = itemId(at);
    if (!('role' in obj) && 'from' in obj) convertShareGptTurn(obj, id, at, out);
    else convertRoleMessage(obj, { id, source: at, ...timestamp(obj) }, state.tools, out);
    commit(state, out);
  });
}

/**
 * Parses a Claude Code session: user and assistant events become messages (one per text run, tool
 * call and tool result); sidechain events and every other event type are counted in `ignoredKinds`.
 *
 * @example
 * ```ts
 * parseClaudeCode({ kind: 'text', text: jsonl }, state);
 * ```
 */
export function parseClaudeCode(prepared: Prepared, state: ParseState): void {
  forEachObject(prepared, state.sink, (obj, at) => {
    const out = newItemOut();
    if (!claudeMessage(obj, at, state, out)) return;
    commit(state, out);
  });
}

/**
 * Converts one Claude Code event into `out`; returns false when the event is ignored by design.
 *
 * @example
 * ```ts
 * claudeMessage(event, { line: 3 }, state, out);
 * ```
 */
export function claudeMessage(
  obj: Record<string, unknown>,
  at: SourceRef,
  state: ParseState,
  out: ReturnType<typeof newItemOut>,
): boolean {
  const type = obj.type;
  if (typeof type !== 'string') throw new ItemError('Event has no "type"');
  // Every event records the folder Claude Code runs in; the first one names the session's.
  if (state.meta?.cwd === undefined) noteCwd(state, obj.cwd);
  const queued = type === 'attachment' ? queuedPrompt(obj.attachment) : undefined;
  if (queued !== undefined && !(obj.isSidechain === true && !state.includeSidechains)) {
    // A prompt the person typed while the agent was busy: Claude Code logs it only as an attachment.
    const id = typeof obj.uuid === 'string' ? obj.uuid : itemId(at);
    convertRoleMessage(
      { role: 'user', content: queued },
      { id, source: at, ...timestamp(obj) },
      state.tools,
      out,
    );
    return true;
  }
  if (type !== 'user' && type !== 'assistant') {
    state.sink.ignore(type);
    return false;
  }
  if (obj.isSidechain === true && !state.includeSidechains) {
    state.sink.ignore('sidechain');
    return false;
  }
  const msg = obj.message;
  if (!isRecord(msg)) throw new ItemError(`The ${type} event has no "message" object`);
  const id = typeof obj.uuid === 'string' ? obj.uuid : itemId(at);
  const base: ItemBase = { id, source: at, ...timestamp(obj) };
  // Claude Code writes these in the user's seat itself: the summary that continues a compacted
  // session, and meta events (skill bodies, local-command caveats).
  if (obj.isCompactSummary === true) base.synthetic = 'summary';
  else if (obj.isMeta === true) base.synthetic = 'meta';
  convertRoleMessage(msg.role === undefined ? { ...msg, role: type } : msg, base, state.tools, out);
  return true;
}

/** The prompt of a `queued_command` attachment typed as a prompt (not a `!` shell command), else undefined. */
function queuedPrompt(attachment: unknown): unknown {
  if (!isRecord(attachment) || attachment.type !== 'queued_command') return undefined;
  if (attachment.commandMode !== undefined && attachment.commandMode !== 'prompt') return undefined;
  const prompt = attachment.prompt;
  return typeof prompt === 'string' || Array.isArray(prompt) ? prompt : undefined;
}

function itemId(at: SourceRef): string {
  return at.line !== undefined ? `m${at.line}` : `m${at.index ?? 0}`;
}

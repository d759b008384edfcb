/**
 * Gemini CLI session files (`~/.gemini/tmp/<project>/chats/session-*.json`): `{sessionId, startTime,
 * messages: [{id, timestamp, type: 'user'|'gemini'|'info'|'error'|'warning', content, toolCalls?,
 * thoughts?, model?}]}`. `user` → user; `gemini` text → assistant (thoughts ignored, counted), each
 * `toolCalls[]` entry → an assistant call (`toolName`, args as JSON) and a `tool` result (the
 * `functionResponse` output or error, `isError` when `status` is `error`); `info`/`warning` →
 * system; `error` → a failed `tool` message named `gemini-cli`.
 */
import type { Prepared } from '../input.js';
import { ItemError, isRecord, typeName } from '../sink.js';
import type { Message, Role } from '../types.js';
import { safeStringify } from './convert.js';
import { forEachObject } from './items.js';
import { noteModel, type ParseState } from './result.js';
import { consoleTurnKind } from './synthetic.js';

const TYPES = new Set(['user', 'gemini', 'model', 'info', 'error', 'warning']);

/**
 * True for a Gemini CLI session: an object with `sessionId` and a `messages` array whose items have a
 * `type` of `user` or `gemini` (no `role`).
 *
 * @example
 * ```ts
 * isGeminiSession({ sessionId: 's', messages: [{ type: 'user', content: 'hi' }] }); // true
 * ```
 */
export function isGeminiSession(value: Record<string, unknown>): boolean {
  if (!Array.isArray(value.messages)) return false;
  const first = value.messages.find(isRecord);
  return (
    first !== undefined &&
    !('role' in first) &&
    typeof first.type === 'string' &&
    TYPES.has(first.type) &&
    ('sessionId' in value || 'content' in first)
  );
}

/**
 * Parses a Gemini CLI session into `state`.
 *
 * @example
 * ```ts
 * parseGeminiSession({ kind: 'value', value: { sessionId: 's', messages: [{ type: 'user', content: 'hi' }] } }, state);
 * ```
 */
export function parseGeminiSession(prepared: Prepared, state: ParseState): void {
  const value = prepared.kind === 'value' ? prepared.value : undefined;
  if (!isRecord(value) || !Array.isArray(value.messages)) {
    throw state.sink.error('Expected a Gemini CLI session object with a "messages" array');
  }
  state.meta = { agent: 'gemini-cli' };
  if (typeof value.sessionId === 'string') state.meta.sessionId = value.sessionId;
  if (value.messages.length === 0)
    throw state.sink.error('The messages array is empty', {}, undefined, 'transcript_empty');
  forEachObject({ kind: 'value', value: value.messages }, state.sink, (obj, at) => {
    const type = obj.type;
    if (typeof type !== 'string') throw new ItemError(`Message type must be a string, got ${typeName(type)}`);
    if (!TYPES.has(type)) {
      state.sink.ignore(type.slice(0, 40));
      return;
    }
    const id = typeof obj.id === 'string' ? obj.id : `m${at.index}`;
    const ts = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
    if (typeof obj.model === 'string') noteModel(state, obj.model);
    const text = partsText(obj.content);
    if (text === undefined) {
      throw new ItemError(
        `Message content must be a string or an array of parts, got ${typeName(obj.content)}`,
      );
    }
    const out: Message[] = [];
    const push = (role: Role, content: string, extra: Partial<Message> = {}): void => {
      const m: Message = { id, role, content, source: at, ...extra };
      if (ts !== undefined) m.ts = ts;
      out.push(m);
    };
    if (type === 'user') {
      const kind = consoleTurnKind(text);
      push('user', text, kind ? { synthetic: kind } : {});
    } else if (type === 'info' || type === 'warning') push('system', text);
    else if (type === 'error') push('tool', text, { toolName: 'gemini-cli', isError: true });
    else {
      if (Array.isArray(obj.thoughts) && obj.thoughts.length > 0) state.sink.ignore('thinking');
      if (text.length > 0) push('assistant', text);
      const calls = obj.toolCalls;
      if (calls !== undefined && calls !== null) {
        if (!Array.isArray(calls)) throw new ItemError(`toolCalls must be an array, got ${typeName(calls)}`);
        for (let k = 0; k < calls.length; k++) pushCall(calls[k], `${id}.t${k}`, push);
      }
    }
    // Ids: one message keeps the item id; several get `.0`, `.1`…
    if (out.length > 1) for (let k = 0; k < out.length; k++) out[k]!.id = `${id}.${k}`;
    for (const m of out) state.messages.push(m);
  });
}

function pushCall(
  call: unknown,
  fallbackId: string,
  push: (role: Role, content: string, extra?: Partial<Message>) => void,
): void {
  if (!isRecord(call) || typeof call.name !== 'string') {
    throw new ItemError('A tool call has no name');
  }
  const callId = typeof call.id === 'string' ? call.id : fallbackId;
  push('assistant', safeStringify(call.args ?? {}), { toolName: call.name, toolUseId: callId });
  const { output, error } = resultText(call.result, call.resultDisplay);
  const failed = call.status === 'error' || call.status === 'cancelled' || error;
  if (output === undefined && !failed) return;
  const extra: Partial<Message> = { toolName: call.name, toolUseId: callId };
  if (failed) extra.isError = true;
  push('tool', output ?? String(call.status), extra);
}

/** The text of `result: [{functionResponse: {response: {output | error}}}]`, else `resultDisplay`. */
function resultText(result: unknown, display: unknown): { output?: string; error: boolean } {
  const parts: string[] = [];
  let error = false;
  if (Array.isArray(result)) {
    for (const r of result) {
      const response = isRecord(r) && isRecord(r.functionResponse) ? r.functionResponse.response : undefined;
      if (!isRecord(response)) continue;
      if (response.error !== undefined) {
        error = true;
        parts.push(typeof response.error === 'string' ? response.error : safeStringify(response.error));
      } else if (response.output !== undefined) {
        parts.push(typeof response.output === 'string' ? response.output : safeStringify(response.output));
      }
    }
  }
  if (parts.length > 0) return { output: parts.join('\n'), error };
  if (typeof display === 'string' && display.length > 0) return { output: display, error };
  return { error };
}

/** `content` as a string, or the `text` of an array of parts (`[{text}]`). */
function partsText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (isRecord(part) && typeof part.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
}

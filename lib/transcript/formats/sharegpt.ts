/**
 * ShareGPT: `{conversations: [{from, value}]}`, a bare `[{from, value}]` list, or an array holding
 * exactly one conversation object. An array of several conversations is a data set, not a
 * transcript: it is rejected with a message saying to parse each conversation on its own.
 */

import type { Prepared } from '../input.js';
import { ItemError, isRecord, typeName } from '../sink.js';
import type { Role, SourceRef } from '../types.js';
import { type ItemOut, message, safeStringify } from './convert.js';
import { forEachObject } from './items.js';
import { commit, newItemOut, type ParseState } from './result.js';
import { syntheticKind } from './synthetic.js';

const SPEAKERS: ReadonlyMap<string, Role> = new Map<string, Role>([
  ['human', 'user'],
  ['user', 'user'],
  ['gpt', 'assistant'],
  ['chatgpt', 'assistant'],
  ['assistant', 'assistant'],
  ['bard', 'assistant'],
  ['bing', 'assistant'],
  ['claude', 'assistant'],
  ['model', 'assistant'],
  ['ai', 'assistant'],
  ['bot', 'assistant'],
  ['function_call', 'assistant'],
  ['system', 'system'],
  ['tool', 'tool'],
  ['function', 'tool'],
  ['function_response', 'tool'],
  ['observation', 'tool'],
  ['ipython', 'tool'],
]);

/**
 * Parses a ShareGPT conversation into `state`.
 *
 * @example
 * ```ts
 * parseShareGpt({ kind: 'value', value: { conversations: [{ from: 'human', value: 'hi' }] } }, state);
 * ```
 */
export function parseShareGpt(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'value')
    throw state.sink.error('Expected a JSON object with a "conversations" array', { line: 1 });
  let value = prepared.value;
  if (Array.isArray(value) && value.length > 0 && isRecord(value[0]) && 'conversations' in value[0]) {
    if (value.length > 1) {
      throw state.sink.error(
        `Input holds ${value.length} conversations; a transcript is one conversation: parse each element on its own`,
        { index: 1 },
      );
    }
    value = value[0];
  }
  if (isRecord(value)) {
    if (!Array.isArray(value.conversations)) {
      throw state.sink.error(`Expected a "conversations" array, got ${typeName(value.conversations)}`);
    }
    value = value.conversations;
  }
  if (!Array.isArray(value)) throw state.sink.error(`Expected a conversation array, got ${typeName(value)}`);
  if (value.length === 0)
    throw state.sink.error('The conversation is empty', {}, undefined, 'transcript_empty');
  forEachObject({ kind: 'value', value }, state.sink, (obj, at) => {
    const out = newItemOut();
    convertShareGptTurn(obj, `m${at.index}`, at, out);
    commit(state, out);
  });
}

/**
 * Converts one `{from, value}` turn. `function_call` turns whose value is `{"name", "arguments"}`
 * JSON become tool calls.
 *
 * @example
 * ```ts
 * convertShareGptTurn({ from: 'gpt', value: 'hello' }, 'm1', { index: 1 }, out);
 * ```
 */
export function convertShareGptTurn(
  obj: Record<string, unknown>,
  id: string,
  source: SourceRef,
  out: ItemOut,
): void {
  const from = obj.from;
  if (from === undefined || from === null) throw new ItemError('Turn has no speaker ("from")');
  if (typeof from !== 'string')
    throw new ItemError(`Turn speaker ("from") must be a string, got ${typeName(from)}`);
  const role = SPEAKERS.get(from) ?? SPEAKERS.get(from.toLowerCase());
  if (!role) throw new ItemError(`Unknown speaker "${from.slice(0, 40)}"`);
  const value = obj.value;
  if (typeof value !== 'string') throw new ItemError(`Turn value must be a string, got ${typeName(value)}`);
  const m = message({ id, source }, role, value);
  const kind = role === 'user' ? syntheticKind(value) : undefined;
  if (kind !== undefined) m.synthetic = kind;
  if (from === 'function_call') {
    try {
      const call = JSON.parse(value) as unknown;
      if (isRecord(call) && typeof call.name === 'string') {
        m.toolName = call.name;
        m.content = typeof call.arguments === 'string' ? call.arguments : safeStringify(call.arguments ?? {});
      }
    } catch {
      // Not JSON: keep the text as is.
    }
  }
  out.messages.push(m);
}

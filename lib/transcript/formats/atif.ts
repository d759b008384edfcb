/**
 * ATIF, the Agent Trajectory Interchange Format (Harbor, Terminus-2 and others): `{schema_version:
 * 'ATIF-v1.x', session_id, agent: {name, model_name}, steps: [{step_id, timestamp, source:
 * 'user'|'agent'|'system', message, reasoning_content?, tool_calls?: [{tool_call_id, function_name,
 * arguments}], observation?: {results: [{source_call_id?, content}]}}]}`.
 *
 * Read as a transcript: `user` steps → user (the ones before the agent's first step are the task a
 * harness wrote: `synthetic: 'task'`), `system` → system, an agent step's message → assistant, each
 * tool call → an assistant call and each observation result → a `tool` message paired with its call
 * (by `source_call_id`, else in order). Reasoning is ignored (counted); images become `[image]`.
 */
import type { Prepared } from '../input.js';
import { ItemError, isRecord, typeName } from '../sink.js';
import type { Message, Role } from '../types.js';
import { safeStringify } from './convert.js';
import { forEachObject } from './items.js';
import { noteModel, type ParseState } from './result.js';

/**
 * True for an ATIF document: a `schema_version` starting with `ATIF`, or a `steps` array beside an
 * `agent` object.
 *
 * @example
 * ```ts
 * isAtif({ schema_version: 'ATIF-v1.6', steps: [] }); // true
 * ```
 */
export function isAtif(value: Record<string, unknown>): boolean {
  if (!Array.isArray(value.steps)) return false;
  return (
    (typeof value.schema_version === 'string' && value.schema_version.startsWith('ATIF')) ||
    isRecord(value.agent)
  );
}

/** One tool call of a step, with its observation text when one came back. */
export interface AtifCall {
  id: string;
  name: string;
  arguments: unknown;
  output?: string;
}

/**
 * The calls of an ATIF step, each paired with its observation result (by `source_call_id`, else by
 * position). Throws {@link ItemError} on a malformed `tool_calls` entry.
 *
 * @example
 * ```ts
 * atifCalls({ tool_calls: [{ tool_call_id: 'c1', function_name: 'bash', arguments: { command: 'ls' } }], observation: { results: [{ content: 'a.py' }] } }, 's1');
 * // [{ id: 'c1', name: 'bash', arguments: { command: 'ls' }, output: 'a.py' }]
 * ```
 */
export function atifCalls(step: Record<string, unknown>, fallbackId: string): AtifCall[] {
  const raw = step.tool_calls;
  const calls: AtifCall[] = [];
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw)) throw new ItemError(`tool_calls must be an array, got ${typeName(raw)}`);
    for (let k = 0; k < raw.length; k++) {
      const c = raw[k];
      if (!isRecord(c) || typeof c.function_name !== 'string') {
        throw new ItemError('A tool call has no function_name');
      }
      const id = typeof c.tool_call_id === 'string' ? c.tool_call_id : `${fallbackId}.${k}`;
      calls.push({ id, name: c.function_name, arguments: c.arguments });
    }
  }
  const results = isRecord(step.observation) ? step.observation.results : undefined;
  if (!Array.isArray(results)) return calls;
  const byId = new Map<string, AtifCall>();
  for (const c of calls) byId.set(c.id, c);
  let next = 0;
  const extra: string[] = [];
  for (const r of results) {
    if (!isRecord(r)) continue;
    const text = contentText(r.content);
    const target =
      typeof r.source_call_id === 'string'
        ? byId.get(r.source_call_id)
        : next < calls.length
          ? calls[next]
          : undefined;
    if (typeof r.source_call_id !== 'string') next++;
    if (target && target.output === undefined) target.output = text;
    else if (target) target.output = `${target.output}\n${text}`;
    else extra.push(text);
  }
  // Results without a call (an observation on a step that made none) still reach the reader.
  if (extra.length > 0)
    calls.push({
      id: `${fallbackId}.obs`,
      name: 'observation',
      arguments: undefined,
      output: extra.join('\n'),
    });
  return calls;
}

/** A result's content: a string, or the text of its parts (`[image]` for each image). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : safeStringify(content);
  const parts: string[] = [];
  for (const p of content) {
    if (typeof p === 'string') parts.push(p);
    else if (isRecord(p) && typeof p.text === 'string') parts.push(p.text);
    else if (isRecord(p) && p.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

/**
 * Parses an ATIF document into `state`.
 *
 * @example
 * ```ts
 * parseAtif({ kind: 'value', value: { schema_version: 'ATIF-v1.6', steps: [{ step_id: 1, source: 'user', message: 'Fix the test' }] } }, state);
 * ```
 */
export function parseAtif(prepared: Prepared, state: ParseState): void {
  const value = prepared.kind === 'value' ? prepared.value : undefined;
  if (!isRecord(value) || !Array.isArray(value.steps)) {
    throw state.sink.error('Expected an ATIF object with a "steps" array');
  }
  if (value.steps.length === 0)
    throw state.sink.error('The steps array is empty', {}, undefined, 'transcript_empty');
  state.meta = {};
  if (isRecord(value.agent)) {
    if (typeof value.agent.name === 'string') state.meta.agent = value.agent.name;
    if (typeof value.agent.model_name === 'string') noteModel(state, value.agent.model_name);
  }
  if (typeof value.session_id === 'string') state.meta.sessionId = value.session_id;
  let answered = false;
  forEachObject({ kind: 'value', value: value.steps }, state.sink, (step, at) => {
    const source = step.source;
    if (source !== 'user' && source !== 'agent' && source !== 'system') {
      throw new ItemError(`Step source must be user, agent or system, got ${typeName(source)}`);
    }
    const message = step.message === undefined || step.message === null ? '' : step.message;
    const text = typeof message === 'string' ? message : contentText(message);
    const id = `m${at.index}`;
    const ts = typeof step.timestamp === 'string' ? step.timestamp : undefined;
    const out: Message[] = [];
    const push = (role: Role, content: string, call?: AtifCall): Message => {
      const m: Message = { id, role, content, source: at };
      if (ts !== undefined) m.ts = ts;
      if (call) {
        m.toolName = call.name;
        m.toolUseId = call.id;
      }
      out.push(m);
      return m;
    };
    if (source === 'user') {
      const m = push('user', text);
      if (!answered) m.synthetic = 'task';
    } else if (source === 'system') push('system', text);
    else {
      answered = true;
      if (typeof step.model_name === 'string') noteModel(state, step.model_name);
      if (typeof step.reasoning_content === 'string' && step.reasoning_content.length > 0)
        state.sink.ignore('thinking');
      if (text.trim().length > 0) push('assistant', text);
      for (const call of atifCalls(step, id)) {
        if (call.arguments !== undefined || call.name !== 'observation') {
          push('assistant', safeStringify(call.arguments ?? {}), call);
        }
        if (call.output !== undefined) push('tool', call.output, call);
      }
    }
    if (out.length > 1) for (let k = 0; k < out.length; k++) out[k]!.id = `${id}.${k}`;
    for (const m of out) state.messages.push(m);
  });
}

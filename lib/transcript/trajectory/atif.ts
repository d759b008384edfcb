/**
 * ATIF trajectories as steps: every tool call of an agent step is a step (`tool` = `function_name`,
 * `action` = the command it ran when the arguments hold one — `command`, `keystrokes`, `cmd` — else the
 * arguments as JSON, `thought` = the step's message for its first call), its observation result the
 * `observation`. ATIF records no exit codes or failures: no `error`/`exitCode`. User and system
 * steps, and agent steps without calls, are ignored (counted).
 */

import { atifCalls } from '../formats/atif.js';
import { safeStringify } from '../formats/convert.js';
import { ItemError, isRecord, type Sink, typeName } from '../sink.js';
import type { Step } from '../types.js';

/**
 * The steps of an ATIF document, and its `session_id`.
 *
 * @example
 * ```ts
 * atifSteps({ schema_version: 'ATIF-v1.6', steps: [{ step_id: 2, source: 'agent', message: 'List', tool_calls: [{ tool_call_id: 'c', function_name: 'bash', arguments: { command: 'ls' } }] }] }, sink);
 * ```
 */
export function atifSteps(value: Record<string, unknown>, sink: Sink): { steps: Step[]; sessionId?: string } {
  const raw = value.steps;
  if (!Array.isArray(raw)) throw sink.error(`Expected a "steps" array, got ${typeName(raw)}`);
  const steps: Step[] = [];
  for (let index = 0; index < raw.length; index++) {
    const item = raw[index];
    if (!isRecord(item)) {
      sink.invalid(`Step is not an object, got ${typeName(item)}`, { index });
      continue;
    }
    if (item.source !== 'agent') {
      sink.ignore(typeof item.source === 'string' ? item.source.slice(0, 20) : 'other');
      continue;
    }
    let calls: ReturnType<typeof atifCalls>;
    try {
      calls = atifCalls(item, `s${index}`);
    } catch (err) {
      if (err instanceof ItemError) {
        sink.invalid(err.message, { index });
        continue;
      }
      throw err;
    }
    if (calls.length === 0) {
      sink.ignore('message');
      continue;
    }
    const thought = typeof item.message === 'string' ? item.message.trim() : '';
    for (let k = 0; k < calls.length; k++) {
      const call = calls[k]!;
      const step: Step = { index: steps.length, tool: call.name, source: { index } };
      if (k === 0 && thought.length > 0) step.thought = thought;
      const action = actionOf(call.arguments);
      if (action !== undefined) step.action = action;
      if (call.output !== undefined) step.observation = call.output;
      steps.push(step);
    }
  }
  const r: { steps: Step[]; sessionId?: string } = { steps };
  if (typeof value.session_id === 'string') r.sessionId = value.session_id;
  return r;
}

function actionOf(args: unknown): string | undefined {
  if (args === undefined || args === null) return undefined;
  if (typeof args === 'string') return args;
  if (isRecord(args)) {
    for (const key of ['command', 'keystrokes', 'cmd']) {
      const v = args[key];
      if (typeof v === 'string') return v.endsWith('\n') ? v.slice(0, -1) : v;
    }
  }
  return safeStringify(args);
}

/**
 * Google Antigravity step logs: one JSON step per line, `{step_index, source: USER_EXPLICIT | MODEL |
 * SYSTEM, type, status, created_at, content, thinking, tool_calls, error}`.
 *
 * - `USER_INPUT` → a `user` message holding what sits inside `<USER_REQUEST>…</USER_REQUEST>`: the
 *   metadata blocks the IDE appends after it (`<ADDITIONAL_METADATA>`, `<USER_SETTINGS_CHANGE>`…)
 *   were not typed by the person and are dropped (counted as `user-metadata`).
 * - `PLANNER_RESPONSE` → the agent's prose as an `assistant` message, and one assistant tool-call
 *   message per `tool_calls[]` entry. The log gives calls no ids: the tool steps that follow answer
 *   them in order, so calls get `{step_index}.{k}` ids and each MODEL tool step (VIEW_FILE,
 *   RUN_COMMAND, CODE_ACTION…) takes the oldest unanswered one. A SYSTEM `ERROR_MESSAGE` while a call
 *   waits is that call's failure (the harness could not run it); otherwise it is a `system` message.
 * - Tool steps the person ran themselves (`USER_EXPLICIT` RUN_COMMAND, VIEW_FILE…) → `tool` messages
 *   with no call. `CHECKPOINT` (the summary that replaces truncated history) → a `system` message.
 * - Harness reminders (`EPHEMERAL_MESSAGE`, `SYSTEM_MESSAGE`, `CONVERSATION_HISTORY`,
 *   `KNOWLEDGE_ARTIFACTS`) and `thinking` are ignored and counted by kind.
 *
 * Real logs hold fragments of lines spliced in by the exporter: a line that is not JSON is reported in
 * `skipped` (in strict mode too) and the rest of the session is kept.
 */
import type { Prepared } from '../input.js';
import { ItemError, isRecord, typeName } from '../sink.js';
import { type ItemBase, type ItemOut, message, safeStringify } from './convert.js';
import { forEachObject } from './items.js';
import { commit, newItemOut, type ParseState } from './result.js';

const SOURCES = new Set(['USER_EXPLICIT', 'MODEL', 'SYSTEM']);
/** SYSTEM steps that are harness reminders rather than conversation. */
const REMINDERS = new Set([
  'EPHEMERAL_MESSAGE',
  'SYSTEM_MESSAGE',
  'CONVERSATION_HISTORY',
  'KNOWLEDGE_ARTIFACTS',
]);

const OPEN = '<USER_REQUEST>';
const CLOSE = '</USER_REQUEST>';

/**
 * True for an Antigravity step: a numeric `step_index`, a `source` of USER_EXPLICIT, MODEL or SYSTEM
 * and a string `type`.
 *
 * @example
 * ```ts
 * isAntigravityStep({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', content: '<USER_REQUEST>hi</USER_REQUEST>' }); // true
 * ```
 */
export function isAntigravityStep(obj: Record<string, unknown>): boolean {
  return (
    typeof obj.step_index === 'number' &&
    typeof obj.type === 'string' &&
    typeof obj.source === 'string' &&
    SOURCES.has(obj.source)
  );
}

interface PendingCall {
  id: string;
  name: string;
}

/**
 * Parses an Antigravity step log into `state` (see the module comment for the mapping).
 *
 * @example
 * ```ts
 * parseAntigravity({ kind: 'text', text: steps }, state);
 * ```
 */
export function parseAntigravity(prepared: Prepared, state: ParseState): void {
  state.exitCodes ??= new Map();
  // Calls of the latest planner response not yet answered, oldest first (a cursor, not shift()).
  let pending: PendingCall[] = [];
  let next = 0;
  // When the person goes back to an earlier message and sends it again, the log numbers the new
  // steps from that point: indices repeat (one shared log: 165 of its 1,164 steps). A repeated index
  // gets the count of such rewinds so far (`s264r3`; an index not above the one before starts a
  // rewind), so that every message keeps its own id and trace references stay unique; a step seen
  // first keeps its plain `s{index}`.
  const seen = new Set<number>();
  let rewinds = 0;
  let previous = Number.NEGATIVE_INFINITY;
  forEachObject(
    prepared,
    state.sink,
    (obj, at) => {
      const out = newItemOut();
      const step = readStep(obj);
      if (step.index <= previous) rewinds++;
      previous = step.index;
      const id = seen.has(step.index) ? `s${step.index}r${rewinds}` : `s${step.index}`;
      seen.add(step.index);
      const base: ItemBase = { id, source: at };
      if (typeof obj.created_at === 'string') base.ts = obj.created_at;
      if (step.type === 'PLANNER_RESPONSE') {
        const calls = planner(obj, base, state, out);
        commit(state, out);
        pending = calls;
        next = 0;
        return;
      }
      if (step.type === 'USER_INPUT') {
        userInput(obj, base, out);
        // A new request: calls left unanswered before it stay unanswered.
        pending = [];
        next = 0;
      } else if (step.source === 'MODEL' || (step.type === 'ERROR_MESSAGE' && next < pending.length)) {
        toolStep(obj, step.type, base, next < pending.length ? pending[next++] : undefined, state, out);
      } else if (step.source === 'USER_EXPLICIT') {
        toolStep(obj, step.type, base, undefined, state, out);
      } else if (REMINDERS.has(step.type)) {
        out.ignored.push(step.type.toLowerCase());
      } else {
        out.messages.push(message(base, 'system', stepText(obj)));
      }
      commit(state, out);
    },
    'skip',
  );
}

function readStep(obj: Record<string, unknown>): { index: number; type: string; source: string } {
  const index = obj.step_index;
  if (typeof index !== 'number' || !Number.isFinite(index))
    throw new ItemError(`Step has no numeric "step_index" (got ${typeName(index)})`);
  if (typeof obj.type !== 'string') throw new ItemError('Step has no "type"');
  const source = obj.source;
  if (typeof source !== 'string' || !SOURCES.has(source))
    throw new ItemError('Step "source" must be USER_EXPLICIT, MODEL or SYSTEM');
  for (const key of ['content', 'thinking', 'error'] as const) {
    const v = obj[key];
    if (v !== undefined && v !== null && typeof v !== 'string')
      throw new ItemError(`Step "${key}" must be a string, got ${typeName(v)}`);
  }
  return { index, type: obj.type, source };
}

function stepText(obj: Record<string, unknown>): string {
  if (typeof obj.content === 'string') return obj.content;
  return typeof obj.error === 'string' ? obj.error : '';
}

function userInput(obj: Record<string, unknown>, base: ItemBase, out: ItemOut): void {
  const content = stepText(obj);
  const open = content.indexOf(OPEN);
  if (open < 0) {
    out.messages.push(message(base, 'user', content));
    return;
  }
  const from = open + OPEN.length;
  let to = content.indexOf(CLOSE, from);
  if (to < 0) to = content.length;
  const rest = content.length - (to + CLOSE.length);
  if (open > 0 || rest > 0) out.ignored.push('user-metadata');
  out.messages.push(message(base, 'user', content.slice(from, to).trim()));
}

function planner(
  obj: Record<string, unknown>,
  base: ItemBase,
  state: ParseState,
  out: ItemOut,
): PendingCall[] {
  if (typeof obj.thinking === 'string' && obj.thinking.length > 0) out.ignored.push('thinking');
  const prose = stepText(obj);
  if (prose.trim().length > 0) out.messages.push(message(base, 'assistant', prose));
  const raw = obj.tool_calls;
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ItemError(`tool_calls must be an array, got ${typeName(raw)}`);
  const calls: PendingCall[] = [];
  for (let k = 0; k < raw.length; k++) {
    const call = raw[k];
    if (!isRecord(call) || typeof call.name !== 'string') throw new ItemError(`tool_calls[${k}] has no name`);
    // The step's id without its `s`: `12.0`, or `264r3.0` after a rewind (unique, as the step's id is).
    const id = `${base.id.slice(1)}.${k}`;
    const m = message({ ...base, id: `${base.id}.c${k}` }, 'assistant', argsText(call.args));
    m.toolName = call.name;
    m.toolUseId = id;
    state.tools.set(id, call.name);
    out.messages.push(m);
    calls.push({ id, name: call.name });
  }
  return calls;
}

/**
 * The call's arguments as one JSON object. Antigravity writes each argument value JSON-encoded
 * (`"\"/src/a.ts\""`): values that decode are decoded, so the action reads as the tool got it.
 */
function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  if (!isRecord(args)) return safeStringify(args ?? {});
  const decoded: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    const v = args[key];
    decoded[key] = typeof v === 'string' ? decodeValue(v) : v;
  }
  return safeStringify(decoded);
}

function decodeValue(v: string): unknown {
  const c = v.charCodeAt(0);
  // Only JSON strings, arrays and objects: a bare `12` or `true` stays the text it is.
  if (c !== 0x22 && c !== 0x5b && c !== 0x7b) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function toolStep(
  obj: Record<string, unknown>,
  type: string,
  base: ItemBase,
  call: PendingCall | undefined,
  state: ParseState,
  out: ItemOut,
): void {
  const text = stepText(obj);
  const m = message(base, 'tool', text);
  m.toolName = call?.name ?? type.toLowerCase();
  if (call) m.toolUseId = call.id;
  const code = typeof obj.exit_code === 'number' ? obj.exit_code : failedExitCode(text);
  if (code !== undefined) state.exitCodes?.set(m, code);
  if (
    obj.status === 'ERROR' ||
    typeof obj.error === 'string' ||
    type === 'ERROR_MESSAGE' ||
    (code !== undefined && code !== 0)
  )
    m.isError = true;
  out.messages.push(m);
}

const FAILED_WITH = 'The command failed with exit code: ';
/** How far into a step's text the command status line is looked for. */
const STATUS_WINDOW = 400;

/** The exit code of a RUN_COMMAND step that reports `The command failed with exit code: N`. */
function failedExitCode(text: string): number | undefined {
  const at = text.indexOf(FAILED_WITH);
  if (at < 0 || at > STATUS_WINDOW) return undefined;
  let i = at + FAILED_WITH.length;
  let n = 0;
  let digits = 0;
  while (i < text.length && digits < 6) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
    digits++;
    i++;
  }
  return digits > 0 ? n : undefined;
}

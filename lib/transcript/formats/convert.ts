/**
 * Conversion of one role-based chat message (Anthropic Messages, OpenAI chat, Claude Code's
 * `message` field, a JSONL line) into transcript messages. Content blocks are split so that every
 * tool call and tool result is its own message; consecutive text blocks are joined with a newline.
 */
import { ItemError, isRecord, typeName } from '../sink.js';
import type { Message, Role, SourceRef, SyntheticKind } from '../types.js';
import { leadingReasoningEnd } from './reasoning.js';
import { syntheticKind } from './synthetic.js';

/** Per-item output: the messages and the kinds of the parts ignored by design. */
export interface ItemOut {
  messages: Message[];
  ignored: string[];
}

/** What every message of an item shares. */
export interface ItemBase {
  /** The item id; a second message from the same item gets `${id}.1`, and so on. */
  id: string;
  source: SourceRef;
  ts?: string;
  /** Set when the whole item is known not to be a person's (an `isMeta` event, an agent's task…). */
  synthetic?: SyntheticKind;
}

/**
 * Tool names by tool-use id, so a result can name its tool. One Map per parse: pairing is O(1).
 */
export type ToolNames = Map<string, string>;

const ROLE_ALIASES: ReadonlyMap<string, Role> = new Map<string, Role>([
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['model', 'assistant'],
  ['ai', 'assistant'],
  ['bot', 'assistant'],
  ['gpt', 'assistant'],
  ['system', 'system'],
  ['developer', 'system'],
  ['tool', 'tool'],
  ['function', 'tool'],
  ['ipython', 'tool'],
]);

/**
 * Maps a role name (any case) to a transcript role, or undefined when unknown.
 *
 * @example
 * ```ts
 * mapRole('developer'); // 'system'
 * ```
 */
export function mapRole(raw: string): Role | undefined {
  return ROLE_ALIASES.get(raw) ?? ROLE_ALIASES.get(raw.toLowerCase());
}

/** Block types that are conversation-free reasoning. */
const THINKING = new Set(['thinking', 'redacted_thinking', 'reasoning']);
const TEXT = new Set(['text', 'input_text', 'output_text']);

/**
 * Converts `obj` (a `{role, content, tool_calls?, …}` message) into messages appended to `out`.
 * Throws {@link ItemError} when the message is invalid; nothing is appended then.
 *
 * @example
 * ```ts
 * const out = { messages: [], ignored: [] };
 * convertRoleMessage({ role: 'user', content: 'hi' }, { id: 'm0', source: { index: 0 } }, new Map(), out);
 * ```
 */
export function convertRoleMessage(obj: unknown, base: ItemBase, tools: ToolNames, out: ItemOut): void {
  if (!isRecord(obj)) throw new ItemError(`Message must be an object, got ${typeName(obj)}`);
  const rawRole = obj.role;
  if (rawRole === undefined || rawRole === null) throw new ItemError('Message has no role');
  if (typeof rawRole !== 'string')
    throw new ItemError(`Message role must be a string, got ${typeName(rawRole)}`);
  const role = mapRole(rawRole);
  if (!role) throw new ItemError(`Unknown message role "${rawRole.slice(0, 40)}"`);
  const start = out.messages.length;
  const content = obj.content;
  const toolCalls = obj.tool_calls;
  const functionCall = obj.function_call;
  const hasCalls =
    (Array.isArray(toolCalls) && toolCalls.length > 0) ||
    (functionCall !== undefined && functionCall !== null);

  if (typeof content === 'string') {
    if (role === 'tool') pushToolResult(out, base, content, toolResultId(obj), toolResultName(obj, tools));
    else if (content.length > 0 || !hasCalls) push(out, base, role, content);
  } else if (Array.isArray(content)) {
    convertBlocks(content, role, base, tools, out, obj);
  } else if (content === undefined || content === null) {
    if (!hasCalls) {
      throw new ItemError(
        `Message content must be a string or an array of content blocks, got ${typeName(content)}`,
      );
    }
  } else {
    throw new ItemError(
      `Message content must be a string or an array of content blocks, got ${typeName(content)}`,
    );
  }

  if (toolCalls !== undefined && toolCalls !== null) {
    if (!Array.isArray(toolCalls))
      throw new ItemError(`tool_calls must be an array, got ${typeName(toolCalls)}`);
    for (let k = 0; k < toolCalls.length; k++) pushOpenAiCall(out, base, toolCalls[k], k, tools);
  }
  if (functionCall !== undefined && functionCall !== null)
    pushOpenAiCall(out, base, { function: functionCall }, 0, tools);
  assignIds(out.messages, start, base.id);
}

/** Gives the messages from `start` on their ids: `id` alone, or `id.k` when the item made several. */
export function assignIds(messages: Message[], start: number, id: string): void {
  const n = messages.length - start;
  if (n === 1) messages[start]!.id = id;
  else for (let k = 0; k < n; k++) messages[start + k]!.id = `${id}.${k}`;
}

function convertBlocks(
  blocks: unknown[],
  role: Role,
  base: ItemBase,
  tools: ToolNames,
  out: ItemOut,
  obj: Record<string, unknown>,
): void {
  let text: string[] = [];
  const flush = (): void => {
    if (text.length === 0) return;
    const joined = text.length === 1 ? text[0]! : text.join('\n');
    if (role === 'tool') pushToolResult(out, base, joined, toolResultId(obj), toolResultName(obj, tools));
    else push(out, base, role, joined);
    text = [];
  };
  const before = out.messages.length;
  let sawText = false;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (typeof block === 'string') {
      text.push(block);
      sawText = true;
      continue;
    }
    if (!isRecord(block)) throw new ItemError(`Content block ${b} must be an object, got ${typeName(block)}`);
    const type = block.type;
    if (typeof type !== 'string') throw new ItemError(`Content block ${b} has no type`);
    if (TEXT.has(type)) {
      if (typeof block.text !== 'string') throw new ItemError(`Text block ${b} has no text string`);
      text.push(block.text);
      sawText = true;
    } else if (type.endsWith('tool_use')) {
      flush();
      const name = block.name;
      if (typeof name !== 'string') throw new ItemError(`Tool use block ${b} has no name`);
      const id = typeof block.id === 'string' ? block.id : undefined;
      if (id !== undefined) tools.set(id, name);
      const input = block.input;
      const m = message(base, 'assistant', typeof input === 'string' ? input : safeStringify(input ?? {}));
      m.toolName = name;
      if (id !== undefined) m.toolUseId = id;
      out.messages.push(m);
    } else if (type.endsWith('tool_result')) {
      flush();
      const id = block.tool_use_id;
      if (id !== undefined && typeof id !== 'string')
        throw new ItemError(`Tool result block ${b} has a non-string tool_use_id`);
      const m = pushToolResult(
        out,
        base,
        resultText(block.content, b, out),
        id,
        id === undefined ? undefined : tools.get(id),
      );
      if (block.is_error === true) m.isError = true;
    } else if (type === 'tool_output' && role === 'tool') {
      // Session converters' tool results: `{type: 'tool_output', text: string | [{type: 'text', text}]}`.
      text.push(resultText(block.text, b, out));
      sawText = true;
    } else if (THINKING.has(type)) {
      out.ignored.push('thinking');
    } else {
      out.ignored.push(type);
    }
  }
  flush();
  // An empty content array is still a (blank) turn; a message made only of ignored blocks is not.
  if (blocks.length === 0 && out.messages.length === before && !sawText) push(out, base, role, '');
}

function resultText(content: unknown, b: number, out: ItemOut): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  if (!Array.isArray(content)) {
    throw new ItemError(
      `Tool result block ${b} content must be a string or an array, got ${typeName(content)}`,
    );
  }
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (isRecord(part) && typeof part.text === 'string') parts.push(part.text);
    else out.ignored.push(isRecord(part) && typeof part.type === 'string' ? part.type : 'unknown');
  }
  return parts.length === 1 ? parts[0]! : parts.join('\n');
}

function pushOpenAiCall(out: ItemOut, base: ItemBase, call: unknown, k: number, tools: ToolNames): void {
  if (!isRecord(call)) throw new ItemError(`tool_calls[${k}] must be an object, got ${typeName(call)}`);
  const fn = call.function;
  if (!isRecord(fn) || typeof fn.name !== 'string')
    throw new ItemError(`tool_calls[${k}] has no function name`);
  const args = fn.arguments;
  const m = message(base, 'assistant', typeof args === 'string' ? args : safeStringify(args ?? {}));
  m.toolName = fn.name;
  if (typeof call.id === 'string') {
    m.toolUseId = call.id;
    tools.set(call.id, fn.name);
  }
  out.messages.push(m);
}

function toolResultId(obj: Record<string, unknown>): string | undefined {
  if (typeof obj.tool_call_id === 'string') return obj.tool_call_id;
  const ids = obj.tool_call_ids;
  if (Array.isArray(ids) && typeof ids[0] === 'string') return ids[0];
  return undefined;
}

function toolResultName(obj: Record<string, unknown>, tools: ToolNames): string | undefined {
  if (typeof obj.name === 'string') return obj.name;
  const id = toolResultId(obj);
  return id === undefined ? undefined : tools.get(id);
}

function pushToolResult(
  out: ItemOut,
  base: ItemBase,
  content: string,
  id: string | undefined,
  name: string | undefined,
): Message {
  const m = message(base, 'tool', content);
  if (name !== undefined) m.toolName = name;
  if (id !== undefined) m.toolUseId = id;
  out.messages.push(m);
  return m;
}

function push(out: ItemOut, base: ItemBase, role: Role, content: string): void {
  // An assistant's thoughts are not its reply (ignored and counted, as thinking blocks are); a reply
  // that was only thoughts is no message.
  if (role === 'assistant') {
    const end = leadingReasoningEnd(content);
    if (end >= 0) {
      out.ignored.push('thinking');
      content = content.slice(end);
      if (content === '') return;
    }
  }
  const m = message(base, role, content);
  if (role === 'user') {
    const kind = base.synthetic ?? syntheticKind(content);
    if (kind !== undefined) m.synthetic = kind;
  }
  out.messages.push(m);
}

/**
 * A message with the item's id, source and timestamp.
 *
 * @example
 * ```ts
 * message({ id: 'm0', source: { index: 0 } }, 'user', 'hi');
 * ```
 */
export function message(base: ItemBase, role: Role, content: string): Message {
  const m: Message = { id: base.id, role, content, source: base.source };
  if (base.ts !== undefined) m.ts = base.ts;
  return m;
}

/**
 * `JSON.stringify` that never throws (cycles and BigInts give a placeholder).
 *
 * @example
 * ```ts
 * safeStringify({ a: 1 }); // '{"a":1}'
 * ```
 */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable]';
  }
}

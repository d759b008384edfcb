/** The per-parse state every transcript format writes into. */
import type { Sink } from '../sink.js';
import type { Message } from '../types.js';
import type { ItemOut, ToolNames } from './convert.js';

/**
 * A transcript being built: the sink (skipped and ignored items), the messages and the tool-name map.
 *
 * @example
 * ```ts
 * const state: ParseState = { sink, messages: [], tools: new Map(), includeSidechains: false };
 * ```
 */
export interface ParseState {
  sink: Sink;
  messages: Message[];
  tools: ToolNames;
  includeSidechains: boolean;
  /** Exit codes of tool results, where the format records them (Codex): read by the trajectory. */
  exitCodes?: Map<Message, number>;
}

/**
 * Fresh per-item output.
 *
 * @example
 * ```ts
 * const out = newItemOut();
 * ```
 */
export function newItemOut(): ItemOut {
  return { messages: [], ignored: [] };
}

/**
 * Moves a successfully converted item's output into the state.
 *
 * @example
 * ```ts
 * commit(state, out);
 * ```
 */
export function commit(state: ParseState, out: ItemOut): void {
  for (const m of out.messages) state.messages.push(m);
  for (const kind of out.ignored) state.sink.ignore(kind);
}

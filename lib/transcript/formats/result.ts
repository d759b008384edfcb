/** The per-parse state every transcript format writes into. */
import type { Sink } from '../sink.js';
import type { Message, TranscriptMeta } from '../types.js';
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
  /** Console transcripts: keep the breaks the terminal made when it wrapped the agent's prose. */
  keepLineBreaks?: boolean;
  /** Exit codes of tool results, where the format records them (Codex): read by the trajectory. */
  exitCodes?: Map<Message, number>;
  /** Session facts the format records (agent, models, session id), when it records any. */
  meta?: TranscriptMeta;
}

/**
 * Records a model name in `state.meta.models` (once, in order of first appearance).
 *
 * @example
 * ```ts
 * noteModel(state, 'claude-opus-4-5');
 * ```
 */
export function noteModel(state: ParseState, model: string | undefined): void {
  if (model === undefined || model.length === 0) return;
  state.meta ??= {};
  state.meta.models ??= [];
  const models = state.meta.models;
  if (models.length < 64 && !models.includes(model)) models.push(model);
}

/**
 * Records the folder the session ran in (`state.meta.cwd`): the first one the export names, less
 * trailing separators; a bare root (`/`, `C:\\`) names no project and is not kept.
 *
 * @example
 * ```ts
 * noteCwd(state, '/Users/ana/proj/'); // state.meta.cwd === '/Users/ana/proj'
 * ```
 */
export function noteCwd(state: ParseState, cwd: unknown): void {
  if (typeof cwd !== 'string' || state.meta?.cwd !== undefined) return;
  let to = cwd.length;
  while (to > 0 && (cwd.charCodeAt(to - 1) === 0x2f || cwd.charCodeAt(to - 1) === 0x5c)) to--;
  const folder = cwd.slice(0, to).trim();
  if (folder.length === 0 || /^[A-Za-z]:$/.test(folder) || folder.length > 1024) return;
  state.meta ??= {};
  state.meta.cwd = folder;
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

/**
 * Pasted plain-text chats: a line starting with `User:`, `Human:`, `Assistant:`, `AI:`, `Claude:`,
 * `ChatGPT:`, `GPT:`, `Bot:`, `Model:`, `System:` or `Tool:` (any case, optionally in `**bold**`)
 * starts a turn; the following lines continue it. Text before the first prefix is counted as ignored
 * (`preamble`).
 */
import { plainPrefix } from '../detect.js';
import type { Prepared } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import type { Role } from '../types.js';
import type { ParseState } from './result.js';
import { Turn } from './text-turns.js';

const SPEAKER_ROLES: ReadonlyMap<string, Role> = new Map<string, Role>([
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['ai', 'assistant'],
  ['claude', 'assistant'],
  ['chatgpt', 'assistant'],
  ['gpt', 'assistant'],
  ['bot', 'assistant'],
  ['model', 'assistant'],
  ['system', 'system'],
  ['tool', 'tool'],
]);

/**
 * Parses a plain-text chat into `state`.
 *
 * @example
 * ```ts
 * parsePlain({ kind: 'text', text: 'User: hi\nAssistant: hello\nhow are you?' }, state);
 * ```
 */
export function parsePlain(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'text') throw state.sink.error('Expected plain text, got a JSON value');
  let turn: Turn | undefined;
  let preamble = false;
  forEachLine(prepared.text, (line, n) => {
    const blank = isBlank(line);
    const prefix = blank ? undefined : plainPrefix(line);
    if (prefix) {
      if (turn) state.messages.push(turn.toMessage());
      turn = new Turn(SPEAKER_ROLES.get(prefix.speaker) ?? 'user', n);
      const text = line.slice(prefix.end).trimStart();
      if (text.length > 0) turn.add(text);
    } else if (turn) turn.add(line, blank);
    else if (!blank) preamble = true;
    return undefined;
  });
  if (turn) state.messages.push(turn.toMessage());
  if (preamble) state.sink.ignore('preamble');
}

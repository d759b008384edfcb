/**
 * Pasted plain-text chats: a line starting with `User:`, `Human:`, `Assistant:`, `AI:`, `Claude:`,
 * `ChatGPT:`, `GPT:`, `Bot:`, `Model:`, `System:` or `Tool:` (any case, optionally in `**bold**`)
 * starts a turn; the following lines continue it. In a chat whose first line opens with a role tag
 * (`<user>`, `<assistant model="…">`), such a tag at a line's start starts a turn too, whose text runs
 * to the line ending in its closing tag (`</assistant>`): prefixes inside it are its text, and a line
 * after it belongs to no turn until the next tag or prefix. Elsewhere a tag is text (a few-shot
 * prompt pasted into a turn). Text before the first prefix or tag is counted as ignored (`preamble`).
 */
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

const PLAIN_PREFIX =
  /^[ \t]{0,3}(?:\*\*)?(user|human|assistant|ai|claude|chatgpt|gpt|bot|model|system|tool)(?:\*\*)?[ \t]*:(?:\*\*)?/i;

/**
 * The role prefix of a plain-text line (`User:`, `**Assistant:**`…), with the offset where the text
 * starts, or undefined.
 *
 * @example
 * ```ts
 * plainPrefix('Human: hi'); // { speaker: 'human', end: 6 }
 * ```
 */
export function plainPrefix(line: string): { speaker: string; end: number } | undefined {
  // Cheap reject before the (anchored, bounded) regular expression.
  if (line.length === 0 || line.indexOf(':') < 0) return undefined;
  const m = PLAIN_PREFIX.exec(line);
  if (!m) return undefined;
  return { speaker: m[1]!.toLowerCase(), end: m[0].length };
}

/**
 * A role tag at a line's start, as chats pasted into a prompt or exported by some tools write them:
 * `<user>`, `<assistant model="gemini-2.5-pro">`. `[^<>]*` cannot pass the closing `>`, so a
 * failed match backtracks over one run only: linear in the line.
 */
const ROLE_TAG =
  /^[ \t]{0,3}<(user|human|assistant|ai|claude|chatgpt|gpt|bot|model|system|tool)(?:[ \t][^<>]*)?>/i;

/**
 * The role tag opening a line (`<user>`, `<assistant model="x">`), with the offset where the text
 * after it starts, or undefined. Its block ends at the line ending in `</speaker>`.
 *
 * @example
 * ```ts
 * roleTag('<assistant model="gemini-2.5-pro">'); // { speaker: 'assistant', end: 34 }
 * ```
 */
export function roleTag(line: string): { speaker: string; end: number } | undefined {
  // Cheap reject: the tag is the line's first character after at most three spaces.
  const lt = line.indexOf('<');
  if (lt < 0 || lt > 3) return undefined;
  const m = ROLE_TAG.exec(line);
  if (!m) return undefined;
  return { speaker: m[1]!.toLowerCase(), end: m[0].length };
}

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
  /** Inside a role tag's block: its closing tag (`</user>`), lower-cased; prefixes are its text there. */
  let closing: string | undefined;
  const start = (speaker: string, n: number) => {
    if (turn) state.messages.push(turn.toMessage());
    turn = new Turn(SPEAKER_ROLES.get(speaker) ?? 'user', n);
  };
  /** Adds `text` to the open block, ending the block when the text ends with its closing tag. */
  const inBlock = (text: string, blank: boolean) => {
    const trimmed = blank ? '' : text.trimEnd();
    const ends = trimmed.length >= closing!.length && endsWithTag(trimmed, closing!);
    const body = ends ? trimmed.slice(0, trimmed.length - closing!.length) : text;
    if (!isBlank(body)) turn!.add(ends ? body.trimEnd() : body);
    else turn!.add(body, true);
    if (ends) {
      state.messages.push(turn!.toMessage());
      turn = undefined;
      closing = undefined;
    }
  };
  /** Whether the chat is in role tags: its first line opens one (else a tag is text, as in a pasted prompt). */
  let tagged: boolean | undefined;
  forEachLine(prepared.text, (line, n) => {
    const blank = isBlank(line);
    if (closing !== undefined) {
      inBlock(line, blank);
      return undefined;
    }
    if (tagged === undefined && !blank) tagged = roleTag(line) !== undefined;
    const tag = blank || !tagged ? undefined : roleTag(line);
    if (tag) {
      start(tag.speaker, n);
      closing = `</${tag.speaker}>`;
      const rest = line.slice(tag.end);
      if (!isBlank(rest)) inBlock(rest.trimStart(), false);
      return undefined;
    }
    const prefix = blank ? undefined : plainPrefix(line);
    if (prefix) {
      start(prefix.speaker, n);
      const text = line.slice(prefix.end).trimStart();
      if (text.length > 0) turn!.add(text);
    } else if (turn) turn.add(line, blank);
    else if (!blank) preamble = true;
    return undefined;
  });
  if (turn) state.messages.push(turn.toMessage());
  if (preamble) state.sink.ignore('preamble');
}

/** True when `text` ends with the closing tag `tag` (lower case), in any case. */
function endsWithTag(text: string, tag: string): boolean {
  return text.slice(text.length - tag.length).toLowerCase() === tag;
}

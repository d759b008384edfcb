/**
 * aider's prompts: which `#### ` lines are prompts (recent and old histories), commands as aider reads
 * them, the prompts aider logs itself (echoes of `/ask`, `/help`'s doc prompt), and the architect's
 * hand-off compared with the reply it repeats. Read by `parseAider` (aider.ts).
 */
import type { Message, SyntheticKind } from '../types.js';
import { LONE_CLOSE } from './reasoning.js';
import type { Turn } from './text-turns.js';

/** The line that opens a session. */
export const HEADER = '# aider chat started at ';

/** How the prompt `/help <question>` builds from aider's docs starts. */
const HELP_EXPANSION = '# Question: ';

/** aider's commands that carry a prompt for the model (`/ask how does X work?`). */
const CHAT_COMMANDS = new Set(['ask', 'code', 'architect', 'context', 'help']);
/** Every command aider knows: the chat commands, housekeeping, and tool runs the person starts. */
const COMMANDS = [
  ...CHAT_COMMANDS,
  ...(
    'add chat-mode clear commit copy copy-context diff drop edit editor editor-model exit git lint load ls ' +
    'map map-refresh model models multiline-mode paste quit read-only reasoning-effort report reset run ' +
    'save settings test think-tokens tokens undo voice weak-model web'
  ).split(' '),
];

/** {@link LONE_CLOSE} anywhere in a text, line by line. */
const LONE_CLOSE_IN = new RegExp(LONE_CLOSE.source, 'm');

/**
 * Per session (0 = before the first header), whether some prompt line ends with two spaces: the
 * mark of a recent aider. One extra linear pass over the lines.
 */
export function recentSessions(text: string): boolean[] {
  const recent: boolean[] = [];
  let session = 0;
  // Only lines starting with `#` matter: jump from one to the next without slicing the others.
  for (
    let at = text.charCodeAt(0) === 0x23 ? 0 : nextHashLine(text, 0);
    at >= 0;
    at = nextHashLine(text, at)
  ) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    if (end > at && text.charCodeAt(end - 1) === 13) end--;
    if (text.startsWith(HEADER, at)) session++;
    else if (
      text.startsWith('####', at) &&
      (end - at === 4 || text.charCodeAt(at + 4) === 0x20) &&
      end - at >= 2 &&
      text.charCodeAt(end - 1) === 0x20 &&
      text.charCodeAt(end - 2) === 0x20
    )
      recent[session] = true;
  }
  return recent;
}

/** Start of the next line after `from` that begins with `#`, or -1. */
function nextHashLine(text: string, from: number): number {
  const i = text.indexOf('\n#', from);
  return i < 0 ? -1 : i + 1;
}

function isPromptStart(line: string): boolean {
  return line.startsWith('####') && (line.length === 4 || line.charCodeAt(4) === 0x20);
}

/**
 * The prompt text of a `#### ` line, or undefined when the line is not a prompt: in a recent session
 * a prompt line ends with two spaces (else it is a `####` heading of the model's reply); in an old
 * one, a `#### ` line inside a code block of the reply is code.
 */
export function promptLine(line: string, recent: boolean, inReply: boolean): string | undefined {
  if (!isPromptStart(line)) return undefined;
  if (recent ? !line.endsWith('  ') : inReply) return undefined;
  return line.slice(5).trimEnd();
}

/**
 * Old-style prompts put blank lines between their lines; a command is a prompt of its own, except
 * inside the prompt `/help` builds from aider's docs (which quote commands).
 */
export function continues(open: Turn, next: string, recent: boolean): boolean {
  if (recent) return false;
  // Both checks read the first line only (the expansion's start and a command word hold no newline):
  // joining every line of a long prompt for each of its lines would be quadratic.
  const first = open.firstLine;
  if (first.startsWith(HELP_EXPANSION)) return true;
  return commandOf(next) === undefined && commandOf(first) === undefined;
}

/** The aider command a prompt starts with (`/add x` → `add`, prefixes resolved as aider does), or undefined. */
function commandOf(prompt: string): string | undefined {
  if (prompt.startsWith('!')) return 'run';
  if (!/^\/[a-z]/.test(prompt)) return undefined;
  let end = 1;
  while (end < prompt.length && prompt.charCodeAt(end) > 0x20) end++;
  const name = prompt.slice(1, end);
  if (COMMANDS.includes(name)) return name;
  const matches = COMMANDS.filter((c) => c.startsWith(name));
  if (matches.length === 1) return matches[0];
  // Ambiguous (`/a`): aider runs nothing; not a command word at all: prose the person typed.
  return matches.length > 1 ? 'ambiguous' : undefined;
}

/** A chat command waiting for aider to log its text again as a prompt. */
export interface Echo {
  message: Message;
  text: string;
  command: string;
}

/**
 * Flags a prompt message no person wrote, and handles aider's echoes: `/ask how…` is logged again as
 * the prompt `how…` (the command copy is flagged once its echo appears), and `/help how…` is followed
 * by the prompt aider builds from its docs (`# Question: how…`, flagged). Returns the pending echo for
 * the next prompt.
 */
export function settlePrompt(m: Message, echo: Echo | undefined): Echo | undefined {
  const content = m.content;
  const kind = promptKind(content);
  if (kind !== undefined) m.synthetic = kind;
  if (echo && content.trim() === echo.text) echo.message.synthetic = 'command';
  else if (echo?.command === 'help' && content.startsWith(HELP_EXPANSION)) m.synthetic = 'command';
  const command = commandOf(content);
  if (command === undefined || !CHAT_COMMANDS.has(command)) return undefined;
  const text = content.slice(content.search(/\s|$/)).trim();
  if (text === '') {
    m.synthetic = 'command';
    return undefined;
  }
  return { message: m, text, command };
}

function promptKind(content: string): SyntheticKind | undefined {
  if (content === '<blank>' || content.includes('(Y)es/(N)o')) return 'confirmation';
  const command = commandOf(content);
  // aider takes every prompt that starts with "/" as a command: one it does not know ("/grep x",
  // "/cde i agree") gets "Invalid command" and never reaches the model.
  if (command === undefined) return content.startsWith('/') ? 'command' : undefined;
  if (command === 'undo' || CHAT_COMMANDS.has(command)) return undefined;
  return 'command';
}

/**
 * Equal up to white space: aider adds two spaces to every prompt line, and a hand-off logs the reply
 * with runs of spaces folded (`1.  Step` → `1. Step`) and some of its blank lines dropped.
 */
export function sameText(prompt: string, reply: string): boolean {
  if (prompt.length > reply.length && prompt.length > reply.length + 2 * countLines(reply)) return false;
  // The first lines first: most replies differ there, and are not squashed whole for nothing.
  if (squash(firstLine(prompt)) !== squash(firstLine(reply))) return false;
  return squash(prompt) === squash(reply);
}

/** The text's first line with any characters on it (the whole text when it has one line). */
function firstLine(text: string): string {
  const start = text.length - text.trimStart().length;
  const nl = text.indexOf('\n', start);
  return nl < 0 ? text.slice(start) : text.slice(start, nl);
}

/**
 * A hand-off's text after the reasoning it carries, or undefined when it carries none: aider hands the
 * architect's whole output on, and when the model wrote only a closing tag (a lone `</think>` line)
 * the reply read is what follows it.
 */
export function afterReasoning(prompt: string): string | undefined {
  // A native search first: most prompts hold no closing tag, and the line regex would read them all.
  if (!prompt.includes('</think')) return undefined;
  const at = prompt.search(LONE_CLOSE_IN);
  return at < 0 ? undefined : prompt.slice(prompt.indexOf('>', at) + 1).trimStart();
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

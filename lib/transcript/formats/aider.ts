/**
 * aider chat histories (`.aider.chat.history.md`): `# aider chat started at …` opens a session, each
 * line of a user prompt starts with `#### `, lines starting with `> ` are aider's own output (edits
 * applied, test and lint failures, commits, questions), everything else is the model's reply.
 *
 * A reasoning model's thoughts, which aider writes in the reply between `<thinking-content-…>` and
 * `</thinking-content-…>` (or `<think>` and `</think>`), are not the reply: ignored and counted
 * (`thinking`), as Claude Code's thinking blocks and SpecStory's `<think>` are. A block left open ends
 * at the next prompt or session header, so a broken history loses no turn.
 *
 * aider has written prompts two ways: recent versions end every prompt line with two spaces (a
 * Markdown line break) and keep a multi-line prompt's lines consecutive; old versions (≤ 0.50) leave
 * no trailing spaces and put a blank line between a prompt's lines. A session with any prompt line
 * ending in two spaces is read the recent way, so that the model's own `#### ` headings (no trailing
 * spaces) stay in its reply.
 */
import type { Prepared } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import type { Message, SyntheticKind } from '../types.js';
import { reasoningClose } from './reasoning.js';
import type { ParseState } from './result.js';
import { Turn } from './text-turns.js';

const HEADER = '# aider chat started at ';
const FENCE = '```';
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

/** Starts of output lines that report a failure (API errors, lint, a reply aider could not apply…). */
const ERROR_STARTS = [
  'Error',
  'Traceback',
  'FAILED',
  'Failed',
  'Invalid command',
  'litellm.',
  'The LLM did not conform',
  '# Fix any errors below',
  'Unable to',
];
/** The first characters of {@link ERROR_STARTS}: most lines are passed over on one comparison. */
const ERROR_FIRSTS = new Set(ERROR_STARTS.map((s) => s.charCodeAt(0)));

/**
 * Parses an aider chat history into `state`. Each session header becomes a `system` message (`ts`
 * from its local time); prompts become `user` messages (housekeeping commands, yes/no answers, blank
 * prompts, the prompts aider builds itself and architect hand-offs flagged `synthetic`; `/undo`
 * never); aider's output runs become `tool` messages with `toolName: 'aider'` (`isError` on
 * failures); the rest are `assistant` messages.
 *
 * @example
 * ```ts
 * parseAider({ kind: 'text', text: '# aider chat started at 2025-01-02 10:00:00\n\n#### fix the test  \n\nDone.\n\n> Applied edit to a.py  \n' }, state);
 * ```
 */
export function parseAider(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'text')
    throw state.sink.error('Expected aider chat history text (.aider.chat.history.md), got a JSON value');
  const text = prepared.text;
  const recent = recentSessions(text);
  let session = 0;
  let found = false;
  let preamble = false;
  let firstContent = 0;
  let turn: Turn | undefined;
  /** Last line was blank while a prompt was open: an old-style prompt may go on after it. */
  let gap = false;
  let fenced = false;
  let echo: Echo | undefined;
  let reply: Message | undefined;
  /**
   * A prompt was read in this session. Only a reply to a prompt can be handed on as the next one:
   * text before the first prompt is aider's launch output (`aider --architect --message <task>`
   * wraps the task onto lines without `> `), and the task, logged next as the first prompt, is the
   * person's.
   */
  let prompted = false;
  /** The closing tag of the reasoning block being passed over, or undefined outside one. */
  let thinking: string | undefined;
  const flush = (): void => {
    if (!turn) return;
    const m = turn.toMessage();
    if (m.role === 'tool' && isFailure(m.content)) m.isError = true;
    if (m.role === 'user') {
      echo = settlePrompt(m, echo);
      // Architect mode: aider hands the architect model's reply to the editor model as a prompt.
      if (reply !== undefined && sameText(m.content, reply.content)) m.synthetic = 'handoff';
      reply = undefined;
      prompted = true;
    } else if (m.role === 'assistant') reply = prompted ? m : undefined;
    state.messages.push(m);
    turn = undefined;
  };
  forEachLine(text, (line, n) => {
    if (thinking !== undefined) {
      if (!line.startsWith(HEADER) && promptLine(line, recent[session] === true, false) === undefined) {
        if (line.includes(thinking)) thinking = undefined;
        return undefined;
      }
      thinking = undefined;
    }
    if (isBlank(line)) {
      if (turn?.role === 'user') gap = true;
      else turn?.add('', true);
      return undefined;
    }
    if (firstContent === 0) firstContent = n;
    if (line.startsWith(HEADER)) {
      flush();
      reply = undefined;
      prompted = false;
      session++;
      found = true;
      fenced = false;
      state.messages.push(sessionMessage(line, n));
      return undefined;
    }
    const inReply = turn?.role === 'assistant' && fenced;
    const prompt = promptLine(line, recent[session] === true, inReply);
    if (prompt !== undefined) {
      found = true;
      fenced = false;
      const open = turn?.role === 'user' ? turn : undefined;
      if (!open || (gap && !continues(open, prompt, recent[session] === true))) {
        flush();
        turn = new Turn('user', n);
      }
      turn!.add(prompt, prompt === '');
      gap = false;
      return undefined;
    }
    gap = false;
    if (!inReply && (line === '>' || line.startsWith('> '))) {
      if (turn?.role !== 'tool') {
        flush();
        turn = new Turn('tool', n);
        turn.toolName = 'aider';
      }
      turn.add(line.slice(2).trimEnd());
      return undefined;
    }
    if (!inReply) {
      const close = reasoningClose(line);
      if (close !== undefined) {
        // The model's output starts: a prompt or aider's output before it is over.
        if (turn?.role !== 'assistant') flush();
        state.sink.ignore('thinking');
        if (!line.includes(close, line.indexOf('>') + 1)) thinking = close;
        return undefined;
      }
    }
    if (turn?.role !== 'assistant') {
      flush();
      if (!found) {
        preamble = true;
        return undefined;
      }
      turn = new Turn('assistant', n);
      fenced = false;
    }
    if (line.trimStart().startsWith(FENCE)) fenced = !fenced;
    turn.add(line);
    return undefined;
  });
  flush();
  if (preamble) state.sink.ignore('preamble');
  if (!found) {
    throw state.sink.error(
      'No aider chat found: expected a "# aider chat started at …" line or "#### " prompt lines',
      { line: firstContent || 1 },
    );
  }
}

/**
 * Per session (0 = before the first header), whether some prompt line ends with two spaces: the
 * mark of a recent aider. One extra linear pass over the lines.
 */
function recentSessions(text: string): boolean[] {
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
function promptLine(line: string, recent: boolean, inReply: boolean): string | undefined {
  if (!isPromptStart(line)) return undefined;
  if (recent ? !line.endsWith('  ') : inReply) return undefined;
  return line.slice(5).trimEnd();
}

/**
 * Old-style prompts put blank lines between their lines; a command is a prompt of its own, except
 * inside the prompt `/help` builds from aider's docs (which quote commands).
 */
function continues(open: Turn, next: string, recent: boolean): boolean {
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
interface Echo {
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
function settlePrompt(m: Message, echo: Echo | undefined): Echo | undefined {
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

/** Equal up to trailing spaces on each line (aider adds two to every prompt line) and outer blank lines. */
function sameText(prompt: string, reply: string): boolean {
  if (prompt.length > reply.length && prompt.length > reply.length + 2 * countLines(reply)) return false;
  const p = normalise(prompt);
  // The normalised reply starts at the reply's first non-space character with the prompt's first
  // line: most replies differ there, and are not split and joined again for nothing.
  const nl = p.indexOf('\n');
  if (!reply.trimStart().startsWith(nl < 0 ? p : p.slice(0, nl))) return false;
  return p === normalise(reply);
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function normalise(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

function isFailure(output: string): boolean {
  // Line by line without splitting the output (it can be a long test log); no start holds a newline,
  // so a match at a line's start stays inside the line.
  for (let at = 0; at < output.length; ) {
    if (ERROR_FIRSTS.has(output.charCodeAt(at))) {
      for (const start of ERROR_STARTS) if (output.startsWith(start, at)) return true;
    }
    const end = output.indexOf('\n', at);
    if (end < 0) break;
    at = end + 1;
  }
  return false;
}

/** `# aider chat started at 2025-05-04 17:02:36` → a system message, `ts` in ISO local time. */
function sessionMessage(line: string, n: number): Message {
  const m: Message = { id: `m${n}`, role: 'system', content: line.slice(2).trim(), source: { line: n } };
  const when = line.slice(HEADER.length).trim();
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(when)) m.ts = when.replace(' ', 'T');
  return m;
}

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
import type { Message } from '../types.js';
import {
  afterReasoning,
  continues,
  type Echo,
  HEADER,
  promptLine,
  recentSessions,
  sameText,
  settlePrompt,
} from './aider-prompts.js';
import { LONE_CLOSE, reasoningClose } from './reasoning.js';
import type { ParseState } from './result.js';
import { Turn } from './text-turns.js';

/**
 * aider's report of edits that failed to apply: `# 1 SEARCH/REPLACE block failed to match!` in an
 * output line, then the failed blocks in lines without `> ` (aider writes `> ` on an output's first
 * line only), ending with {@link EDIT_ERROR_END} and, when some blocks applied, the {@link EDIT_ERROR_TAIL}.
 */
const EDIT_ERROR = /^# \d+ SEARCH\/REPLACE blocks? failed to match!/;
const EDIT_ERROR_END = 'The SEARCH section must exactly match an existing block of lines';
const EDIT_ERROR_TAIL =
  /^(?:# The other \d+ SEARCH\/REPLACE blocks? (?:were|was) applied successfully\.|Don't re-send them\.|Just reply with fixed versions of the blocks? above that failed to match\.)/;
const FENCE = '```';
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
  /** 1 inside aider's report of failed edits (after {@link EDIT_ERROR}), 2 after its closing sentence. */
  let editError = 0;
  const flush = (): void => {
    if (!turn) return;
    const m = turn.toMessage();
    if (m.role === 'tool' && isFailure(m.content)) m.isError = true;
    if (m.role === 'user') {
      echo = settlePrompt(m, echo);
      // Architect mode: aider hands the architect model's reply to the editor model as a prompt.
      if (reply !== undefined && handsOff(m.content, reply.content)) m.synthetic = 'handoff';
      reply = undefined;
      prompted = true;
    } else if (m.role === 'assistant') reply = prompted ? m : undefined;
    state.messages.push(m);
    turn = undefined;
  };
  /**
   * Adds a line of aider's own output, opening an output turn when the current one is not: its `> `
   * lines, and the lines without it that go on a multi-line output (aider marks the first only).
   */
  const output = (line: string, n: number): void => {
    if (turn?.role !== 'tool') {
      flush();
      turn = new Turn('tool', n);
      turn.toolName = 'aider';
    }
    turn!.add(line);
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
      editError = 0;
      state.messages.push(sessionMessage(line, n));
      return undefined;
    }
    const inReply = turn?.role === 'assistant' && fenced;
    const prompt = promptLine(line, recent[session] === true, inReply);
    if (prompt !== undefined) {
      found = true;
      fenced = false;
      editError = 0;
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
    if (editError !== 0 && turn?.role === 'tool') {
      // The failed blocks and the closing sentences of aider's report are its output, not a reply
      // (the model's answer to the report follows them).
      if (editError === 1 || EDIT_ERROR_TAIL.test(line)) {
        if (line.startsWith(EDIT_ERROR_END)) editError = 2;
        output(line.trimEnd(), n);
        return undefined;
      }
      editError = 0;
    }
    if (!inReply && (line === '>' || line.startsWith('> '))) {
      const out = line.slice(2).trimEnd();
      if (out.charCodeAt(0) === 0x23 && EDIT_ERROR.test(out)) editError = 1;
      output(out, n);
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
      // No model has replied before the session's first prompt: a bare line there goes on with aider's
      // output, which writes `> ` on the first line of a multi-line output only (the launch command's
      // `--message` task, a `--verbose` config listing).
      if (!prompted && session > 0 && turn?.role !== 'user') {
        output(line.trimEnd(), n);
        return undefined;
      }
      flush();
      if (!found) {
        preamble = true;
        return undefined;
      }
      turn = new Turn('assistant', n);
      fenced = false;
    }
    // The length first, so most reply lines skip the regex (a closing tag line is short).
    if (!fenced && line.length <= 32 && LONE_CLOSE.test(line)) {
      // A closing tag with no opening one: a model whose chat template opens the reasoning block itself
      // (DeepSeek-R1's distills) writes only the end of it, so the reply so far was its reasoning.
      state.sink.ignore('thinking');
      turn = undefined;
      return undefined;
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

/** Whether a prompt repeats the reply before it, or that reply after the reasoning the prompt carries. */
function handsOff(prompt: string, reply: string): boolean {
  if (sameText(prompt, reply)) return true;
  const after = afterReasoning(prompt);
  return after !== undefined && sameText(after, reply);
}

/** `# aider chat started at 2025-05-04 17:02:36` → a system message, `ts` in ISO local time. */
function sessionMessage(line: string, n: number): Message {
  const m: Message = { id: `m${n}`, role: 'system', content: line.slice(2).trim(), source: { line: n } };
  const when = line.slice(HEADER.length).trim();
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(when)) m.ts = when.replace(' ', 'T');
  return m;
}

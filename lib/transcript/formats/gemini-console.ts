/**
 * Gemini CLI terminal transcripts (text copied from the terminal). The prompt sits in a box
 * (`╭─╮` / `│ > prompt │` / `╰─╯`) or on a `> ` line; the agent's replies start with `✦` and continue
 * on indented lines; tool calls are boxes whose lines start with a status glyph (`✓`/`✔` done,
 * `✗`/`✘`/`✖` failed, `o`/`?`/`-` pending or cancelled) and the tool's name, the output below it in the
 * same box. Other boxes (welcome banner, tips) and loose lines are ignored, counted by kind.
 *
 * One pass over the lines; a box left open ends at the first line not drawn as a box row.
 */
import type { Prepared } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import type { Message } from '../types.js';
import type { ParseState } from './result.js';
import { CANCELLED } from './specstory-notices.js';
import { dedent, Turn } from './text-turns.js';
import { WrapJoiner } from './wrap-joiner.js';

const AGENT = '\u2726'; // ✦
const BOX_TOP = 0x256d; // ╭
const BOX_SIDE = 0x2502; // │
const BOX_BOTTOM = 0x2570; // ╰
/**
 * What the input box shows before anything is typed: the box at the end of a copy (or redrawn
 * mid-session) holds no prompt of the person's.
 */
const PLACEHOLDER = 'Type your message or @path/to/file';
/** The status glyph of a call the person cancelled (Gemini CLI's `Canceled`). */
const CANCELED = '-';
/** Status glyph → failed? */
const STATUS = new Map<string, boolean>([
  ['\u2713', false], // ✓
  ['\u2714', false], // ✔
  ['\u2717', true], // ✗
  ['\u2718', true], // ✘
  ['\u2716', true], // ✖
  ['x', true],
  ['o', false],
  ['?', false],
  ['-', false],
]);

/**
 * Parses a Gemini CLI terminal transcript into `state`.
 *
 * @example
 * ```ts
 * parseGeminiConsole({ kind: 'text', text: '╭──╮\n│ > hi │\n╰──╯\n✦ Hello.' }, state);
 * ```
 */
export function parseGeminiConsole(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'text') throw state.sink.error('Expected Gemini CLI terminal text, got a JSON value');
  const { sink } = state;
  let turn: Turn | undefined;
  /** Rows of the open box: their inner text and line numbers. */
  let box: { rows: { text: string; line: number }[] } | undefined;
  let ignoring = '';
  let found = 0;
  state.meta = { agent: 'gemini-cli' };
  /** The terminal's wraps in the prose, joined once the copy is read (not with `keepLineBreaks`). */
  const wraps = new WrapJoiner(state.keepLineBreaks !== true);

  const flush = (): void => {
    if (turn) {
      wraps.push(turn, state.messages);
      found++;
    }
    turn = undefined;
  };
  const ignore = (kind: string): void => {
    if (ignoring !== kind) sink.ignore(kind);
    ignoring = kind;
  };
  const closeBox = (): void => {
    if (box) found += emitBox(box.rows, state, wraps);
    box = undefined;
    ignoring = '';
  };

  forEachLine(prepared.text, (raw, n) => {
    wraps.line(raw);
    const line = dedent(raw, 4);
    const c = line.charCodeAt(0);
    if (box) {
      if (c === BOX_SIDE) {
        box.rows.push({ text: boxRow(line), line: n });
        return undefined;
      }
      const bottom = c === BOX_BOTTOM;
      closeBox();
      if (bottom) return undefined;
    }
    if (c === BOX_TOP) {
      flush();
      box = { rows: [] };
      return undefined;
    }
    if (isBlank(line)) {
      turn?.add('', true);
      return undefined;
    }
    if (line.startsWith(AGENT)) {
      flush();
      turn = new Turn('assistant', n);
      wraps.add(turn, line.slice(AGENT.length).trimStart(), raw);
      ignoring = '';
      return undefined;
    }
    if (c === 0x3e /* > */ && (line.length === 1 || line.charCodeAt(1) === 0x20)) {
      flush();
      if (line.slice(1).trim() === PLACEHOLDER) {
        ignore('input box');
        return undefined;
      }
      turn = new Turn('user', n);
      turn.console = true;
      wraps.add(turn, line.slice(2), raw);
      ignoring = '';
      return undefined;
    }
    if (turn && raw.charCodeAt(0) === 0x20) {
      wraps.add(turn, dedent(raw, 2), raw);
      return undefined;
    }
    flush();
    ignore('other');
    return undefined;
  });
  closeBox();
  flush();
  wraps.finish(state.messages);
  if (found === 0) {
    throw sink.error('No Gemini CLI prompt, reply (✦) or tool box found', { line: 1 });
  }
}

/** `│ text   │` → `text` (the side bars and the padding removed, inner indentation kept but one). */
function boxRow(line: string): string {
  let end = line.length;
  while (end > 1 && line.charCodeAt(end - 1) === 0x20) end--;
  if (end > 1 && line.charCodeAt(end - 1) === BOX_SIDE) end--;
  while (end > 1 && line.charCodeAt(end - 1) === 0x20) end--;
  const inner = line.slice(1, end);
  return inner.charCodeAt(0) === 0x20 ? inner.slice(1) : inner;
}

/** Turns one box into messages; returns how many it made (0 for banners and tips). */
function emitBox(rows: { text: string; line: number }[], state: ParseState, wraps: WrapJoiner): number {
  let first = 0;
  while (first < rows.length && isBlank(rows[first]!.text)) first++;
  if (first === rows.length) {
    state.sink.ignore('box');
    return 0;
  }
  const head = rows[first]!.text;
  const lead = head.trimStart();
  if (lead.startsWith('> ') || lead === '>') {
    if (lead.slice(1).trim() === PLACEHOLDER) {
      state.sink.ignore('input box');
      return 0;
    }
    // Continuation rows are indented to the prompt's text, past the `> `.
    const indent = head.length - lead.length + 2;
    const turn = new Turn('user', rows[first]!.line);
    turn.console = true;
    // The box's inner text is what the terminal wrapped (at the box's inner width).
    wraps.add(turn, lead.slice(2), head);
    for (let i = first + 1; i < rows.length; i++) {
      const t = rows[i]!.text;
      if (isBlank(t)) turn.add('', true);
      else wraps.add(turn, dedent(t, indent), t);
    }
    wraps.push(turn, state.messages);
    return 1;
  }
  if (statusOf(head) === undefined) {
    state.sink.ignore('box');
    return 0;
  }
  let made = 0;
  let call: { turn: Turn; failed: boolean; canceled: boolean } | undefined;
  let output: Turn | undefined;
  const end = (): void => {
    if (!call) return;
    const callMessage = call.turn.toMessage();
    state.messages.push(callMessage);
    made++;
    if (output && output.content.length > 0) {
      const m: Message = output.toMessage();
      if (call.failed) m.isError = true;
      state.messages.push(m);
      made++;
    } else if (call.canceled) {
      // A call the person stopped or declined: `Cancelled`, an error that is no tool failure
      // (`declinedCall`), and an interruption the person's next turn answers.
      state.messages.push({
        ...callMessage,
        id: `${callMessage.id}.out`,
        role: 'tool',
        content: CANCELLED,
        isError: true,
      });
      made++;
    } else if (call.failed) {
      state.messages.push({
        ...callMessage,
        id: `${callMessage.id}.err`,
        role: 'tool',
        content: 'failed',
        isError: true,
      });
      made++;
    }
    call = undefined;
    output = undefined;
  };
  for (let i = first; i < rows.length; i++) {
    const { text, line: n } = rows[i]!;
    const failed = statusOf(text);
    if (failed !== undefined) {
      end();
      const rest = text.slice(1).trimStart();
      const space = rest.indexOf(' ');
      const name = space < 0 ? rest : rest.slice(0, space);
      const turn = new Turn('assistant', n);
      turn.toolName = name;
      turn.toolUseId = `m${n}`;
      turn.add(space < 0 ? '' : rest.slice(space + 1).trim());
      call = { turn, failed, canceled: text.charAt(0) === CANCELED };
      output = new Turn('tool', n + 1);
      output.toolName = name;
      output.toolUseId = `m${n}`;
      continue;
    }
    output?.add(dedent(text, 3), isBlank(text));
  }
  end();
  return made;
}

/** Whether a box row starts a tool call (`✓ ReadFile …`): failed or not, else undefined. */
function statusOf(text: string): boolean | undefined {
  const glyph = text.charAt(0);
  const failed = STATUS.get(glyph);
  if (failed === undefined || text.charCodeAt(1) !== 0x20) return undefined;
  // ASCII glyphs only count before a capitalised tool name (`x  Shell …`), not before prose.
  if (glyph.charCodeAt(0) < 0x80) {
    const rest = text.slice(1).trimStart();
    const c = rest.charCodeAt(0);
    if (!(c >= 0x41 && c <= 0x5a)) return undefined;
  }
  return failed;
}

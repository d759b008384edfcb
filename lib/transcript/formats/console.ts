/**
 * Claude Code terminal transcripts (copied from the console): `> ` starts a user prompt, `⏺` an
 * agent line (`⏺ Tool(args)…` is a tool call, as are `⏺ Update Todos`, `⏺ Read Todos` and `⏺ User
 * approved Claude's plan:`), `⎿` a tool's output; indented lines continue the
 * current block. The welcome box, `✔` status lines, `✻ Thinking…` blocks, spinners and cost
 * summaries are counted in `ignoredKinds`.
 */

import type { Prepared } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import { noteCwd, type ParseState } from './result.js';
import { dedent, Turn } from './text-turns.js';

const AGENT = '\u23fa'; // ⏺
const OUTPUT = '\u23bf'; // ⎿
const TOOL_CALL = /^([A-Za-z_][\w.:-]{0,80})\(/;
/**
 * Tool calls the console shows without arguments, by their whole line → the tool's name: the to-do
 * list written or read (its items follow under `⎿`) and a plan the person approved (the plan follows).
 */
const BARE_CALLS: ReadonlyMap<string, string> = new Map([
  ['Update Todos', 'TodoWrite'],
  ['Read Todos', 'TodoRead'],
  ["User approved Claude's plan:", 'ExitPlanMode'],
]);

/**
 * Parses a console transcript into `state`.
 *
 * @example
 * ```ts
 * parseConsole({ kind: 'text', text: '> hi\n\n⏺ Read(file_path: "a.md")…\n  ⎿  # A' }, state);
 * ```
 */
export function parseConsole(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'text') throw state.sink.error('Expected console text, got a JSON value');
  let turn: Turn | undefined;
  /** Kind of the ignored block being skipped (consecutive lines of one kind count once), or ''. */
  let ignoring = '';
  let lastCall: { name: string; id: string } | undefined;
  let indent = 2;
  const flush = (): void => {
    if (turn) {
      const m = turn.toMessage();
      if (m.role === 'tool' && m.content.startsWith('Error')) m.isError = true;
      state.messages.push(m);
    }
    turn = undefined;
    ignoring = '';
  };
  const ignore = (kind: string): void => {
    if (ignoring !== kind) state.sink.ignore(kind);
    ignoring = kind;
  };
  forEachLine(prepared.text, (line, n) => {
    if (isBlank(line)) {
      turn?.add('', true);
      return undefined;
    }
    const c = line.charCodeAt(0);
    if (c === 0x3e /* > */ && (line.length === 1 || line.charCodeAt(1) === 0x20)) {
      flush();
      turn = new Turn('user', n);
      turn.console = true;
      indent = 2;
      turn.add(line.slice(2));
      lastCall = undefined;
      return undefined;
    }
    if (line.startsWith(AGENT)) {
      flush();
      const rest = line.slice(AGENT.length).trimStart();
      const bare = BARE_CALLS.get(rest.trimEnd());
      const call = bare === undefined ? TOOL_CALL.exec(rest) : null;
      turn = new Turn('assistant', n);
      indent = 2;
      if (bare !== undefined) {
        turn.toolName = bare;
        turn.toolUseId = `m${n}`;
        lastCall = { name: bare, id: `m${n}` };
      } else if (call) {
        const name = call[1]!;
        turn.toolName = name;
        turn.toolUseId = `m${n}`;
        lastCall = { name, id: `m${n}` };
        turn.add(stripCall(rest.slice(call[0].length)));
      } else {
        lastCall = undefined;
        turn.add(rest);
      }
      return undefined;
    }
    const trimmed = line.trimStart();
    if (trimmed.startsWith(OUTPUT)) {
      const text = dedent(trimmed.slice(OUTPUT.length), 2);
      if (turn?.role !== 'tool') {
        flush();
        turn = new Turn('tool', n);
        indent = 5;
        if (lastCall) {
          turn.toolName = lastCall.name;
          turn.toolUseId = lastCall.id;
        }
      }
      turn.add(text);
      return undefined;
    }
    if (c === 0x20 || c === 0x09 || c === 0xa0) {
      if (trimmed.startsWith('\u2714')) {
        // ' ✔  Loaded project memory': a status line even when indented.
        if (turn) flush();
        ignore('status');
      } else if (turn) turn.add(dedent(line, indent));
      else if (!ignoring) ignore('other');
      return undefined;
    }
    if (turn) flush();
    // The welcome box names the folder the session runs in: `│   cwd: /Users/ana/proj  │`.
    if (c === 0x2502) noteCwd(state, BOX_CWD.exec(line)?.[1]);
    ignore(ignoredKind(line));
    return undefined;
  });
  flush();
}

/** The welcome box's `cwd:` line (its right border after the padding). */
const BOX_CWD = /^\u2502\s+cwd: (\S(?:.*\S)?)\s*\u2502\s*$/;

/** `(args)…` → `args`: the call's argument text without the parentheses and the ellipsis. */
function stripCall(afterParen: string): string {
  let end = afterParen.length;
  if (afterParen.endsWith('\u2026')) end--;
  if (end > 0 && afterParen.charCodeAt(end - 1) === 0x29 /* ) */) end--;
  return afterParen.slice(0, end);
}

function ignoredKind(line: string): string {
  const c = line.charAt(0);
  if (c === '\u256d' || c === '\u2502' || c === '\u2570') return 'box';
  if (c === '\u2714') return 'status';
  if (line.startsWith('\u273b Thinking')) return 'thinking';
  if (c === '=' && line.includes('Compacted')) return 'compacted';
  if (line.startsWith('Total ') || line.startsWith('Token usage')) return 'cost';
  return 'other';
}

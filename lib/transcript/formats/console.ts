/**
 * Claude Code terminal transcripts (copied from the console): `> ` (`❯ ` in later versions) starts
 * a user prompt; `⏺` an agent line (`●` on terminals whose font lacks `⏺`: Linux, Windows), and
 * `⏺ Tool(args)` a tool call, as are `⏺ Update Todos`, `⏺ Read Todos`, `⏺ User approved
 * Claude's plan:` and the later consoles' folded calls (`⏺ Read 1 file (ctrl+o to expand)`); `⎿` a
 * tool's output; indented lines continue the current block (in a copy that lost its indents, lines
 * at the margin do). The welcome box, the input box's `────` rules, `✔` status lines, `✻ Thinking…`
 * blocks, spinners and cost summaries are counted in `ignoredKinds`; an empty prompt is no turn.
 */

import type { Prepared } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import { trimmedEnd } from './console-wrap.js';
import { noteCwd, type ParseState } from './result.js';
import { dedent, Turn } from './text-turns.js';
import { WrapJoiner } from './wrap-joiner.js';

const PROMPT = 0x3e; // >
/** The prompt mark of later consoles. */
const PROMPT_NEW = 0x276f; // ❯
const AGENT = 0x23fa; // ⏺
/** The agent's mark on Linux and Windows terminals, whose fonts lack `⏺`. */
const AGENT_ALT = 0x25cf; // ●
const OUTPUT = '\u23bf'; // ⎿
/** `Read(…)`, and the later consoles' two-word names: `Task Output(non-blocking) b48ae3f`, `Web Search(…)`. */
const TOOL_CALL = /^([A-Za-z_][\w.:-]{0,80}(?: [A-Z][A-Za-z]{1,30})?)\(/;
/**
 * Later consoles fold a run of calls into one summary line: `Read 1 file (ctrl+o to expand)`, `Searched
 * for 2 patterns, read 1 file (ctrl+o to expand)`, `2 Explore agents finished (ctrl+o to expand)`. It is
 * a call (named by its first word; `Task` for agents), never the agent's prose. Group 1: the summary.
 */
const FOLDED_CALLS = /^([A-Z0-9][^()\n]{0,200}?) +\(ctrl\+[or] to expand\)$/;
/**
 * The summary of a folded line (FOLDED_CALLS), or undefined. Asked of every agent line and every
 * indented line of the agent's prose, so the end is looked at in place and the regex runs only on a
 * line that ends as a folded one.
 */
function foldedSummary(text: string): string | undefined {
  const end = trimmedEnd(text);
  if (!text.startsWith(FOLDED_END, end - FOLDED_END.length)) return undefined;
  return FOLDED_CALLS.exec(text.slice(0, end))?.[1];
}
const FOLDED_END = ' to expand)';
/** The name a folded summary's call gets: its first word, or `Task` for a count of agents. */
const foldedName = (summary: string): string =>
  /^\d+ \S+ agents? /.test(summary) ? 'Task' : summary.slice(0, summary.search(/\s|$/));
/** No prompt starts with spaces; pytest's failing-line mark does (`>       assert`). */
const PYTEST_LINE = '>    ';
/** How far the console indents a call's arguments past its first line. */
const CALL_INDENT = 6;
/**
 * Tool calls the console shows without arguments, by their whole line → the tool's name: the to-do
 * list written or read (its items follow under `⎿`) and a plan the person approved (the plan follows).
 */
const BARE_CALLS: ReadonlyMap<string, string> = new Map([
  ['Update Todos', 'TodoWrite'],
  ['Read Todos', 'TodoRead'],
  ["User approved Claude's plan:", 'ExitPlanMode'],
  ["User approved Claude's plan", 'ExitPlanMode'],
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
  /** The current call's arguments went on past its first line, so its `)` closes the last one. */
  let openCall = false;
  /** The terminal's wraps in the prose, joined once the copy is read (not with `keepLineBreaks`). */
  const wraps = new WrapJoiner(state.keepLineBreaks !== true);
  /** Adds a line of prose to the current turn: measured, and joined at the end. */
  const addProse = (text: string, printed: string): void => {
    if (turn) wraps.add(turn, text, printed);
  };
  const flush = (): void => {
    // An empty prompt (the later consoles' input box, `>` between two rules) sends nothing: no turn.
    if (turn?.role === 'user' && turn.blank) turn = undefined;
    if (turn?.measured) wraps.push(turn, state.messages);
    else if (turn) {
      const m = turn.toMessage();
      if (m.role === 'tool' && m.content.startsWith('Error')) m.isError = true;
      // The last line closes the call, unless it is the console's `… (ctrl+r to expand)` note.
      if (openCall && !m.content.slice(m.content.lastIndexOf('\n') + 1).startsWith('\u2026')) {
        m.content = stripCall(m.content);
      }
      state.messages.push(m);
    }
    turn = undefined;
    ignoring = '';
    openCall = false;
  };
  /** Opens the agent's call `name` at line `n` as the current turn; its output (`⎿`) will be the call's. */
  const openCallTurn = (name: string, n: number): Turn => {
    turn = new Turn('assistant', n);
    turn.toolName = name;
    turn.toolUseId = `m${n}`;
    lastCall = { name, id: `m${n}` };
    return turn;
  };
  const ignore = (kind: string): void => {
    if (ignoring !== kind) state.sink.ignore(kind);
    ignoring = kind;
  };
  /**
   * The copy lost its indents (a Markdown rendering, a chat that trims lines): a call's output starts
   * at the margin (`⎿` in the first column) and none is indented. The console indents every line
   * that goes on a block, so in such a copy a line at the margin goes on the block it follows.
   */
  const flat = FLAT_OUTPUT.test(prepared.text) && !INDENTED_OUTPUT.test(prepared.text);
  /** The line before was a prompt's: a line at the margin right after it is the prompt wrapped. */
  let inPrompt = false;
  /** The line before was the first line of npm's banner: a `> ` line right after it is the banner's. */
  let banner = false;
  /** No line but blank ones yet: a copy that starts with indented prose starts inside the agent's reply. */
  let start = true;
  forEachLine(prepared.text, (read, n) => {
    let line = read;
    const wrapped = inPrompt;
    inPrompt = false;
    if (isBlank(line)) {
      banner = false;
      turn?.add('', true);
      return undefined;
    }
    wraps.line(line);
    let c = line.charCodeAt(0);
    const opening = start;
    start = false;
    if (isPrompt(line)) {
      if (wrapped && turn?.role === 'user') {
        // A copy quoted line by line (`> ` before each line of one prompt): the prompt goes on, and
        // a `>   ⎿  Interrupted by user` below it is the console's note, read as one.
        const rest = line.slice(2);
        if (!rest.trimStart().startsWith(OUTPUT)) {
          // A quoted copy's lines are not measured against the width: their breaks stay.
          turn.add(dedent(rest, 2));
          inPrompt = true;
          return undefined;
        }
        line = rest;
        c = line.charCodeAt(0);
      } else if (turn?.role === 'tool' && c === PROMPT && line.startsWith(PYTEST_LINE)) {
        // pytest marks the failing line `>       assert x`: in an output copied without its indent.
        turn.add(line);
        return undefined;
      } else if (turn?.role === 'tool' && c === PROMPT && (banner || NPM_BANNER.test(line))) {
        // npm's banner (`> pkg@1.0.0 test` then `> vitest run`) in an output copied without its indent.
        banner = !banner;
        turn.add(line);
        return undefined;
      }
    }
    banner = false;
    if (isPrompt(line)) {
      flush();
      turn = new Turn('user', n);
      turn.console = true;
      indent = 2;
      addProse(line.slice(2), line);
      lastCall = undefined;
      inPrompt = true;
      return undefined;
    }
    if (c === AGENT || c === AGENT_ALT) {
      flush();
      const rest = withoutCost(line.slice(1).trimStart());
      const folded = foldedSummary(rest);
      const bare = BARE_CALLS.get(rest.trimEnd()) ?? (folded === undefined ? undefined : foldedName(folded));
      const call = bare === undefined ? TOOL_CALL.exec(rest) : null;
      indent = 2;
      if (bare !== undefined) {
        const t = openCallTurn(bare, n);
        if (folded !== undefined) t.add(folded);
      } else if (call) {
        turn = openCallTurn(call[1]!, n);
        const args = rest.slice(call[0].length);
        // `…)` or `)…` closes it; a first line cut with `…` alone goes on below.
        const closed = args.endsWith(')') || args.endsWith(')\u2026');
        turn.add(closed ? stripCall(args) : args);
        if (!closed) {
          // The console wraps a long call (and breaks a multi-line command) onto lines indented by 6.
          openCall = true;
          indent = CALL_INDENT;
        }
      } else {
        turn = new Turn('assistant', n);
        lastCall = undefined;
        // As printed: an early console's cost note took the line's right end, so the text before it
        // was wrapped as if the line were full.
        addProse(rest, line);
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
      banner = NPM_BANNER.test(text);
      return undefined;
    }
    if (c === 0x20 || c === 0x09 || c === 0xa0) {
      const prose = turn?.role === 'assistant' && turn.toolName === undefined;
      // A folded summary under the agent's prose (`  Searched for 1 pattern (ctrl+o to expand)`).
      const folded = prose ? foldedSummary(trimmed) : undefined;
      if (trimmed.startsWith('\u2714')) {
        // ' ✔  Loaded project memory': a status line even when indented.
        if (turn) flush();
        ignore('status');
      } else if (folded !== undefined) {
        flush();
        openCallTurn(foldedName(folded), n).add(folded);
      } else if (turn) {
        if (prose || turn.role === 'user') addProse(dedent(line, indent), line);
        else turn.add(dedent(line, indent));
        inPrompt = wrapped;
      } else if (opening && line.startsWith('  ') && line.charCodeAt(2) > 0x20 && !BLOCKS.test(line)) {
        // A copy cut inside the agent's reply (its `⏺` line left above the cut): the reply's prose,
        // indented by two, so that the first prompt answers something. A call's output, indented by
        // five or more, stays unread: its call is above the cut.
        turn = new Turn('assistant', n);
        indent = 2;
        addProse(dedent(line, indent), line);
      } else if (!ignoring) ignore('other');
      return undefined;
    }
    // Some consoles (and copies) wrap a long prompt at the margin, with no indent.
    if (wrapped && turn?.role === 'user' && ignoredKind(line) === 'other') {
      addProse(line, line);
      inPrompt = true;
      return undefined;
    }
    // A copy without its indents: a line at the margin goes on the block it follows, past blank lines
    // (a pasted log's second paragraph, the agent's next paragraph, a call's output).
    if (flat && turn && ignoredKind(line) === 'other') {
      if (turn.role === 'user' || (turn.role === 'assistant' && turn.toolName === undefined))
        addProse(line, line);
      else turn.add(line);
      return undefined;
    }
    if (turn) flush();
    // The welcome box names the folder the session runs in: `│   cwd: /Users/ana/proj  │`.
    if (c === 0x2502) noteCwd(state, (BOX_CWD.exec(line) ?? BOX_PATH.exec(line))?.[1]);
    ignore(ignoredKind(line));
    return undefined;
  });
  flush();
  wraps.finish(state.messages);
}

/** A prompt line: `>` or `❯` alone, or followed by a space. */
function isPrompt(line: string): boolean {
  const c = line.charCodeAt(0);
  return (c === PROMPT || c === PROMPT_NEW) && (line.length === 1 || line.charCodeAt(1) === 0x20);
}

/** A call's output at the margin, and indented (see `flat` in {@link parseConsole}). */
const FLAT_OUTPUT = /^\u23bf/m;
const INDENTED_OUTPUT = /^[ \t]+\u23bf/m;

/**
 * npm's banner before a script's output: `> name@version script` (a scope allowed; pnpm adds the
 * folder: `> name@version script /path`), then `> command`.
 */
const NPM_BANNER = /^> (?:@[\w.-]+\/)?[\w.-]+@\d[\w.+-]* \S+(?: \S+)?$/;
/** The glyphs the console's spinner cycles through (`✻` is read as a status line already). */
const SPINNER = '\u00b7\u2722\u2733\u2736\u273d';
/** The later consoles' logo (`▐▛███▜▌`) is drawn with block elements: never the agent's prose. */
const BLOCKS = /[\u2580-\u259f]/;

/** The welcome box's `cwd:` line (its right border after the padding). */
const BOX_CWD = /^\u2502\s+cwd: (\S(?:.*\S)?)\s*\u2502\s*$/;
/** Later boxes show the folder alone in their left pane: `│   /home/ana/proj   │  Tips …  │`. */
const BOX_PATH = /^\u2502\s+((?:\/|[A-Za-z]:\\)[^\s\u2502]*)\s+\u2502/;

/** Early consoles print each agent line's cost at its right edge: `…   Cost: $0.0745 (13.2s)`. */
const COST = /^Cost: \$\d+(?:\.\d+)? \(\d+(?:\.\d+)?s\)$/;

function withoutCost(line: string): string {
  if (!line.endsWith('s)')) return line;
  // Anchored at the last `Cost: $` so that a long run of padding is read once.
  const at = line.lastIndexOf('Cost: $');
  if (at < 2 || line.charCodeAt(at - 1) !== 0x20 || line.charCodeAt(at - 2) !== 0x20) return line;
  return COST.test(line.slice(at)) ? line.slice(0, at).trimEnd() : line;
}

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
  // A `────` rule: the border of the later consoles' input box (`> ` between two rules, then a status
  // line such as `⏵⏵ accept edits on`), never a prompt wrapped at the margin.
  if (c === '\u2500') return 'rule';
  if (c === '\u2714') return 'status';
  if (line.startsWith('\u273b Thinking')) return 'thinking';
  // `✻ Brewed for 1m 5s`, `✻ Worked for 46s · 1 background task still running`.
  if (c === '\u273b') return 'status';
  // The spinner's frames: `· Creating… (0s · esc to interrupt)`, `✶ Pondering…` (in a copy without its
  // indents, never a block's next line).
  if (SPINNER.includes(c) && line.charCodeAt(1) === 0x20 && line.includes('\u2026')) return 'status';
  if (c === '=' && line.includes('Compacted')) return 'compacted';
  if (line.startsWith('Total ') || line.startsWith('Token usage')) return 'cost';
  return 'other';
}

/**
 * SpecStory exports (`.specstory/history/*.md`, from Cursor, VS Code Copilot, Claude Code, Codex CLI
 * and Gemini CLI). A line `_**User**_` / `_**User (time)**_` opens a person's turn; `_**Assistant**_`,
 * `_**Assistant (model)**_`, `_**Agent (model, mode)**_` or the older `_****_` opens the agent's. A
 * `---` line just before a header is a separator. In the agent's turns, `<think>…</think>` (or another
 * tag of reasoning.ts) is reasoning (ignored, counted), `<tool-use data-tool-name=…>…</tool-use>` and the older
 * `<details><summary>Edit file: …</summary>…</details>` are tool calls: the summary becomes an
 * assistant message with `toolName`, the body (input and output as the export shows them) a `tool`
 * message paired with it. Edits rendered in the agent's prose (a ```` ```diff ```` section, Copilot's
 * empty fence; specstory-edits.ts) are calls with no result; Cursor's bare tool notices (`Cancelled`, a
 * failed edit; specstory-notices.ts) are a call's output. v2.1 exports name the agent and session
 * in `<!-- cursor Session <uuid> -->`.
 *
 * One pass over the lines, `indexOf` only: a block left open (an unclosed `<details>`) ends at the next
 * header, so a broken export loses no turn and costs no backtracking.
 */
import type { Prepared } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import type { Message, Role } from '../types.js';
import { reasoningClose } from './reasoning.js';
import { noteModel, type ParseState } from './result.js';
import { closesFence, fenceStep, type OpenFence, RENDERED_EDIT_TOOL } from './specstory-edits.js';
import { isoTime, modelOf, sessionComment, sessionStart, specstoryHeader } from './specstory-header.js';
import {
  NOTICE_LEADS,
  nameFailedEdits,
  noticeOf,
  pushCancelledCall,
  pushNoticeCall,
} from './specstory-notices.js';
import { pushEdit, pushTool, trimSection } from './specstory-tools.js';
import { consoleTurnKind, unwrapQuery } from './synthetic.js';

/** What the lines being collected belong to. */
type Mode = 'text' | 'think' | 'tool' | 'details' | 'diff';
const READ_FILE = 'Read file: ';
const TOOL_USE = 'Tool use: **';

/**
 * Parses a SpecStory export into `state`.
 *
 * @example
 * ```ts
 * parseSpecStory({ kind: 'text', text: '_**User**_\n\nhi\n\n---\n\n_**Assistant**_\n\nhello' }, state);
 * ```
 */
export function parseSpecStory(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'text') throw state.sink.error('Expected SpecStory markdown, got a JSON value');
  const { sink, messages } = state;
  let role: Role | undefined;
  let ts: string | undefined;
  let parts: string[] = [];
  let partsLine = 0;
  let mode: Mode = 'text';
  /** The closing tag of the reasoning block `mode` 'think' is in. */
  let thinkClose = '</think>';
  /**
   * The open tool block: where it started, its tag's name and the nesting depth of `<details>`; for
   * an edit rendered as a ```` ```diff ```` section, the fence's backticks.
   */
  let block: { line: number; name?: string; lines: string[]; depth: number; ticks?: number } | undefined;
  /** A fence open in the agent's prose (specstory-edits.ts): an empty one is an applied edit. */
  let fence: OpenFence | undefined;
  let headers = 0;
  let preamble = false;
  /** A `Tool use: **name**` line's name, for the call that follows it. */
  let pendingTool: string | undefined;
  /** The line of a `Cancelled` notice (specstory-notices.ts) waiting for the call it stopped. */
  let cancelled: number | undefined;
  /** The hidden calls of failed edits, named after their retries once the export is read. */
  const failedEdits = new Set<Message>();
  /** A `Cancelled` with no call block right after it: the call is not shown either. */
  const settleCancel = (): void => {
    if (cancelled === undefined) return;
    pushCancelledCall(cancelled, ts, state);
    cancelled = undefined;
  };

  const flushText = (): void => {
    fence = undefined;
    if (role === undefined || parts.length === 0) {
      parts = [];
      return;
    }
    // In the agent's turn, a `---` line that opens the text closed the tool block before it.
    const section = trimSection(role === 'assistant' ? afterSeparator(parts) : parts);
    const content = role === 'user' ? (unwrapQuery(section) ?? section) : section;
    parts = [];
    if (content.length === 0) return;
    const m: Message = { id: `m${partsLine}`, role, content, source: { line: partsLine } };
    if (ts !== undefined) m.ts = ts;
    if (role === 'user') {
      const kind = consoleTurnKind(content);
      if (kind !== undefined) m.synthetic = kind;
    }
    messages.push(m);
  };
  const addText = (line: string, n: number): void => {
    if (parts.length === 0) {
      if (isBlank(line)) return;
      partsLine = n;
    }
    parts.push(line);
  };
  const closeBlock = (): void => {
    if (block?.ticks !== undefined)
      pushEdit(block.line, ['```diff', ...block.lines, '```'].join('\n'), ts, state);
    else if (block) {
      pushTool(block, ts, state, cancelled);
      cancelled = undefined;
    }
    block = undefined;
    mode = 'text';
  };

  forEachLine(prepared.text, (line, n) => {
    const header = line.charCodeAt(0) === 0x5f /* _ */ ? specstoryHeader(line) : undefined;
    if (header) {
      // A header always starts a turn: whatever block was left open ends here.
      closeBlock();
      flushText();
      settleCancel();
      headers++;
      pendingTool = undefined;
      role = header.role;
      ts = undefined;
      if (header.label !== undefined) {
        if (role === 'user') ts = isoTime(header.label);
        else noteModel(state, modelOf(header.label));
      }
      return undefined;
    }
    if (role === undefined) {
      sessionComment(line, state);
      if (line.charCodeAt(0) === 0x23 /* # */) sessionStart(line, state);
      if (!preamble && !isBlank(line)) {
        preamble = true;
        sink.ignore('preamble');
      }
      return undefined;
    }
    if (mode === 'think') {
      if (line.includes(thinkClose)) mode = 'text';
      return undefined;
    }
    if (mode === 'tool') {
      block!.lines.push(line);
      if (line.includes('</tool-use>')) closeBlock();
      return undefined;
    }
    if (mode === 'diff') {
      if (closesFence(line, block!.ticks!)) closeBlock();
      else block!.lines.push(line);
      return undefined;
    }
    if (mode === 'details') {
      block!.lines.push(line);
      block!.depth += count(line, '<details') - count(line, '</details>');
      if (block!.depth <= 0) closeBlock();
      return undefined;
    }
    if (role === 'assistant') {
      const lead = line.trimStart();
      const close = reasoningClose(lead);
      if (close !== undefined) {
        flushText();
        sink.ignore('thinking');
        thinkClose = close;
        if (!line.includes(close, line.indexOf('>') + 1)) mode = 'think';
        return undefined;
      }
      // A pending `Cancelled` waits only for a call block (or its `Tool use:` line) after blank lines.
      if (
        cancelled !== undefined &&
        !isBlank(line) &&
        !lead.startsWith('<tool-use') &&
        !lead.startsWith('<details') &&
        !line.startsWith(TOOL_USE)
      )
        settleCancel();
      // The notice first: it is a whole short line, and startsSection walks back over blank lines.
      const notice = NOTICE_LEADS[line.charCodeAt(0)] === 1 ? noticeOf(line) : undefined;
      if (notice !== undefined && startsSection(parts)) {
        flushText();
        settleCancel();
        if (notice === 'cancelled') cancelled = n;
        else
          failedEdits.add(
            pushNoticeCall({ line: n, notice: line.trimEnd(), tool: RENDERED_EDIT_TOOL }, ts, state),
          );
        return undefined;
      }
      if (lead.startsWith('<tool-use')) {
        flushText();
        block = { line: n, name: attribute(line, 'data-tool-name') ?? pendingTool, lines: [line], depth: 0 };
        pendingTool = undefined;
        if (!line.includes('</tool-use>')) mode = 'tool';
        else closeBlock();
        return undefined;
      }
      // Some exports name the tool on a line of its own before its call: `Tool use: **read_file**`.
      if (line.startsWith(TOOL_USE) && line.trimEnd().endsWith('**') && startsSection(parts)) {
        const name = line.slice(TOOL_USE.length, line.trimEnd().length - 2);
        if (name.length > 0 && name.length <= 60 && !name.includes('*')) {
          pendingTool = name;
          return undefined;
        }
      }
      if (lead.startsWith('<details')) {
        flushText();
        block = {
          line: n,
          ...(pendingTool !== undefined ? { name: pendingTool } : {}),
          lines: [line],
          depth: count(line, '<details') - count(line, '</details>'),
        };
        pendingTool = undefined;
        if (block.depth > 0) mode = 'details';
        else closeBlock();
        return undefined;
      }
      // Older exports print a file read as a section of its own, `Read file: src/a.ts`, at the start
      // of a turn or after a `---` line: a call, not the agent's prose (read as prose, it was a
      // snapshot's "next action"). The call goes before the prose it sat in, which stays one
      // message: the reply a person's next turn answers is the same text as before, less the line.
      if (line.startsWith(READ_FILE) && startsSection(parts)) {
        const call: Message = {
          id: `m${n}`,
          role: 'assistant',
          content: line.trim(),
          toolName: pendingTool ?? 'Read file',
          toolUseId: `m${n}`,
          source: { line: n },
        };
        if (ts !== undefined) call.ts = ts;
        messages.push(call);
        pendingTool = undefined;
        return undefined;
      }
      const step = fenceStep(line, fence, parts.length, n, () => startsSection(parts));
      if (step.kind === 'diff') {
        flushText();
        block = { line: n, lines: [], depth: 0, ticks: step.ticks };
        mode = 'diff';
        return undefined;
      }
      if (step.kind === 'edit') {
        // The empty fence's lines are the rendering, not prose: the text before it is a message.
        parts.length = step.fence.at;
        flushText();
        pushEdit(step.fence.line, RENDERED_EDIT_TOOL, ts, state);
        return undefined;
      }
      if (step.kind === 'open') fence = step.fence;
      else if (step.kind === 'close') fence = undefined;
    }
    // The name belongs to a call right after it; text in between means there was none.
    if (!isBlank(line)) pendingTool = undefined;
    addText(line, n);
    return undefined;
  });
  closeBlock();
  flushText();
  settleCancel();
  nameFailedEdits(messages, failedEdits);
  if (headers === 0) {
    throw sink.error('No SpecStory turn found (no "_**User**_" or "_**Assistant**_" header)', { line: 1 });
  }
}

/** `parts` without the `---` lines (and the blank lines around them) at their start. */
function afterSeparator(parts: string[]): string[] {
  let i = 0;
  while (i < parts.length && (isBlank(parts[i]!) || parts[i]!.trim() === '---')) i++;
  return i === 0 ? parts : parts.slice(i);
}

/** Whether the next line starts a section: nothing but blank lines, or a `---` line, before it. */
function startsSection(parts: readonly string[]): boolean {
  for (let i = parts.length - 1; i >= 0; i--) if (!isBlank(parts[i]!)) return parts[i]!.trim() === '---';
  return true;
}

/** Occurrences of `needle` in `line` (non-overlapping, `indexOf` only). */
function count(line: string, needle: string): number {
  let n = 0;
  let i = line.indexOf(needle);
  while (i >= 0) {
    n++;
    i = line.indexOf(needle, i + needle.length);
  }
  return n;
}

/** The value of `name="…"` in a tag line, or undefined. */
function attribute(line: string, name: string): string | undefined {
  const at = line.indexOf(`${name}="`);
  if (at < 0) return undefined;
  const start = at + name.length + 2;
  const end = line.indexOf('"', start);
  return end < 0 ? undefined : line.slice(start, end);
}

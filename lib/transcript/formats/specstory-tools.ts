/**
 * The calls of a SpecStory export's agent turns: a `<tool-use>` or `<details>` block as a call and its
 * output, an edit the export rendered without a block (specstory-edits.ts), and the section text both
 * the parser and the blocks trim the same way.
 */
import { isBlank } from '../lines.js';
import type { Message } from '../types.js';
import type { ParseState } from './result.js';
import { RENDERED_EDIT_TOOL } from './specstory-edits.js';
import { CANCELLED, noticeOutput, pushCancelledCall, UNNAMED_TOOL } from './specstory-notices.js';

/**
 * The section's text without the blank lines and `---` separators that end it: exports put one between
 * sections, and a section with nothing between two of them (a block the export left empty) leaves a run.
 *
 * @example
 * ```ts
 * trimSection(['Done.', '', '---', '']); // 'Done.'
 * ```
 */
export function trimSection(parts: string[]): string {
  let end = parts.length;
  while (end > 0 && (isBlank(parts[end - 1]!) || parts[end - 1]!.trim() === '---')) end--;
  return parts.slice(0, end).join('\n');
}

/** Lines that only hold tags (`<tool-use …><details>`, `</details></tool-use>`): no text outside `<…>`. */
function isTagLine(line: string): boolean {
  let inTag = false;
  let tags = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inTag) {
      if (c === 0x3e /* > */) inTag = false;
    } else if (c === 0x3c /* < */) {
      inTag = true;
      tags++;
    } else if (c !== 0x20 && c !== 0x09) return false;
  }
  return tags > 0 && !inTag;
}

/**
 * Emits a tool block: the summary as the call (`toolName` from the tag, `Tool use: **name**`, or the
 * summary's leading words such as `Edit file`), the rest as its output. A `Thought Process` details
 * block is reasoning and only counted. `cancelled`, the line of a `Cancelled` notice just before the
 * block, is the output of a call that has none; before one that has an output, it stopped a call the
 * export does not show.
 *
 * @example
 * ```ts
 * pushTool({ line: 9, lines: ['<details><summary>Read file: a.ts</summary>', '</details>'] }, undefined, state, undefined);
 * ```
 */
export function pushTool(
  block: { line: number; name?: string; lines: string[] },
  ts: string | undefined,
  state: ParseState,
  cancelled: number | undefined,
): void {
  let summary = '';
  let summaryLine = -1;
  for (let i = 0; i < block.lines.length && summaryLine < 0; i++) {
    const l = block.lines[i]!;
    const open = l.indexOf('<summary>');
    if (open < 0) continue;
    const close = l.indexOf('</summary>', open);
    summary = l.slice(open + '<summary>'.length, close < 0 ? l.length : close).trim();
    summaryLine = i;
  }
  const thought = block.name === undefined && summary.startsWith('Thought Process');
  const body: string[] = [];
  for (let i = 0; i < block.lines.length && !thought; i++) {
    const l = block.lines[i]!;
    if (i === summaryLine) {
      const close = l.indexOf('</summary>');
      const after = close < 0 ? '' : l.slice(close + '</summary>'.length);
      if (!isBlank(after)) body.push(after);
    } else if (!isTagLine(l)) body.push(l);
  }
  const trimmed = trimSection(body).trim();
  if (cancelled !== undefined && (thought || trimmed.length > 0)) {
    pushCancelledCall(cancelled, ts, state);
    cancelled = undefined;
  }
  if (thought) {
    state.sink.ignore('thinking');
    return;
  }
  const name = block.name ?? toolNameOf(summary);
  const id = `m${block.line}`;
  // `Tool use: **name** • Edit file: a.ts` → `Edit file: a.ts`; older summaries are the call already.
  const bullet = summary.startsWith('Tool use:') ? summary.indexOf('\u2022') : -1;
  const callText = bullet >= 0 ? summary.slice(bullet + 1).trim() : summary;
  const call: Message = {
    id,
    role: 'assistant',
    content: callText,
    toolName: name,
    toolUseId: id,
    source: { line: block.line },
  };
  if (ts !== undefined) call.ts = ts;
  state.messages.push(call);
  if (trimmed.length > 0) {
    state.messages.push({
      id: `${id}.out`,
      role: 'tool',
      content: trimmed,
      toolName: name,
      toolUseId: id,
      source: { line: block.line },
    });
  } else if (cancelled !== undefined) state.messages.push(noticeOutput(id, name, CANCELLED, cancelled));
}

/**
 * Emits an edit the export rendered without a tool block (specstory-edits.ts): a call of
 * {@link RENDERED_EDIT_TOOL} whose input is the diff when the export shows one. No result: the export
 * has none, and shows only edits that were applied.
 *
 * @example
 * ```ts
 * pushEdit(42, RENDERED_EDIT_TOOL, undefined, state);
 * ```
 */
export function pushEdit(line: number, input: string, ts: string | undefined, state: ParseState): void {
  const id = `m${line}`;
  const call: Message = {
    id,
    role: 'assistant',
    content: input,
    toolName: RENDERED_EDIT_TOOL,
    toolUseId: id,
    source: { line },
  };
  if (ts !== undefined) call.ts = ts;
  state.messages.push(call);
}

/** `Tool use: **read_file** • …` → `read_file`; `Edit file: src/a.ts` → `Edit file`; else `tool`. */
function toolNameOf(summary: string): string {
  if (summary.startsWith('Tool use: **')) {
    const end = summary.indexOf('**', 'Tool use: **'.length);
    if (end > 0) return summary.slice('Tool use: **'.length, end);
  }
  let end = summary.length;
  for (const stop of [':', ' \u2022', ' "', ' `', ' **']) {
    const i = summary.indexOf(stop);
    if (i >= 0 && i < end) end = i;
  }
  const name = summary.slice(0, Math.min(end, 60)).replaceAll('*', '').trim();
  return name.length > 0 ? name : UNNAMED_TOOL;
}

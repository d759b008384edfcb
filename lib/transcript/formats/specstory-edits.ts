/**
 * Edits that SpecStory exports render without a tool block of their own, so that a transcript shows
 * them as calls instead of prose:
 *
 * - Cursor exports of 2025 print an applied edit as a section that is one ```` ```diff ```` fence,
 *   right after a `---` line or the turn's header.
 * - Copilot exports print each applied edit as an empty fence (```` ``` ```` then ```` ``` ````, blank
 *   lines between) inside the agent's prose: "Now let me fix the table definition: ```` ``` ````…".
 *
 * Neither carries a result: the export only shows edits the editor applied. A fence with any text in
 * it is the agent's code sample, never an edit.
 */

/**
 * The tool name these edits get in a transcript (the renderings do not name the tool): a call of it is
 * an edit (`isFileEditTool`) with no result.
 *
 * @example
 * ```ts
 * parseTranscript(specstoryExport).messages.filter((m) => m.toolName === RENDERED_EDIT_TOOL);
 * ```
 */
export const RENDERED_EDIT_TOOL = 'Edit file';

/** Backticks that open or close a fence at the start of `line` (after indentation), or 0 under three. */
function fenceTicks(line: string): number {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0x09)) i++;
  const start = i;
  while (i < line.length && line.charCodeAt(i) === 0x60 /* ` */) i++;
  return i - start >= 3 ? i - start : 0;
}

/** Whether `line` closes a fence opened with `ticks` backticks: at least as many and nothing else. */
export function closesFence(line: string, ticks: number): boolean {
  const n = fenceTicks(line);
  return n >= ticks && line.trim().length === n;
}

/** A fence open in the agent's prose: where it started in the collected lines, and whether it is still empty. */
export interface OpenFence {
  /** Its backticks. */
  ticks: number;
  /** Index of its opening line in the lines collected for the message. */
  at: number;
  /** Its opening line's number in the file. */
  line: number;
  /** No info string and nothing but blank lines so far: Copilot's rendering of an applied edit. */
  empty: boolean;
}

/** What a line does to the prose's fences (see {@link fenceStep}). */
export type FenceStep =
  | { kind: 'none' }
  | { kind: 'open'; fence: OpenFence }
  | { kind: 'diff'; ticks: number }
  | { kind: 'close' }
  | { kind: 'edit'; fence: OpenFence };

/**
 * Reads one line of the agent's prose against the fence open before it (`undefined` when none):
 * `diff` when a ```` ```diff ```` fence opens a section (`sectionStart`, asked only for such a
 * fence: it reads back over the lines collected), `open` for another fence,
 * `edit` when an empty fence closes, `close` for any other close, `none` otherwise (`fence.empty` is
 * cleared in place by a line with text).
 *
 * @example
 * ```ts
 * fenceStep('```diff', undefined, 0, 1, () => true); // { kind: 'diff', ticks: 3 }
 * ```
 */
export function fenceStep(
  line: string,
  fence: OpenFence | undefined,
  at: number,
  lineNumber: number,
  sectionStart: () => boolean,
): FenceStep {
  if (fence === undefined) {
    const ticks = fenceTicks(line);
    if (ticks === 0) return { kind: 'none' };
    const info = line.trim().slice(ticks).trim();
    if (info === 'diff' && sectionStart()) return { kind: 'diff', ticks };
    return { kind: 'open', fence: { ticks, at, line: lineNumber, empty: info.length === 0 } };
  }
  if (closesFence(line, fence.ticks)) return fence.empty ? { kind: 'edit', fence } : { kind: 'close' };
  if (fence.empty && line.trim().length > 0) fence.empty = false;
  return { kind: 'none' };
}

/**
 * Claude Code sessions rendered as Markdown by session exporters ("# Claude Session Export"): each
 * event is a `### User` or `### Assistant` heading, a `> 12/1/2025, 10:57:11 PM` time line, and a body
 * that is either plain text or the event's content blocks as pretty-printed JSON (`[{"type": "text" |
 * "tool_use" | "tool_result" | "thinking", …}]`); `---` lines separate events. Plain bodies become
 * messages; JSON bodies go through the Anthropic block converter (tool calls, tool results, thinking
 * ignored). Harness text in the user's seat (`<command-name>`, hook output…) is flagged as usual.
 */
import type { Prepared } from '../input.js';
import { tryJson } from '../input.js';
import { forEachLine, isBlank } from '../lines.js';
import { ItemError } from '../sink.js';
import type { Role } from '../types.js';
import { convertRoleMessage, type ItemBase, message } from './convert.js';
import { commit, newItemOut, type ParseState } from './result.js';
import { consoleTurnKind } from './synthetic.js';

/**
 * True when the text's first non-blank line is the exporter's title, `# Claude Session Export`.
 *
 * @example
 * ```ts
 * isClaudeMarkdownTitle('# Claude Session Export\n\n## Session Information'); // true
 * ```
 */
export function isClaudeMarkdownTitle(line: string): boolean {
  return line.trimEnd() === '# Claude Session Export';
}

/**
 * Parses a Claude Code Markdown export into `state`.
 *
 * @example
 * ```ts
 * parseClaudeMarkdown({ kind: 'text', text: '### User\n> 1/2/2025, 3:04:05 PM\n\nhi' }, state);
 * ```
 */
export function parseClaudeMarkdown(prepared: Prepared, state: ParseState): void {
  if (prepared.kind !== 'text') throw state.sink.error('Expected Markdown text, got a JSON value');
  const { sink } = state;
  let event: { role: Role; line: number; bodyLine: number; ts?: string; parts: string[] } | undefined;
  let pendingHeader: { role: Role; line: number } | undefined;
  let events = 0;
  let preamble = false;

  const flush = (): void => {
    if (!event) return;
    const e = event;
    event = undefined;
    let end = e.parts.length;
    while (end > 0 && isBlank(e.parts[end - 1]!)) end--;
    if (end > 0 && e.parts[end - 1]!.trim() === '---') end--;
    while (end > 0 && isBlank(e.parts[end - 1]!)) end--;
    let start = 0;
    while (start < end && isBlank(e.parts[start]!)) start++;
    if (start === end) {
      sink.ignore('empty');
      return;
    }
    const body = e.parts.slice(start, end).join('\n');
    const base: ItemBase = { id: `m${e.line}`, source: { line: e.line } };
    if (e.ts !== undefined) base.ts = e.ts;
    const out = newItemOut();
    const first = body.charCodeAt(0);
    const parsed = first === 0x5b /* [ */ ? tryJson(body) : undefined;
    if (parsed?.ok && Array.isArray(parsed.value)) {
      try {
        convertRoleMessage({ role: e.role, content: parsed.value }, base, state.tools, out);
      } catch (err) {
        if (err instanceof ItemError) sink.invalid(err.message, { line: e.bodyLine + start });
        else throw err;
        return;
      }
    } else {
      const m = message(base, e.role, body);
      if (e.role === 'user') {
        const kind = consoleTurnKind(body);
        if (kind !== undefined) m.synthetic = kind;
      }
      out.messages.push(m);
    }
    commit(state, out);
  };

  forEachLine(prepared.text, (line, n) => {
    if (pendingHeader) {
      const header = pendingHeader;
      pendingHeader = undefined;
      if (line.startsWith('> ')) {
        event = { role: header.role, line: header.line, bodyLine: n + 1, parts: [] };
        const ts = localIso(line.slice(2).trim());
        if (ts !== undefined) event.ts = ts;
        events++;
        return undefined;
      }
      // A heading not followed by its time line is text of the event before it.
      event?.parts.push(header.role === 'user' ? '### User' : '### Assistant');
    }
    const trimmed = line.trimEnd();
    if (trimmed === '### User' || trimmed === '### Assistant') {
      flush();
      pendingHeader = { role: trimmed === '### User' ? 'user' : 'assistant', line: n };
      return undefined;
    }
    if (event) event.parts.push(line);
    else {
      // The exporter's header: `- **Session ID**: \`06ea6fa4-…\``.
      if (line.startsWith('- **Session ID**: `')) {
        const id = line.slice('- **Session ID**: `'.length, line.lastIndexOf('`'));
        if (id.length > 0 && id.length < 200) state.meta = { agent: 'claude-code', sessionId: id };
      }
      if (!preamble && !isBlank(line)) {
        preamble = true;
        sink.ignore('preamble');
      }
    }
    return undefined;
  });
  flush();
  if (events === 0) {
    throw sink.error('No "### User" or "### Assistant" event with a "> date" line found', { line: 1 });
  }
}

/** `12/1/2025, 10:57:11 PM` (US locale, the exporter's) → `2025-12-01T22:57:11` (local time). */
function localIso(text: string): string | undefined {
  const comma = text.indexOf(', ');
  if (comma < 0) return undefined;
  const date = text.slice(0, comma).split('/');
  const rest = text.slice(comma + 2).split(' ');
  if (date.length !== 3 || rest.length !== 2) return undefined;
  const time = rest[0]!.split(':');
  if (time.length !== 3) return undefined;
  const [mo, d, y] = date.map(Number) as [number, number, number];
  let h = Number(time[0]);
  const mi = Number(time[1]);
  const s = Number(time[2]);
  const pm = rest[1] === 'PM';
  if (rest[1] !== 'AM' && !pm) return undefined;
  if (![mo, d, y, h, mi, s].every(Number.isInteger) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 12) {
    return undefined;
  }
  if (h === 12) h = 0;
  if (pm) h += 12;
  const p = (x: number): string => String(x).padStart(2, '0');
  return `${y}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}`;
}

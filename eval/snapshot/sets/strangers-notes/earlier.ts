/**
 * How the readers read a data file before a change to them, for the rows of sets drawn then: text
 * rewrites that make today's reader read as the earlier one did (line for line and item for item the
 * same, so ids and positions are that reading's), and SpecStory's messages before edits in prose became
 * calls. `loadStrangersNotes` (sample.ts) looks a row up in these readings when today's lacks it.
 */
import { type Message, parseTranscript, RENDERED_EDIT_TOOL } from '../../../../lib/transcript/index.js';

/**
 * An aider history as the reader read it before it passed over reasoning blocks: their tags renamed
 * (`<thinking-content-…>` → `<thinking_content-…>`, `<think>` → `<thinK>`), line for line the same, so
 * message ids and sentence positions are those of that reading.
 */
export function reasoningAsReply(text: string): string {
  return text
    .replace(/<(\/?)thinking-content-/g, '<$1thinking_content-')
    .replace(/<(\/?)think>/g, '<$1thinK>');
}

/**
 * A Cline `ui_messages.json` as the reader read it before it took a newer Cline's followup question
 * out of its JSON: each such followup given as a `completion_result`, the agent's words read as
 * written; item for item the same, so message ids and positions are those of that reading.
 */
export function followupsAsText(text: string): string {
  const items: unknown = JSON.parse(text);
  if (!Array.isArray(items)) return text;
  return JSON.stringify(
    items.map((m: { ask?: unknown; text?: unknown }) =>
      m?.ask === 'followup' && typeof m.text === 'string' && m.text.trimStart().startsWith('{')
        ? { ...m, type: 'say', ask: undefined, say: 'completion_result' }
        : m,
    ),
  );
}

/**
 * The messages as the SpecStory reader gave them before it read edits rendered in the agent's prose
 * (a ```` ```diff ```` section, Copilot's empty fence) as calls: each run of the agent's prose and such
 * calls is one message again. Rows drawn then may sit in code whose fences the prose filter paired
 * differently; `loadStrangersNotes` (sample.ts) looks for them here when the file's notes no longer hold them.
 */
export function withEditsJoined(messages: readonly Message[]): Message[] {
  // Older exports' `<details><summary>Edit file: …` blocks have the same name and an output: not these.
  const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.toolUseId));
  const out: Message[] = [];
  let run: Message | undefined;
  for (const m of messages) {
    const rendered = m.toolName === RENDERED_EDIT_TOOL && !answered.has(m.toolUseId);
    const prosePart =
      m.role === 'assistant' && m.synthetic === undefined && (m.toolName === undefined || rendered);
    if (!prosePart) {
      run = undefined;
      out.push(m);
      continue;
    }
    const text = m.toolName === RENDERED_EDIT_TOOL && !m.content.startsWith('```') ? '```\n\n```' : m.content;
    if (run) run.content = `${run.content}\n\n${text}`;
    else {
      const { toolName: _, ...prose } = m;
      run = { ...prose, content: text };
      out.push(run);
    }
  }
  return out;
}

/**
 * The messages of an aider history as the reader gave them before it read the bare lines of aider's
 * own multi-line outputs as that output (aider writes `> ` on an output's first line only): the lines
 * that go on before a session's first prompt (the launch command's `--message` task, a `--verbose`
 * option listing) and its report of edits that failed to apply. Each run of bare lines in today's
 * output messages was a reply then (`m` + its first line as id), the `> ` lines around it aider's
 * output; a run right before a reply (blank lines between) was one message with that reply.
 */
export function aiderOutputAsReply(raw: string, messages: readonly Message[]): Message[] {
  const lines = raw.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const out: Message[] = [];
  /** The last run split off as a reply, and the line after its last line, while it may still join the next. */
  let open: { m: Message; next: number } | undefined;
  messages.forEach((m, k) => {
    const line = m.source?.line;
    if (m.role !== 'tool' || m.toolName !== 'aider' || !line) {
      if (open && m.role === 'assistant' && m.toolName === undefined && line !== undefined) {
        const gap = lines.slice(open.next - 1, line - 1);
        if (gap.every((l) => l.trim() === '')) {
          open.m.content = [open.m.content, ...gap.map(() => ''), m.content].join('\n');
          open = undefined;
          return;
        }
      }
      open = undefined;
      out.push(m);
      return;
    }
    open = undefined;
    const end = messages[k + 1]?.source?.line ?? lines.length + 1;
    let turn:
      | { role: 'tool' | 'assistant'; line: number; parts: string[]; blanks: number; last: number }
      | undefined;
    const flush = () => {
      if (!turn) return;
      const content = turn.parts.join('\n');
      const id = `m${turn.line}`;
      const split: Message =
        turn.role === 'tool'
          ? { ...m, id, content, source: { line: turn.line } }
          : { id, role: 'assistant', content, source: { line: turn.line } };
      out.push(split);
      open = turn.role === 'assistant' ? { m: split, next: turn.last + 1 } : undefined;
      turn = undefined;
    };
    for (let n = line; n < end; n++) {
      const text = lines[n - 1] ?? '';
      if (text.trim() === '') {
        if (turn && turn.parts.length > 0) turn.blanks++;
        continue;
      }
      const output = text === '>' || text.startsWith('> ');
      const role = output ? 'tool' : 'assistant';
      if (turn?.role !== role) {
        flush();
        turn = { role, line: n, parts: [], blanks: 0, last: n };
      }
      for (; turn.blanks > 0; turn.blanks--) turn.parts.push('');
      turn.parts.push(output ? text.slice(2).trimEnd() : text);
      turn.last = n;
    }
    flush();
  });
  return out;
}

/**
 * The messages of a console copy as the reader gave them before it joined what the terminal wrapped
 * (7 December 2026): every break the terminal made kept, so a wrapped sentence is cut at each line.
 */
export function keptBreaks(raw: string): Message[] {
  return parseTranscript(raw, { format: 'claude-code-console', lenient: true, keepLineBreaks: true })
    .messages;
}

/**
 * How the readers read a data file before a change to them, for the rows of sets drawn then: text
 * rewrites that make today's reader read as the earlier one did (line for line and item for item the
 * same, so ids and positions are that reading's), and SpecStory's messages before edits in prose became
 * calls. `loadStrangersNotes` (sample.ts) looks a row up in these readings when today's lacks it.
 */
import { type Message, RENDERED_EDIT_TOOL } from '../../../../lib/transcript/index.js';

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

/**
 * Turns in the user's seat that no person typed: harness text recognised by how it starts. Whatever
 * the format, reflecting on them would learn from the harness (a continuation summary quotes earlier
 * corrections and would be reported as a new one in every long session).
 */
import type { SyntheticKind } from '../types.js';

/** Opening text → what wrote it. Checked after leading whitespace, case-sensitive (harness text is fixed). */
const PREFIXES: readonly (readonly [string, SyntheticKind])[] = [
  ['This session is being continued from a previous conversation', 'summary'],
  // The prompt of Claude Code's compaction subagent.
  ['Your task is to create a detailed summary of the conversation so far', 'summary'],
  ['<command-name>', 'command'],
  ['<command-message>', 'command'],
  ['<command-args>', 'command'],
  ['<local-command-stdout>', 'command'],
  ['<local-command-stderr>', 'command'],
  ['<local-command-caveat>', 'meta'],
  ['<system-reminder>', 'hook'],
  ['<user-prompt-submit-hook>', 'hook'],
  ['<task-notification>', 'notification'],
  // Codex CLI: the context it sends in the user's seat before the first prompt, the repository's
  // instructions, and the note that tells the model the person stopped a turn.
  ['<environment_context>', 'meta'],
  ['<user_instructions>', 'meta'],
  ['# AGENTS.md instructions for ', 'meta'],
  ['<turn_aborted>', 'meta'],
  // A slash command's prompt file expanded in the user's seat (spec-kit's `/speckit.*` and `/specify`
  // prompts, in Codex, Claude Code, Cursor…): the person typed the command and its arguments, the
  // template around them is the file's.
  ['## User Input\n\n```text\n', 'command'],
  // Cursor's buttons: "Build" on a plan sends the first, "Fix in chat" on a diagnostic the second
  // (with the diagnostic pasted after it). Neither is the person's wording, so neither may teach a
  // rule ("Do NOT edit the plan file itself" would otherwise reach every repository's playbook).
  ['Implement the plan as specified, it is attached for your reference.', 'command'],
  ['For the code present, we get this error:', 'command'],
];

/** The first characters of {@link PREFIXES}, derived so a new prefix cannot be missed by the shortcut. */
const FIRST_CHARS: ReadonlySet<number> = new Set(PREFIXES.map(([prefix]) => prefix.charCodeAt(0)));

/**
 * The {@link SyntheticKind} of a user turn's text when it is harness text, else undefined.
 *
 * @example
 * ```ts
 * syntheticKind('This session is being continued from a previous conversation that ran out of context.'); // 'summary'
 * syntheticKind('<command-name>/mcp</command-name>'); // 'command'
 * syntheticKind('Implement the plan as specified, it is attached for your reference.'); // 'command'
 * syntheticKind('No, use pnpm.'); // undefined
 * ```
 */
export function syntheticKind(text: string): SyntheticKind | undefined {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++;
  // One look-up of the first character rejects almost every real prompt.
  if (!FIRST_CHARS.has(text.charCodeAt(i))) return undefined;
  for (const [prefix, kind] of PREFIXES) if (text.startsWith(prefix, i)) return kind;
  return undefined;
}

const TIMESTAMP_OPEN = '<timestamp>';
const TIMESTAMP_CLOSE = '</timestamp>';
const QUERY_OPEN = '<user_query>';
const QUERY_CLOSE = '</user_query>';

/**
 * What the person typed, when Cursor wrapped it (its newer exports: a `<timestamp>…</timestamp>` line,
 * then `<user_query>…</user_query>`), else `undefined`. The wrapper is the harness's: read as the
 * person's words, it would open the session's objective and every rule quoted from the turn. Text
 * after the closing tag (an attachment's note) is kept after a blank line. Found with `indexOf`, so
 * linear on any input.
 *
 * @example
 * ```ts
 * unwrapQuery('<timestamp>Monday, Sep 21, 2026, 8:20 AM</timestamp>\n<user_query>\nUse pnpm.\n</user_query>'); // 'Use pnpm.'
 * unwrapQuery('Use pnpm.'); // undefined
 * ```
 */
export function unwrapQuery(text: string): string | undefined {
  let at = 0;
  while (at < text.length && text.charCodeAt(at) <= 0x20) at++;
  if (text.startsWith(TIMESTAMP_OPEN, at)) {
    const close = text.indexOf(TIMESTAMP_CLOSE, at);
    if (close < 0) return undefined;
    at = close + TIMESTAMP_CLOSE.length;
    while (at < text.length && text.charCodeAt(at) <= 0x20) at++;
  }
  if (!text.startsWith(QUERY_OPEN, at)) return undefined;
  const end = text.lastIndexOf(QUERY_CLOSE);
  if (end < at) return undefined;
  const query = text.slice(at + QUERY_OPEN.length, end).trim();
  const after = text.slice(end + QUERY_CLOSE.length).trim();
  return after === '' ? query : query === '' ? after : `${query}\n\n${after}`;
}

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
];

/**
 * The {@link SyntheticKind} of a user turn's text when it is harness text, else undefined.
 *
 * @example
 * ```ts
 * syntheticKind('This session is being continued from a previous conversation that ran out of context.'); // 'summary'
 * syntheticKind('<command-name>/mcp</command-name>'); // 'command'
 * syntheticKind('No, use pnpm.'); // undefined
 * ```
 */
export function syntheticKind(text: string): SyntheticKind | undefined {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++;
  // Every prefix starts with '<', '#', 'T' or 'Y': one comparison rejects almost every real prompt.
  const c = text.charCodeAt(i);
  if (c !== 0x3c && c !== 0x23 && c !== 0x54 && c !== 0x59) return undefined;
  for (const [prefix, kind] of PREFIXES) if (text.startsWith(prefix, i)) return kind;
  return undefined;
}

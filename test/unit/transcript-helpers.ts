/** Helpers shared by the transcript reader tests: a fixture by name, and messages in brief. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../../lib/transcript/index';

/** The text of a file in test/fixtures/transcripts. */
export const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/transcripts', name), 'utf8');
/** Each message as [role, content, toolName, toolUseId, isError]. */
export const brief = (messages: Message[]) =>
  messages.map((m) => [m.role, m.content, m.toolName ?? null, m.toolUseId ?? null, m.isError ?? false]);

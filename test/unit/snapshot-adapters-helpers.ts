/** Shared by the tests of the snapshot's transcript reading: one message of a transcript. */
import type { Message } from 'rearview/transcript';

export const msg = (
  id: string,
  role: Message['role'],
  content: string,
  synthetic?: Message['synthetic'],
): Message => ({
  id,
  role,
  content,
  source: {},
  ...(synthetic ? { synthetic } : {}),
});

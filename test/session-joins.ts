/**
 * Whether a conversation holds a secret (a key, an address) that only exists across a message
 * boundary: `rearview/session` then redacts its halves from then on (lib/session/split-secrets.ts), so
 * what `observe` returned before the second half arrived cannot match a reading of the whole history.
 * The incremental-reading properties hold for the other conversations; split secrets have their own
 * tests (test/unit/session-streaming.test.ts).
 */
import type { MessageLike } from 'rearview/heuristic';
import { redact } from 'rearview/redact';

const textOf = (m: MessageLike): string => (typeof m.content === 'string' ? m.content : '');
const isUser = (m: MessageLike) => m.role === 'user' || m.role === 'human';

/** Whether `redact(a + b)` finds a value that starts in `a` and ends in `b`. */
function crosses(a: string, b: string): boolean {
  if (!a || !b) return false;
  const joined = a + b;
  for (const f of redact(joined, { includeOriginals: true }).findings) {
    const v = f.original;
    if (!v) continue;
    for (let i = joined.indexOf(v); i !== -1 && i < a.length; i = joined.indexOf(v, i + 1))
      if (i + v.length > a.length) return true;
  }
  return false;
}

/** Whether any two messages the session joins (each with the one before, each user turn with the user turn before) form a secret across their boundary. */
export function joinsFormASecret(messages: readonly MessageLike[]): boolean {
  let lastUser: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const t = textOf(messages[i]!);
    if (i > 0 && crosses(textOf(messages[i - 1]!), t)) return true;
    if (isUser(messages[i]!)) {
      if (lastUser !== undefined && crosses(lastUser, t)) return true;
      if (t) lastUser = t;
    }
  }
  return false;
}

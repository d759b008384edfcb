/**
 * Whether a conversation holds a secret (a key, an address) that only exists across a message
 * boundary: `rearview/session` then redacts its halves from then on (lib/session/split-secrets.ts), so
 * what `observe` returned before the second half arrived cannot match a reading of the whole history.
 * The incremental-reading properties hold for the other conversations; split secrets have their own
 * tests (test/unit/session-streaming.test.ts). The halves are found by the session's own
 * `collectSplitSecrets`, over the joins `observe` makes (lib/session/observe.ts `joinWithPrevious`): each
 * message with text with the one before it, and each user turn with the user turn before it.
 */
import type { MessageLike } from 'rearview/heuristic';
import { redact } from 'rearview/redact';
import type { RedactPattern } from '../lib/redact/index';
import { collectSplitSecrets, tailOf } from '../lib/session/split-secrets';

const textOf = (m: MessageLike): string => (typeof m.content === 'string' ? m.content : '');
const isUser = (m: MessageLike) => m.role === 'user' || m.role === 'human';

/** Whether the session would keep a half of a secret split across two of `messages`. */
export function joinsFormASecret(messages: readonly MessageLike[]): boolean {
  const halves: RedactPattern[] = [];
  let tail: string | undefined;
  let userTail: string | undefined;
  for (const m of messages) {
    const t = textOf(m);
    if (!t) continue; // observe skips a message with no text: the join is with the one before it
    if (tail !== undefined) collectSplitSecrets(tail, t, undefined, halves, redact);
    if (isUser(m)) {
      if (userTail !== undefined && userTail !== tail)
        collectSplitSecrets(userTail, t, undefined, halves, redact);
      userTail = tailOf(t);
    }
    tail = tailOf(t);
  }
  return halves.length > 0;
}

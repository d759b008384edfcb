/**
 * What the agent's next reply says of the person's turn before it: whether it owns a mistake. The
 * reader (`readerModel.acknowledges`) is told so through `TurnEvidence.acknowledged`, set by `observe`
 * (`rearview/session`) when that reply comes.
 */
import { contentText } from '../core/index.js';
import { type MessageLike, opensSession } from '../heuristic/index.js';

/**
 * The opening of a reply that owns a mistake: "You're right", "I apologize", "My mistake", "Good
 * catch", "I see the issue". English only: it is the agent's words, and an agent answering in the
 * person's language says it otherwise. Anchored at the reply's start and read on its first
 * {@link ACK_READ} characters, so its cost does not grow with the reply.
 */
const ACK =
  /^\W*(?:you(?:'re| are) (?:absolutely |completely |totally )?(?:right|correct)|i apologi[sz]e|apologies|my (?:apologies|mistake|bad)|sorry|good catch|thanks for (?:catching|pointing)|ah,? (?:i see|you're right)|i see the (?:issue|problem)|great catch)/i;
const ACK_READ = 120;

/**
 * Whether an agent's reply opens by owning a mistake, which tells that the person's turn before it
 * corrected the agent: `readerModel`'s `acknowledges`, and one for a scorer of your own. On the
 * labelled turns it is a correction about half the time alone (people's questions an agent agrees
 * with are not corrections); the reader weighs it with the turn's words (eval/heuristic/probe-ack.ts).
 *
 * @example
 * ```ts
 * ownsMistake("You're absolutely right, the test still fails."); // true
 * ownsMistake('Done: the test passes.'); // false
 * ```
 */
export const ownsMistake = (reply: string): boolean => ACK.test(reply.slice(0, ACK_READ));

/** Whether a message holds text (not only white space). */
const hasText = (t: string | undefined): t is string => t !== undefined && /\S/.test(t);

/**
 * The index of the agent's first reply with text after the person's turn at `index` (before their next
 * turn), when that reply owns a mistake ({@link ownsMistake}); -1 otherwise: the reply `observe` reads
 * for `acknowledged`, for a transcript read whole. Tool messages are passed over unread and the search
 * stops at the next message with text, so asking it of every turn of a transcript stays linear.
 *
 * @example
 * ```ts
 * const messages = [
 *   { role: 'user', content: 'Use pnpm here, not npm.' },
 *   { role: 'assistant', content: "You're right, switching to pnpm." },
 * ];
 * acknowledgedBy(messages, 0); // 1
 * ```
 */
export function acknowledgedBy(messages: readonly MessageLike[], index: number): number {
  if (!Array.isArray(messages)) return -1;
  for (let k = index + 1; k < messages.length; k++) {
    const m = messages[k];
    if (m === null || typeof m !== 'object' || m.synthetic) continue;
    // A new session's header ends the turn's session: its first reply answers someone else.
    if (m.role === 'system' && opensSession(m, contentText(m.content))) return -1;
    const assistant = m.role === 'assistant';
    if (!assistant && m.role !== 'user' && m.role !== 'human') continue;
    const text = contentText(m.content);
    if (hasText(text)) return assistant && ownsMistake(text) ? k : -1;
  }
  return -1;
}

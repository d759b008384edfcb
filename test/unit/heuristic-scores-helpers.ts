/**
 * The turns the heuristic-scores.test.ts parts build conversations from: a person's turn and the
 * agent's reply, each with an optional id.
 */
import type { MessageLike } from '../../lib/heuristic/index';

export const user = (content: string, id?: string): MessageLike => ({
  role: 'user',
  content,
  ...(id ? { id } : {}),
});
/** The agent's reply: a turn before any reply of its session corrects nothing. */
export const reply = (content = 'Done.', id?: string): MessageLike => ({
  role: 'assistant',
  content,
  ...(id ? { id } : {}),
});

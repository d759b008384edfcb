/**
 * Conversations for the heuristic.test.ts parts: the seed's `conv` builder, one answered user turn, and
 * the threshold that keeps every marker hit.
 */
import type { Message } from '../../lib/transcript/index';

/** The seed's `conv(speaker, text)` helper: one message per turn, ids in order. */
export function conv(turns: [string, string][]): Message[] {
  return turns.map(([role, content], i) => ({
    id: `t${i}`,
    role: role as Message['role'],
    content,
    source: { index: i },
  }));
}

/** One user turn after the agent's reply (a turn no reply has answered yet corrects nothing). */
export const answered = (text: string): Message[] =>
  conv([
    ['assistant', 'Done.'],
    ['user', text],
  ]);

// The seed reported every marker hit; rearview drops insights below `minScore` (DEFAULT_MIN_SCORE), so
// the ported tests that check what the markers find ask for everything: `minScore: 0`.
export const ALL = { minScore: 0 };

/**
 * The synthetic sessions the learn.test.ts parts learn from: a Claude Code session whose second turn
 * corrects the agent, and the same correction in three sessions on three days.
 */
import type { LearnSource } from '../../lib/learn/index';

/** A Claude Code session on `day` whose second turn corrects the agent with `correction`. */
export function session(day: string, correction: string, extra: object[] = []): string {
  return [
    {
      type: 'user',
      message: { role: 'user', content: 'Install the dependencies and run the tests.' },
      uuid: 'u1',
      timestamp: `${day}T10:00:00Z`,
    },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Running npm install now.' }] },
      uuid: 'a1',
      timestamp: `${day}T10:00:05Z`,
    },
    {
      type: 'user',
      message: { role: 'user', content: correction },
      uuid: 'u2',
      timestamp: `${day}T10:01:00Z`,
    },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'OK, switching.' }] },
      uuid: 'a2',
      timestamp: `${day}T10:01:05Z`,
    },
    ...extra,
  ]
    .map((o) => JSON.stringify(o))
    .join('\n');
}

export const PNPM = 'No, use pnpm instead of npm.';
export const three = (correction = PNPM): LearnSource[] => [
  { name: 'b.jsonl', text: session('2025-02-01', correction) },
  { name: 'a.jsonl', text: session('2025-01-01', correction) },
  { name: 'c.jsonl', text: session('2025-03-01', correction) },
];

/**
 * What the session.test.ts parts share: store options that neither broadcast nor warn, and a chat
 * with one correction and one preference.
 */
import type { MessageLike } from 'rearview/heuristic';

export const quiet = { broadcast: false as const, onWarning: () => {} };

export const chat = (): MessageLike[] => [
  { role: 'user', content: 'How do I install the dependencies?' },
  { role: 'assistant', content: 'Run npm install.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
  { role: 'assistant', content: 'Right: pnpm install.' },
  { role: 'user', content: 'I prefer short answers.' },
];

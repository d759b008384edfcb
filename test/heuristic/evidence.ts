/**
 * A `TurnEvidence` for tests of turn scorers: no marker signal, no context, a plain reply before it;
 * `over` changes any field.
 */
import type { TurnEvidence } from '../../lib/heuristic/index';

export const evidence = (text: string, over: Partial<TurnEvidence> = {}): TurnEvidence => ({
  text,
  signals: { correction: false, challenge: false, preference: false, approval: false, friction: false },
  interrupted: false,
  repeat: false,
  undo: false,
  first: false,
  reply: 'Done: I updated the handler.',
  ...over,
});

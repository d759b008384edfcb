/**
 * With a learned scorer, the lesson pipeline writes key points only from turns the markers report too
 * (`readWindow` in lib/session/acknowledge.ts): the turns a scorer adds by their shape and context
 * keep their insights but give no key point. Blind judges rejected every key point such turns gave on
 * the shared data (eval/heuristic/KEYPOINT-JUDGING.md, 6 December 2026). The price: a rule the
 * markers miss and only the scorer finds is not written either (`UNREAD` below).
 */
import { describe, expect, it } from 'vitest';
import type { TurnScorer } from '../../lib/heuristic/index';
import { READER_RECALL_MIN_SCORE, readerModel } from '../../lib/heuristic-model/index';
import { memoryStore } from '../../lib/kv/index';
import { writeKeyPoint } from '../../lib/playbook/index';
import { createRearview, lessons } from '../../lib/session/index';

const UNREAD = 'Use pnpm instead of npm in this repository.';
const RULE = 'No, always run the specs locally before pushing.';
const messages = [
  { role: 'user', content: 'Set up the project.' },
  { role: 'assistant', content: 'Done, the project is set up.' },
  { role: 'user', content: UNREAD },
  { role: 'assistant', content: 'Understood.' },
  { role: 'user', content: RULE },
  { role: 'assistant', content: 'OK.' },
];
/** A scorer that calls every turn a correction. */
const everything: TurnScorer = (_turn, scores) => ({ ...scores, correction: 0.99 });

describe('key points with a learned scorer', () => {
  it('come only from the turns the markers report; the scorer’s other turns keep their insights', () => {
    // The writer alone would write a rule from the turn the markers miss: the gate is what keeps it out.
    expect(writeKeyPoint(UNREAD)).toBe(UNREAD);
    const markers = lessons({ messages });
    expect(markers.insights.map((i) => i.traceRefs[0])).toEqual(['message:m4']);
    const scored = lessons({ messages }, { scorer: everything, minScore: 0.5 });
    expect(scored.insights.map((i) => i.traceRefs[0])).toEqual(['message:m0', 'message:m2', 'message:m4']);
    expect(scored.proposed.map((p) => [p.text, p.traceRefs[0]])).toEqual(
      markers.proposed.map((p) => [p.text, p.traceRefs[0]]),
    );
    expect(scored.proposed.map((p) => p.text)).toEqual(['Always run the specs locally before pushing.']);
  });

  it('holds for the session facade fed in pieces, and for the reader', () => {
    const rv = createRearview({ store: memoryStore(), scorer: everything, minScore: 0.5 });
    for (let i = 2; i <= messages.length; i += 2) rv.observe(messages.slice(0, i));
    expect(rv.proposed().map((p) => p.traceRefs[0])).toEqual(['message:m4']);
    expect(rv.insights().filter((i) => i.category === 'correction')).toHaveLength(3);
    const reader = lessons({ messages }, { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE });
    for (const p of reader.proposed) expect(p.traceRefs[0]).toBe('message:m4');
  });

  it('leaves the markers’ own pipeline as it was: a scorer that returns the markers’ scores changes nothing', () => {
    const same: TurnScorer = (_turn, scores) => scores;
    expect(lessons({ messages }, { scorer: same })).toEqual(lessons({ messages }));
  });
});

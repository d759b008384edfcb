/**
 * The agent's reply after a person's turn (lib/session/acknowledge.ts): with a scorer that reads it
 * (`acknowledges`), a reply that owns a mistake has the turn scored again with `acknowledged`, and the
 * correction that only then passes is reported with the reply — the same whether the conversation came
 * whole, message by message, or with the reply streamed in partial copies — and proposes no key point.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heuristicReflect, type MessageLike, type TurnScorer } from '../../lib/heuristic/index';
import {
  acknowledgedBy,
  ownsMistake,
  READER_RECALL_MIN_SCORE,
  readerModel,
} from '../../lib/heuristic-model/index';
import { memoryStore } from '../../lib/kv/index';
import { createRearview, lessons } from '../../lib/session/index';
import { describeGrowth, measureGrowth } from './linear-time';

const ACK = "You're absolutely right, I'll switch to exponential backoff.";
const conversation: MessageLike[] = [
  { role: 'user', content: 'Add a retry to the fetch.' },
  { role: 'assistant', content: 'Added a retry.' },
  { role: 'user', content: 'The retry should use exponential backoff here.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'edit', input: {} }] },
  { role: 'assistant', content: ACK },
  { role: 'user', content: 'Thanks, looks good!' },
];
const reader = { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE };

/** A scorer that says correction exactly when told `acknowledged`, and keeps the markers' other scores. */
const onlyAcked: TurnScorer = Object.assign(
  (turn: Parameters<TurnScorer>[0], scores: Parameters<TurnScorer>[1]) => ({
    ...scores,
    correction: turn.acknowledged ? 0.99 : 0,
  }),
  { acknowledges: ownsMistake },
);

const view = (
  insights: readonly { category: string; score?: number; tags: string[]; traceRefs: string[] }[],
) => insights.map((i) => [i.category, i.score, i.tags.join('+'), i.traceRefs.join(',')]);

describe('ownsMistake and acknowledgedBy', () => {
  it('read the opening of the agent’s first reply with text after the turn', () => {
    expect(ownsMistake(ACK)).toBe(true);
    expect(ownsMistake('**I apologize** for the confusion.')).toBe(true);
    expect(ownsMistake('Done: the tests pass. You were right.')).toBe(false);
    expect(acknowledgedBy(conversation, 2)).toBe(4); // the tool call without text is passed over
    expect(acknowledgedBy(conversation, 0)).toBe(-1);
    // The person's next message comes first: nothing after it answers this turn.
    expect(acknowledgedBy([conversation[2]!, { role: 'user', content: 'hm' }, conversation[4]!], 0)).toBe(-1);
    expect(acknowledgedBy(null as never, 0)).toBe(-1);
  });

  it('stay linear on replies and runs of tool messages an attacker controls', () => {
    const long = measureGrowth(ownsMistake, (n) => `${'!'.repeat(n)}you're right`);
    expect(long.excess, describeGrowth(long)).toBeLessThanOrEqual(1);
    const run = measureGrowth(
      (messages: MessageLike[]) => acknowledgedBy(messages, 0),
      (n) => [
        { role: 'user', content: 'x' },
        ...Array.from({ length: n / 16 }, () => ({ role: 'tool', content: 'ok' })),
        { role: 'assistant', content: ACK },
      ],
      { sizeOf: (m) => m.length * 16 },
    );
    expect(run.excess, describeGrowth(run)).toBeLessThanOrEqual(1);
  });
});

describe('a correction the agent’s reply confirms', () => {
  it('is reported with the reply, tagged and with the reply last in its references', () => {
    const whole = lessons({ messages: conversation }, reader).insights;
    const acked = whole.filter((i) => i.tags.includes('acknowledged'));
    expect(acked).toHaveLength(1);
    expect(acked[0]).toMatchObject({
      category: 'correction',
      traceRefs: ['message:m2', 'message:m0', 'message:m1', 'message:m4'],
    });
    // heuristicReflect reads each turn as it came: without the reply the reader finds no correction.
    expect(heuristicReflect(conversation, reader).filter((i) => i.category === 'correction')).toEqual([]);
    // A neutral reply confirms nothing.
    const neutral = conversation.map((m) => (m.content === ACK ? { ...m, content: 'Switched.' } : m));
    expect(lessons({ messages: neutral }, reader).insights.some((i) => i.tags.includes('acknowledged'))).toBe(
      false,
    );
  });

  it('is the same whole, message by message, and with the reply streamed in partial copies', () => {
    const whole = view(lessons({ messages: conversation }, reader).insights);
    const pieces = createRearview({ store: memoryStore(), ...reader });
    for (let i = 1; i <= conversation.length; i++) pieces.observe(conversation.slice(0, i));
    expect(view(pieces.insights())).toEqual(whole);
    const streamed = createRearview({ store: memoryStore(), ...reader });
    streamed.observe(conversation.slice(0, 4));
    for (const part of ["You're", "You're absolutely right", ACK])
      streamed.observe([...conversation.slice(0, 4), { role: 'assistant', content: part }]);
    streamed.observe(conversation);
    expect(view(streamed.insights())).toEqual(whole);
    // A copy that owned a mistake, replaced by one that does not: its correction goes with it.
    const retracted = createRearview({ store: memoryStore(), ...reader });
    retracted.observe([
      ...conversation.slice(0, 4),
      { role: 'assistant', content: "You're absolutely right" },
    ]);
    expect(retracted.insights().some((i) => i.tags.includes('acknowledged'))).toBe(true);
    retracted.observe([...conversation.slice(0, 4), { role: 'assistant', content: 'Switched to backoff.' }]);
    expect(retracted.insights().some((i) => i.tags.includes('acknowledged'))).toBe(false);
  });

  it('comes after the turn’s own insights and proposes no key point, in any order of arrival', () => {
    const messages: MessageLike[] = [
      { role: 'user', content: 'Set up the project.' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Always run the specs locally before pushing.' },
      { role: 'assistant', content: 'Sorry, I pushed without running them.' },
    ];
    const options = { scorer: onlyAcked, minScore: 0.5 };
    const whole = lessons({ messages }, options);
    expect(whole.insights.map((i) => i.category)).toEqual(['preference', 'correction']);
    expect(whole.insights[1]!.tags).toContain('acknowledged');
    const plain = lessons({ messages: messages.slice(0, 3) }, options);
    expect(whole.proposed).toEqual(plain.proposed);
    const pieces = createRearview({ store: memoryStore(), ...options });
    for (let i = 1; i <= messages.length; i++) pieces.observe(messages.slice(0, i));
    expect(view(pieces.insights())).toEqual(view(whole.insights));
    expect(pieces.proposed().map((p) => p.text)).toEqual(whole.proposed.map((p) => p.text));
  });

  it('is never read without a scorer that asks for it, nor twice, nor when the scorer throws', () => {
    // The markers: replies after a turn are not read.
    const markersOnly = lessons({ messages: conversation }).insights;
    expect(markersOnly.some((i) => i.tags.includes('acknowledged'))).toBe(false);
    // A turn that gave a correction already gets no second one.
    const always: TurnScorer = Object.assign(
      (_t: Parameters<TurnScorer>[0], s: Parameters<TurnScorer>[1]) => ({ ...s, correction: 0.99 }),
      {
        acknowledges: ownsMistake,
      },
    ) as TurnScorer;
    const once = lessons({ messages: conversation }, { scorer: always, minScore: 0.5 }).insights;
    expect(once.filter((i) => i.category === 'correction' && i.traceRefs[0] === 'message:m2')).toHaveLength(
      1,
    );
    // A scorer whose `acknowledges` or second reading throws leaves the turn as it came.
    const throwing = Object.assign(
      (t: Parameters<TurnScorer>[0], s: Parameters<TurnScorer>[1]) => {
        if (t.acknowledged) throw new Error('no');
        return s;
      },
      { acknowledges: () => true },
    ) as TurnScorer;
    const broken = Object.assign((_t: Parameters<TurnScorer>[0], s: Parameters<TurnScorer>[1]) => s, {
      acknowledges: () => {
        throw new Error('no');
      },
    }) as TurnScorer;
    for (const scorer of [throwing, broken])
      expect(
        lessons({ messages: conversation }, { scorer, minScore: 0 }).insights.some((i) =>
          i.tags.includes('acknowledged'),
        ),
      ).toBe(false);
    // Nor one whose second reading is not four scores: the markers' scores are not taken in its place.
    const zero = { correction: 0, preference: 0, approval: 0, friction: 0 };
    const invalid = Object.assign(
      (t: Parameters<TurnScorer>[0]) =>
        (t.acknowledged ? { correction: 2 } : zero) as Parameters<TurnScorer>[1],
      { acknowledges: () => true },
    ) as TurnScorer;
    const marked: MessageLike[] = [
      { role: 'user', content: 'Add a retry to the fetch.' },
      { role: 'assistant', content: 'Added a retry.' },
      { role: 'user', content: 'No, that is wrong. Use exponential backoff instead.' },
      { role: 'assistant', content: ACK },
    ];
    expect(lessons({ messages: marked }).insights.map((i) => i.category)).toContain('correction');
    expect(
      lessons({ messages: marked }, { scorer: invalid, minScore: 0.5 }).insights.some((i) =>
        i.tags.includes('acknowledged'),
      ),
    ).toBe(false);
  });

  it('asks the scorer about each new turn once, not again as the context of later calls', () => {
    const messages: MessageLike[] = Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: i % 2 ? 'Done.' : `Step ${i}: add the next check, please.`,
    }));
    let calls = 0;
    const counting: TurnScorer = (_turn, scores) => {
      calls++;
      return scores;
    };
    const rv = createRearview({ store: memoryStore(), scorer: counting });
    for (let i = 1; i <= messages.length; i++) rv.observe(messages.slice(0, i));
    expect(calls).toBe(10);
    // With a reply that owns a mistake, the turn before it is asked about once more, with `acknowledged`.
    calls = 0;
    const acking: TurnScorer = Object.assign(counting, { acknowledges: () => true });
    const again = createRearview({ store: memoryStore(), scorer: acking });
    for (let i = 1; i <= messages.length; i++) again.observe(messages.slice(0, i));
    expect(calls).toBe(20);
  });

  it('reads the reply the reader was trained on: the turns acknowledgedBy names, no other (property)', () => {
    // The session walks the messages after a turn itself (a turn's reply may come in a later call);
    // `acknowledgedBy` is the same walk over a whole transcript, and gives the training rows their
    // `acknowledged`. Were the two to drift, the reader would be told what it never learned.
    const pool: MessageLike[] = [
      { role: 'user', content: 'Use pnpm, not npm.' },
      { role: 'user', content: '[Request interrupted by user]' },
      { role: 'user', content: '   ' },
      { role: 'assistant', content: ACK },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] },
      { role: 'tool', content: "You're right" },
      { role: 'assistant', content: 'Done.' },
      { role: 'assistant', content: ACK, synthetic: true },
      { role: 'system', content: 'aider chat started at 2025-01-02 10:00:00' },
      { role: 'system', content: 'note' },
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 10 }), (picked) => {
        const messages = picked.map((m) => ({ ...m }));
        const said = lessons({ messages }, { scorer: onlyAcked, minScore: 0.5 })
          .insights.filter((i) => i.tags.includes('acknowledged'))
          .map((i) => [i.traceRefs[0], i.traceRefs.at(-1)]);
        const walked = messages.flatMap((m, i) => {
          const k = acknowledgedBy(messages, i);
          const turn =
            m.role === 'user' && !m.synthetic && typeof m.content === 'string' && /\S/.test(m.content);
          return turn && !String(m.content).startsWith('[Request interrupted') && k >= 0
            ? [[`message:m${i}`, `message:m${k}`]]
            : [];
        });
        expect(said).toEqual(walked);
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same insights fed whole or in any cut into calls (property)', () => {
    const pool: MessageLike[] = [
      { role: 'user', content: 'Use pnpm, not npm.' },
      { role: 'assistant', content: ACK },
      { role: 'tool', content: 'ok' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'The build still fails.' },
      { role: 'assistant', content: 'Sorry, fixing it.' },
      { role: 'user', content: '' },
      { role: 'system', content: 'aider chat started at 2025-01-02 10:00:00' },
    ];
    const options = { scorer: onlyAcked, minScore: 0.5 };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(12), { maxLength: 4 }),
        (picked, cuts) => {
          const messages = picked.map((m) => ({ ...m }));
          const whole = view(lessons({ messages }, options).insights);
          const rv = createRearview({ store: memoryStore(), ...options });
          for (const c of [...new Set(cuts)].sort((a, b) => a - b))
            if (c > 0 && c < messages.length) rv.observe(messages.slice(0, c));
          rv.observe(messages);
          expect(view(rv.insights())).toEqual(whole);
        },
      ),
      { numRuns: 150 },
    );
  });
});

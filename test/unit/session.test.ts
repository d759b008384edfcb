/**
 * rearview/session: observe is incremental and agrees with heuristicReflect on the whole history, and
 * passes per-category score floors to the heuristics.
 */
import fc from 'fast-check';
import { heuristicReflect, type MessageLike } from 'rearview/heuristic';
import { memoryStore } from 'rearview/kv';
import { createRearview } from 'rearview/session';
import { describe, expect, it } from 'vitest';
import { joinsFormASecret } from '../session-joins';
import { chat, quiet } from './session-helpers';

const TURNS = [
  'How do I run the tests?',
  'No, use vitest instead of jest.',
  'I prefer short answers.',
  "Shouldn't that be using a fixture?",
  'Thanks, that works great!',
  'Actually, please use tabs for indentation.',
  'I already told you, use pnpm not npm.',
  'ok',
  // aider's session header (as a system message): the turns after it wait for a reply of their own.
  'aider chat started at 2025-01-02 10:00:00',
  '',
];

describe('observe', () => {
  it('knows across chunks whether the agent has replied in the session (aider appends sessions)', () => {
    const all: MessageLike[] = [
      { role: 'user', content: 'Add a login page.' },
      { role: 'assistant', content: 'Added it.' },
      { role: 'system', content: 'aider chat started at 2025-01-02 10:00:00' },
      { role: 'user', content: 'Fix the signup bug.' },
      { role: 'user', content: "No, don't change the tests." },
      { role: 'assistant', content: 'Fixed.' },
      { role: 'user', content: "No, don't change the tests." },
    ];
    const whole = heuristicReflect(all);
    // Only the last turn follows a reply of its session.
    expect(whole.map((i) => [i.category, i.traceRefs[0]])).toEqual([['correction', 'message:m6']]);
    for (let cut = 1; cut < all.length; cut++) {
      const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
      const got = [...rv.observe(all.slice(0, cut)).insights, ...rv.observe(all).insights];
      expect(got, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('is incremental: chunks give exactly heuristicReflect of the whole history', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            role: fc.constantFrom('user', 'assistant', 'tool', 'human', 'system'),
            content: fc.oneof(fc.constantFrom(...TURNS), fc.string()),
            withId: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        (raw, chunks, copy) => {
          const all: MessageLike[] = raw.map((r, i) => ({
            role: r.role,
            content: r.content,
            ...(r.withId ? { id: `x${i}` } : {}),
          }));
          // A secret that only exists across two messages is redacted from its second half on: its own tests.
          fc.pre(!joinsFormASecret(all));
          const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
          const grown: MessageLike[] = [];
          const got = [];
          let c = 0;
          while (grown.length < all.length) {
            const k = chunks[c++ % chunks.length]!;
            grown.push(...all.slice(grown.length, grown.length + k));
            // Either the same array mutated or a fresh copy with equal (not identical) messages.
            const passed = copy ? grown.map((m) => ({ ...m })) : grown;
            const r = rv.observe(passed);
            got.push(...r.insights);
          }
          expect(got).toEqual(heuristicReflect(all));
          expect(rv.insights()).toEqual(got);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('analyses only the new messages, and a different conversation from its start', () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const msgs = chat();
    expect(rv.observe(msgs.slice(0, 2)).analysed).toBe(2);
    expect(rv.observe(msgs.slice(0, 2)).analysed).toBe(0);
    const r = rv.observe(msgs.slice(0, 3));
    expect(r.analysed).toBe(1);
    expect(r.proposed).toEqual([
      {
        section: 'MISTAKES TO AVOID',
        text: 'Use pnpm instead of npm.',
        category: 'correction',
        traceRefs: ['message:m2', 'message:m0', 'message:m1'],
        // What the correction corrected, so the key point can say what to do instead.
        context: 'Run npm install.',
      },
    ]);
    expect(rv.observe([{ role: 'user', content: 'Something else entirely' }]).analysed).toBe(1);
    expect(rv.observe('nope' as unknown as MessageLike[]).analysed).toBe(0);
  });

  it('analyses only the new messages as the history grows to 10,000 messages', () => {
    // A count of work, not a clock: each call reads the one message it has not seen (the time per call
    // as the history grows is bench/session.bench.ts's observe/incremental-*).
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const msgs: MessageLike[] = [];
    const analysed: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      msgs.push(
        i % 2 === 0
          ? { role: 'user', content: TURNS[i % TURNS.length]! }
          : { role: 'assistant', content: `Answer ${i} with some words in it.` },
      );
      analysed.push(rv.observe(msgs).analysed);
    }
    expect(analysed.every((n) => n === 1)).toBe(true);
    expect(rv.insights().length).toBe(heuristicReflect(msgs).length);
  });
});

describe('per-category score floors', () => {
  it('passes a per-category minScore to the heuristics, as heuristicReflect applies it', () => {
    // A scorer that rates every turn the same in all four categories, so only the floors decide.
    const scorer = () => ({ correction: 0.6, preference: 0.6, approval: 0.6, friction: 0.6 });
    const floors = { correction: 0.5, preference: 0.9, approval: 0.9, friction: 0.9 };
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet, scorer, minScore: floors });
    rv.observe(chat());
    const kept = rv.insights().map((i) => i.category);
    expect(kept.length).toBeGreaterThan(0);
    expect(new Set(kept)).toEqual(new Set(['correction']));
    expect(rv.insights()).toEqual(heuristicReflect(chat(), { scorer, minScore: floors }));
  });
});

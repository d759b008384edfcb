/**
 * Scope `delivered` (`entriesFromMessages`): the person's latest turn, answered by the agent in words
 * of 1,500 characters or more in all, is carried out — no next action and no open question
 * (eval/snapshot/sets/pending/delivered.jsonl). A shorter answer leaves it `replied`: answered, still
 * a step to take.
 */
import fc from 'fast-check';
import {
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  reflectedSnapshotPrompt,
  snapshotInputFrom,
} from 'rearview/snapshot';
import type { Message } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';

const msg = (id: string, role: Message['role'], content: string, extra: Partial<Message> = {}): Message => ({
  id,
  role,
  content,
  source: {},
  ...extra,
});
const REQUEST = 'Write a function that parses the CSV export and sums the totals column.';
/** An answer of exactly `n` characters. */
const answerOf = (n: number) => `Here is the parser. ${'x'.repeat(Math.max(0, n - 20))}`.slice(0, n);

const scopeOfRequest = (answer: Message[]) =>
  entriesFromMessages([
    msg('u1', 'user', 'Hello there, I have a CSV question.'),
    msg('a0', 'assistant', 'Sure, ask away.'),
    msg('u2', 'user', REQUEST),
    ...answer,
  ]).entries.find((e) => e.value === REQUEST)?.scope;

describe('scope `delivered`: the latest turn answered at length', () => {
  it('is no next action once the answer reaches 1,500 characters, and still one below', () => {
    expect(scopeOfRequest([msg('a1', 'assistant', answerOf(1500))])).toBe('delivered');
    expect(scopeOfRequest([msg('a1', 'assistant', answerOf(1499))])).toBe('replied');
    // The agent's messages after the turn count together.
    expect(
      scopeOfRequest([msg('a1', 'assistant', answerOf(800)), msg('a2', 'assistant', answerOf(700))]),
    ).toBe('delivered');
    const { objective, entries } = entriesFromMessages([
      msg('u1', 'user', REQUEST),
      msg('a1', 'assistant', answerOf(2000)),
    ]);
    const t = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    expect(t.snapshot.nextActions).not.toContain(REQUEST);
    expect(t.dropped).toContainEqual(expect.objectContaining({ text: REQUEST, reason: 'done' }));
  });

  it("counts neither tool calls nor an error of the agent's own model call", () => {
    const call = msg('c1', 'assistant', JSON.stringify({ command: 'x'.repeat(3000) }), { toolName: 'Bash' });
    expect(scopeOfRequest([call, msg('a1', 'assistant', 'Done.')])).toBe('replied');
    const error = msg('a1', 'assistant', `API Error: 500 ${'x'.repeat(3000)}`);
    expect(scopeOfRequest([error, msg('a2', 'assistant', 'Retrying now.')])).toBe('replied');
  });

  it('tells the reflection what the scope means when an entry has it', () => {
    const prompt = (n: number) => {
      const { objective, entries } = entriesFromMessages([
        msg('u1', 'user', REQUEST),
        msg('a1', 'assistant', answerOf(n)),
      ]);
      return reflectedSnapshotPrompt(snapshotInputFrom(objective, entries));
    };
    expect(prompt(1500)).toContain('An entry of scope "delivered"');
    expect(prompt(100)).not.toContain('An entry of scope "delivered"');
  });

  it('gives `delivered` exactly to the latest turn whose answer in words holds 1,500 characters (property)', () => {
    const part = fc.record({
      role: fc.constantFrom('user', 'assistant', 'call'),
      size: fc.integer({ min: 12, max: 1200 }),
    });
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const messages = parts.map((p, i) =>
          p.role === 'call'
            ? msg(`c${i}`, 'assistant', 'x'.repeat(p.size), { toolName: 'Bash' })
            : msg(`m${i}`, p.role as 'user' | 'assistant', `${p.role} ${i} ${'y'.repeat(p.size)}`),
        );
        const latest = parts.map((p) => p.role).lastIndexOf('user');
        const said = messages
          .slice(latest + 1)
          .filter((m) => m.role === 'assistant' && !m.toolName)
          .reduce((a, m) => a + m.content.length, 0);
        for (const e of entriesFromMessages(messages).entries) {
          if (e.sourceIteration !== latest) continue;
          expect(e.scope === 'delivered', `${JSON.stringify(parts)}`).toBe(latest >= 0 && said >= 1500);
        }
      }),
    );
  });
});

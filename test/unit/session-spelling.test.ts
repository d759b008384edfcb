/**
 * `createRearview({ isWord })` and `lessons(input, { isWord })`: a typo in a proposed key point is
 * repaired against the words of the session so far, the same way whether the messages come at once,
 * one by one, or as a streamed message re-sent with more text; without `isWord` nothing changes.
 */
import { memoryStore } from 'rearview/kv';
import { createRearview, lessons } from 'rearview/session';
import { describe, expect, it } from 'vitest';

const quiet = { broadcast: false as const, onWarning: () => {} };
const WORDS = new Set('always run the specs before you push i will every and a commit'.split(' '));
const isWord = (w: string) => WORDS.has(w.toLowerCase());

const chat = [
  { role: 'user', content: 'Set up the specs.' },
  {
    role: 'assistant',
    content: 'I will run the specs before every push, and before a commit: before, always.',
  },
  { role: 'user', content: 'No, always run the specs beforu you push.' },
];
const texts = (ps: readonly { text: string }[]) => ps.map((p) => p.text);

describe('key points with a dictionary', () => {
  it('repairs a typo the session shows the spelling of, and nothing without a dictionary', () => {
    expect(texts(lessons({ messages: chat }, { isWord }).proposed)).toEqual([
      'Always run the specs before you push.',
    ]);
    expect(texts(lessons({ messages: chat }).proposed)).toEqual(['Always run the specs beforu you push.']);
  });

  it('proposes the same whether the messages come at once, one by one, or streamed', () => {
    const once = createRearview({ store: memoryStore(), storeOptions: quiet, isWord });
    once.observe(chat);
    const stepwise = createRearview({ store: memoryStore(), storeOptions: quiet, isWord });
    for (let i = 1; i <= chat.length; i++) stepwise.observe(chat.slice(0, i));
    const streamed = createRearview({ store: memoryStore(), storeOptions: quiet, isWord });
    const last = chat[2]!.content;
    for (const n of [10, 25, last.length])
      streamed.observe([...chat.slice(0, 2), { role: 'user', content: last.slice(0, n) }]);
    for (const rv of [once, stepwise, streamed])
      expect(texts(rv.proposed())).toEqual(['Always run the specs before you push.']);
  });

  it('keeps the spelling when the dictionary throws', () => {
    const broken = () => {
      throw new Error('broken dictionary');
    };
    expect(texts(lessons({ messages: chat }, { isWord: broken }).proposed)).toEqual([
      'Always run the specs beforu you push.',
    ]);
  });
});

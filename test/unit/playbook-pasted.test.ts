/**
 * A person's turn that pastes the agent's own earlier words back ("See below for a dump of what we've
 * done thus far:" and the agent's summary): the key-point writer reads the person's own lines only, in
 * `learn` and the lessons pipeline (`turnContexts`) and in the session facade (`observe`). Invented
 * conversations in the shape of the shared one that showed it (a SpecStory export).
 */
import { heuristicReflect } from 'rearview/heuristic';
import { memoryStore } from 'rearview/kv';
import { insightProposals, noteAgentLines, ownWords, saidLines, turnContexts } from 'rearview/playbook';
import { createRearview } from 'rearview/session';
import { describe, expect, it } from 'vitest';

const PASTED = 'Always keep the Supabase client for writes optional in this repository.';
const messages = [
  { id: 'u0', role: 'user', content: 'Get the E2E tests of the chat page passing.' },
  { id: 'a0', role: 'assistant', content: `The conversation page still hangs in the browser.\n\n${PASTED}` },
  { id: 'u1', role: 'user', content: `No, read your own summary again, it says it.\n${PASTED}` },
  { id: 'a1', role: 'assistant', content: 'You are right, I will route the writes through the API.' },
  {
    id: 'u2',
    role: 'user',
    content: `No, that is wrong. Always run the whole E2E suite before you report a status.\n${PASTED}`,
  },
];

describe('lines pasted back from the agent', () => {
  it('are not the person’s words: ownWords drops them, a line the person said first stays', () => {
    const said = saidLines();
    noteAgentLines(said, `The page still hangs.\n  ${PASTED}  `);
    expect(ownWords(said, `Look at this:\n${PASTED}`)).toBe('Look at this:');
    // Short lines may repeat by chance: kept.
    expect(ownWords(said, 'Look at this:\nDone.')).toBe('Look at this:\nDone.');
    // A line the person typed before the agent repeated it stays the person's when typed again.
    const again = saidLines();
    const line = 'Read TODO.md and find the first task marked with an empty box.';
    expect(ownWords(again, line)).toBe(line);
    noteAgentLines(again, line);
    expect(ownWords(again, line)).toBe(line);
  });

  it('give no key point in turnContexts, and the person’s own rule still gives one', () => {
    const turns = turnContexts(messages);
    expect(turns.get('message:u1')?.text).toBe('No, read your own summary again, it says it.');
    const insights = heuristicReflect(messages);
    const of = (ref: string) => {
      const insight = insights.find((i) => i.traceRefs[0] === ref);
      expect(insight?.category, ref).toBe('correction');
      return insight!;
    };
    expect(insightProposals(of('message:u1'), turns.get('message:u1')!)).toEqual([]);
    // Read with the pasted line, the writer had put the agent's words in the person's mouth.
    expect(insightProposals(of('message:u1'), messages[2]!.content).map((p) => p.text)).toEqual([PASTED]);
    expect(insightProposals(of('message:u2'), turns.get('message:u2')!).map((p) => p.text)).toEqual([
      'Always run the whole E2E suite before you report a status.',
    ]);
  });

  it('give no key point in the session facade either', () => {
    const rv = createRearview({
      store: memoryStore(),
      storeOptions: { broadcast: false as const, onWarning: () => {} },
    });
    const texts = rv.observe(messages).proposed.map((p) => p.text);
    expect(texts).toContain('Always run the whole E2E suite before you report a status.');
    expect(texts.some((t) => /Supabase/.test(t))).toBe(false);
  });
});

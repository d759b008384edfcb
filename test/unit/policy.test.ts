/**
 * The insight → key point policy of rearview/playbook: sections, texts and what is left out; the
 * session facade proposes exactly what the policy says for heuristicReflect's insights; the playground
 * uses the same policy (and redacts) instead of its own.
 */
import fc from 'fast-check';
import { heuristicReflect, type MessageLike, type ReflectionInsight } from 'rearview/heuristic';
import { proposeKeyPoint } from 'rearview/playbook';
import { createRearview } from 'rearview/session';
import { memoryStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { insightOperations } from '../../playground/src/playbook-store';

const insightOf = (text: string, category: ReflectionInsight['category']) => {
  const found = heuristicReflect([{ role: 'user', content: text, id: 't' }]).find(
    (i) => i.category === category,
  );
  if (!found) throw new Error(`no ${category} in ${JSON.stringify(text)}`);
  return found;
};

describe('proposeKeyPoint', () => {
  it('turns a correction with advice into a sentence in MISTAKES TO AVOID', () => {
    const text = 'No, use pnpm instead of npm.';
    expect(proposeKeyPoint(insightOf(text, 'correction'), text)).toEqual({
      section: 'MISTAKES TO AVOID',
      text: 'Use pnpm instead of npm.',
      category: 'correction',
      traceRefs: ['message:t'],
    });
  });

  it('quotes a correction without advice, on one line and bounded', () => {
    const text = `No, that is wrong.\nThe ${'numbers '.repeat(60)}are off.`;
    const p = proposeKeyPoint(insightOf(text, 'correction'), text)!;
    expect(p.section).toBe('MISTAKES TO AVOID');
    expect(p.text).toMatch(/^The user corrected this: "No, that is wrong\. The numbers .*…"$/);
    expect(new TextEncoder().encode(p.text).length).toBeLessThan(260);
  });

  it('keeps challenges by default and drops them with minConfidence: high', () => {
    const text = "Shouldn't that be using a fixture?";
    const insight = insightOf(text, 'correction');
    expect(insight.confidence).toBe('medium');
    expect(proposeKeyPoint(insight, text)?.section).toBe('MISTAKES TO AVOID');
    expect(proposeKeyPoint(insight, text, { minConfidence: 'high' })).toBeUndefined();
  });

  it('preferences go to USER PREFERENCES; a bare approval teaches nothing', () => {
    const pref = 'I prefer short answers.';
    expect(proposeKeyPoint(insightOf(pref, 'preference'), pref)).toMatchObject({
      section: 'USER PREFERENCES',
      text: 'User preference: "I prefer short answers."',
    });
    const thanks = 'Great, thanks!';
    expect(proposeKeyPoint(insightOf(thanks, 'preference'), thanks)).toBeUndefined();
  });

  it('friction only when it says what to do, and other categories never', () => {
    const told = 'I already told you, use tabs not spaces.';
    expect(proposeKeyPoint(insightOf(told, 'friction'), told)).toMatchObject({
      section: 'USER PREFERENCES',
      text: 'Use tabs not spaces.',
    });
    const again = 'Again? I already told you that.';
    expect(proposeKeyPoint(insightOf(again, 'friction'), again)).toBeUndefined();
    const toolFailure = {
      category: 'anti_pattern',
      confidence: 'high' as const,
      tags: ['tool_failure'],
      traceRefs: ['message:x'],
    };
    expect(proposeKeyPoint(toolFailure, 'use the other tool instead')).toBeUndefined();
  });

  it('is what the session facade proposes for every turn', () => {
    const turns = [
      'How do I run the tests?',
      'No, use vitest instead of jest.',
      'I prefer short answers.',
      "Shouldn't that be using a fixture?",
      'Thanks, that works great!',
      'Actually, please use tabs for indentation.',
      'I already told you, use pnpm not npm.',
      'ok',
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.constantFrom(...turns) }),
          { maxLength: 20 },
        ),
        fc.constantFrom('high' as const, 'medium' as const),
        (raw, minConfidence) => {
          const messages: MessageLike[] = raw.map((m, i) => ({ ...m, id: `m${i}` }));
          const rv = createRearview({
            store: memoryStore(),
            storeOptions: { broadcast: false },
            minConfidence,
          });
          rv.observe(messages);
          const byId = new Map(messages.map((m) => [`message:${m.id}`, m.content as string]));
          const expected = heuristicReflect(messages).flatMap((insight) => {
            const p = proposeKeyPoint(insight, byId.get(insight.traceRefs[0]!)!, { minConfidence });
            return p ? [p] : [];
          });
          expect(rv.proposed()).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the playground uses the library policy', () => {
  it('builds its ADD operations with proposeKeyPoint, redacted, and leaves out what teaches nothing', () => {
    const texts: Record<string, string> = {
      'message:a': 'No, use jane.doe@example.com instead of the team alias.',
      'message:b': 'I already told you, use tabs not spaces.',
      'message:c': 'Great, thanks!',
    };
    const insights = heuristicReflect(
      Object.entries(texts).map(([ref, content]) => ({ role: 'user', content, id: ref.slice(8) })),
    );
    insights.push({
      fact: 'Tool `Bash` failed: exit 1',
      recommendation: 'Inspect the raw output before retrying `Bash`.',
      category: 'anti_pattern',
      confidence: 'high',
      tags: ['tool_failure', 'tool:Bash'],
      traceRefs: ['message:d'],
    });
    const ops = insightOperations(insights, (ref) => texts[ref]);
    expect(ops).toEqual([
      {
        type: 'ADD',
        section: 'MISTAKES TO AVOID',
        text: 'Use [email-1] instead of the team alias.',
        source: { session: 'playground', traceRefs: ['message:a'] },
      },
      {
        type: 'ADD',
        section: 'MISTAKES TO AVOID',
        text: 'Use tabs not spaces.',
        source: { session: 'playground', traceRefs: ['message:b', 'message:a'] },
      },
      {
        type: 'ADD',
        section: 'USER PREFERENCES',
        text: 'Use tabs not spaces.',
        source: { session: 'playground', traceRefs: ['message:b'] },
      },
    ]);
  });
});

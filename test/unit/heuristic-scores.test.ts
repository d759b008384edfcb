/**
 * Scores and `minScore`: every insight's score and confidence band, the default threshold, the
 * recommendation a preference states its rule in, and approval as its own category.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyTurn,
  confidenceOf,
  DEFAULT_MIN_SCORE,
  extractRecommendation,
  heuristicReflect,
  type TurnScorer,
} from '../../lib/heuristic/index';
import { reply, user } from './heuristic-scores-helpers';

describe('scores and minScore', () => {
  it('every insight has a score in [0, 1] at or above minScore, and its confidence is the score band', () => {
    const texts = fc.constantFrom(
      'No, not GraphQL. I said REST endpoint.',
      "Shouldn't that be using a fixture?",
      'Perfect, thanks!',
      'From now on, always use tabs.',
      'As I mentioned, use PostgreSQL.',
      'still doesnt work',
      'What is the weather like?',
      '/undo',
    );
    fc.assert(
      fc.property(
        fc.array(texts, { maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (turns, min) => {
          const insights = heuristicReflect(
            turns.map((t) => user(t)),
            { minScore: min },
          );
          for (const i of insights) {
            expect(i.score).toBeGreaterThan(0);
            expect(i.score).toBeLessThanOrEqual(1);
            expect(i.score).toBeGreaterThanOrEqual(min);
            expect(i.confidence).toBe(confidenceOf(i.score!));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the default threshold keeps only the kinds of evidence precise on unseen authors', () => {
    const messages = [
      reply(),
      user('I like tabs.'),
      user('As I mentioned, use PostgreSQL.'),
      user('This is wrong.'),
    ];
    // A friction marker is precise enough since the "still …" markers joined its list (0.82).
    expect(heuristicReflect(messages).map((i) => i.category)).toEqual(['friction', 'correction']);
    expect(heuristicReflect(messages, { minScore: DEFAULT_MIN_SCORE })).toEqual(heuristicReflect(messages));
    const all = heuristicReflect(messages, { minScore: 0 });
    expect(all.map((i) => i.category)).toEqual(['preference', 'friction', 'correction']);
    expect(all[0]!.score).toBeLessThan(DEFAULT_MIN_SCORE);
  });

  it('reports a preference that states a rule in a short turn, not one that only likes something or runs long', () => {
    const read = (text: string) => heuristicReflect([user('Add a login page.'), reply(), user(text)]);
    const stated = [
      'From now on, always use pnpm instead of npm.',
      'I prefer tabs over spaces in this repo.',
      "I'd rather you used Vitest.",
      'Never use any in TypeScript.',
      'Please stop at each stable point and let me review your work.',
    ];
    for (const text of stated) {
      const found = read(text).filter((i) => i.category === 'preference');
      expect(found, text).toHaveLength(1);
      expect(found[0]!.score, text).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
    }
    // Liking something states no rule; the same rule deep in a long task spec is the spec's.
    expect(read('I like it.')).toEqual([]);
    expect(read('I love the new layout, thanks.')).toEqual([]);
    const spec = `${'The service keeps a queue of jobs and retries each failed one with a backoff. '.repeat(5)}Always use pnpm.`;
    expect(read(spec)).toEqual([]);
    const scores = heuristicReflect([reply(), user('I like tabs.'), user(stated[0]!)], { minScore: 0 });
    expect(scores.map((i) => [i.category, i.score])).toEqual([
      ['preference', 0.44],
      ['preference', 0.84],
    ]);
  });

  it("keeps the words before 'use' that make the rule, and the sentence a preference states its rule in", () => {
    const rec = (text: string) =>
      heuristicReflect([user('Add a login page.'), reply(), user(text)]).map((i) => i.recommendation);
    expect(rec('Never use any in TypeScript.')).toEqual(['Never use any in TypeScript']);
    expect(rec("That's wrong, do not use the global client.")).toEqual(['do not use the global client']);
    expect(rec('From now on, always use pnpm instead of npm.')).toEqual(['always use pnpm instead of npm']);
    expect(rec('No, use the fixture.')).toEqual(['use the fixture']);
    expect(rec('I prefer tabs over spaces in this repo.')).toEqual([
      'I prefer tabs over spaces in this repo',
    ]);
    expect(rec('Perfect. From now on always run the migrations first.')[0]).toBe(
      'From now on always run the migrations first',
    );
    expect(rec('No, that is wrong.')).toEqual(["Apply the user's correction."]);
  });

  it("a preference with no rule word (a scorer's, or another language's) quotes its first sentence, never the correction's placeholder", () => {
    const scorer: TurnScorer = (turn, scores) =>
      turn.text.startsWith('Add') ? scores : { ...scores, preference: 0.9 };
    const prefs = (text: string) =>
      heuristicReflect([user('Add a login page.'), reply(), user(text)], { scorer })
        .filter((i) => i.category === 'preference')
        .map((i) => i.recommendation);
    expect(prefs('Prefiero que uses pnpm en este repo. Gracias')).toEqual([
      'Prefiero que uses pnpm en este repo',
    ]);
    expect(prefs('  Tabs for indentation here')).toEqual(['Tabs for indentation here']);
    expect(extractRecommendation('Prefiero pnpm. Gracias', true)).toBe('Prefiero pnpm');
    expect(extractRecommendation('   ', true)).toBe("Apply the user's correction.");
    expect(extractRecommendation('Prefiero pnpm. Gracias')).toBe("Apply the user's correction.");
  });

  it('confidence bands', () => {
    expect([0.95, 0.8, 0.79, 0.6, 0.59, 0].map(confidenceOf)).toEqual([
      'high',
      'high',
      'medium',
      'medium',
      'low',
      'low',
    ]);
  });
});

describe('approval is its own category', () => {
  it('bare approval is approval, not a preference; a lasting rule stays a preference', () => {
    expect(heuristicReflect([user('Perfect, thanks!')])).toMatchObject([
      {
        category: 'approval',
        recommendation: 'Continue this approach.',
        tags: ['user_feedback', 'approval'],
      },
    ]);
    expect(classifyTurn('good, commit')).toMatchObject({ approval: true, preference: false });
    expect(classifyTurn('From now on, always use tabs.')).toMatchObject({
      approval: false,
      preference: true,
    });
  });

  it('approval that also corrects is a correction', () => {
    const cats = heuristicReflect(
      [reply(), user("Great work, but that's wrong: the button is still blue.")],
      {
        minScore: 0.5,
      },
    ).map((i) => i.category);
    expect(cats).toEqual(['correction']);
  });
});

/**
 * The key point writer's scanners in linear time, proven by growth ratios (test/unit/linear-time.ts):
 * isWellFormedKeyPoint, saysStanding, an approval's liking and writeKeyPoint on adversarial turns.
 */
import { insightProposals, isWellFormedKeyPoint, saysStanding, writeKeyPoint } from 'rearview/playbook';
import { describe, expect, it } from 'vitest';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

describe('isWellFormedKeyPoint in linear time', () => {
  // The end of the sentence is read from the end: `[.!]+$` and `[\p{L}\p{N}'’]+$` tried a long run from
  // each of its characters when something else ended the text (3.9 s and 3.7 s on 80 KB).
  it.each([
    ['dots, then a letter', (n: number) => fill(n, '.', 'Use ', 'x')],
    ['a long word, then another', (n: number) => fill(n, 'a', 'Use the ', ' x')],
  ])('%s', (_name, make) => {
    const g = measureGrowth(isWellFormedKeyPoint, make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('saysStanding in linear time', () => {
  // CHOICE's `\s+` before a lookahead to the next punctuation retried every split of a run of spaces
  // (3.7 s on 40 KB); a long text is read with its runs of white space made one space.
  it.each([
    ['a run of spaces after the verb', (n: number) => fill(n, ' ', 'use')],
    ['runs of spaces and words', (n: number) => fill(n, '   a', 'Use ', ' instead of')],
  ])('%s', (_name, make) => {
    const g = measureGrowth(saysStanding, make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
  it('answers as before on short instructions, and reads long ones the same way', () => {
    expect(saysStanding(`Use pnpm${' '.repeat(500)}instead of npm.`)).toBe(true);
    expect(saysStanding(`use${' '.repeat(500)}`)).toBe(false);
    expect(saysStanding('Use a  rather than  an pnpm an npm')).toBe(true);
  });
});

describe('an approval with a liking, on adversarial turns', () => {
  // The sentence of liking an approving turn drops is found from each sentence end: one pass.
  it.each([
    ['ends of sentences and spaces', '.   '],
    ['likings without an end', 'i like x '],
    ['likings', 'i like it. '],
  ])('stays linear on %s', (_, unit) => {
    const approval = {
      category: 'approval' as const,
      confidence: 'high' as const,
      tags: ['user_feedback', 'approval'],
      traceRefs: ['message:m1'],
    };
    const g = measureGrowth(
      (text: string) => insightProposals(approval, text),
      (n) => fill(n, unit, 'Great. ', ' From now on always run the migrations first.'),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('writeKeyPoint on adversarial turns', () => {
  // It reads at most the first 4,000 characters; within them every scan must stay linear.
  it.each([
    ['blank lines', '\n'],
    ['spaces', ' '],
    ['question marks', '?'],
    ['repeated rules', 'always use a instead of b, '],
    ['lead clauses', 'before x, '],
    ['an open fence', '```'],
    ['I would rather', 'i would rather '],
    ['strong marks never closed', '**a '],
  ])('stays linear on %s (each doubling at most triples the time, one step allowed)', (_, unit) => {
    const g = measureGrowth(
      (text: string) => writeKeyPoint(text),
      (n) => fill(n, unit, 'No, ', '.'),
      { sizes: [500, 1_000, 2_000, 4_000], rounds: 3 },
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

/**
 * Linear time of the heuristics (heuristicReflect on one user turn, a preference's recommendation) and
 * of the playbook's dedup and index (findDuplicates, dedupeProposals), proven by growth ratios on
 * adversarial inputs (test/unit/linear-time.ts).
 */
import { describe, expect, it } from 'vitest';
import { heuristicReflect } from '../../lib/heuristic/index';
import { extractRecommendation } from '../../lib/heuristic/recommend';
import { dedupeProposals, emptyPlaybook, findDuplicates } from '../../lib/playbook/index';
import { describeGrowth, fill, measureGrowth } from './linear-time';
import { type Case, linear, prepared } from './linear-time-helpers';

describe('heuristics', () => {
  linear('heuristicReflect (one user turn)', (content) => heuristicReflect([{ role: 'user', content }]), [
    ['double quotes', (n) => fill(n, '"')],
    ['backticks', (n) => fill(n, '`')],
    ['no, repeated', (n) => fill(n, 'no, ')],
    ['short lines', (n) => fill(n, 'a\n')],
    ['dashes', (n) => fill(n, '- -- — ')],
    ['a long word', (n) => fill(n, 'a')],
    ["don't repeated", (n) => fill(n, "don't use ")],
    ['I said repeated', (n) => fill(n, 'I said always use x. ')],
    // A lone `<tag>` looks for its `</tag>` in the next 4,000 characters only (found by npm run fuzz:
    // it searched to the end, once per tag).
    ['lone tags', (n) => fill(n, '<user>.')],
    ['lone tags, all different', (n) => fill(n, '<ab>.<ac>.<ad>.')],
    ['tags closed far away', (n) => fill(n, '<a>.', '', '</a>')],
  ]);
  // A preference's recommendation looks for the sentence that states its rule: each sentence once.
  linear('extractRecommendation (a preference)', (text) => extractRecommendation(text, true), [
    ['one sentence, no rule word', (n) => fill(n, 'x ')],
    ['sentence ends only', (n) => fill(n, '.')],
    ['short sentences, no rule word', (n) => fill(n, 'ab. ')],
    ['near-misses of the words', (n) => fill(n, 'preferr alwaysx nevers from now ')],
    ['a rule word last', (n) => fill(n, 'x ', '', ' always')],
  ]);
});

describe('playbook dedup and index', () => {
  /** A playbook of one key point a line. */
  const playbookOf = (text: string) => {
    const pb = emptyPlaybook();
    pb.sections.OTHERS = text
      .split('\n')
      .map((t, i) => ({ name: `oth-${String(i + 1).padStart(5, '0')}`, text: t, helpful: 0, harmful: 0 }));
    return pb;
  };
  const LINES: readonly Case[] = [
    ['the same key point', (n) => fill(n, 'Run the tests before a push\n')],
    [
      'distinct key points',
      (n) => Array.from({ length: n / 30 }, (_, i) => `Use tool${i} for task${i * 7}\n`).join(''),
    ],
    ['long lines of one word', (n) => fill(n, `${'a'.repeat(2000)}\n`)],
  ];
  linear(
    'findDuplicates',
    prepared(playbookOf, findDuplicates),
    LINES.filter(([name]) => name !== 'distinct key points'),
  );
  // Distinct key points: every shingle is new, so the index's tables grow with the input; they are
  // typed arrays sized once from the word counts (arrays grown by push stepped up in cost past engine
  // size classes: 2.03 2.37 3.19 3.20 per doubling before).
  it('findDuplicates on distinct key points', () => {
    const g = measureGrowth(prepared(playbookOf, findDuplicates), (n) =>
      Array.from({ length: n / 30 }, (_, i) => `Use tool${i} for task${i * 7}\n`).join(''),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
  // Key points in a few groups of verbatim copies that are near duplicates of each other: clustering
  // works on unit pairs (dedup-stars.ts, starClustersByUnit), never on every pair of their members.
  it('findDuplicates on groups of near duplicates', () => {
    const g = measureGrowth(prepared(playbookOf, findDuplicates), (n) =>
      Array.from({ length: n / 40 }, (_, i) => `Run the tests before push ${i % 7}\n`).join(''),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
  // dedupeProposals is findDuplicates over the playbook and the proposals (3.23 1.41 3.36 3.21 per
  // doubling before the index's tables were sized once).
  it('dedupeProposals on distinct proposals', () => {
    const g = measureGrowth(
      prepared(
        (text) =>
          text
            .split('\n')
            .map((t) => ({ section: 'OTHERS' as const, text: t, category: 'preference', traceRefs: [] })),
        (proposals) => dedupeProposals(proposals, emptyPlaybook()),
      ),
      (n) => Array.from({ length: n / 30 }, (_, i) => `Use tool${i} for task${i * 7}\n`).join(''),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
  linear(
    'dedupeProposals',
    prepared(
      (text) =>
        text
          .split('\n')
          .map((t) => ({ section: 'OTHERS' as const, text: t, category: 'preference', traceRefs: [] })),
      (proposals) => dedupeProposals(proposals, emptyPlaybook()),
    ),
    LINES.filter(([name]) => name !== 'distinct key points'),
  );
});

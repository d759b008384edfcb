/**
 * The Curator's near-duplicate merging on the realistic playbook fixture: lexical groups, star clusters,
 * property tests against the all-pairs oracle, and candidates confirmed by an embedding function.
 */
import fc from 'fast-check';
import {
  deduplicate,
  emptyPlaybook,
  findDuplicates,
  findDuplicatesAllPairs,
  findDuplicatesWithEmbeddings,
  SECTION_NAMES,
} from 'rearview/playbook';
import { describe, expect, it } from 'vitest';
import { find, fixture } from './curator-helpers';

describe('near-duplicate merging', () => {
  it('finds the lexical duplicates of the fixture and merges them, summing counters', () => {
    const pb = fixture();
    const groups = findDuplicates(pb);
    expect(groups).toEqual([
      { into: 'pat-005', names: ['pat-005', 'pat-008'], section: 'PATTERNS & APPROACHES', similarity: 1 },
      { into: 'mis-003', names: ['mis-003', 'mis-005'], section: 'MISTAKES TO AVOID', similarity: 0.75 },
    ]);
    const { playbook, operations, rejected } = deduplicate(pb, { now: () => 't' });
    expect(rejected).toEqual([]);
    expect(operations[0]).toMatchObject({
      type: 'MERGE',
      into: 'pat-005',
      text: pb.sections['PATTERNS & APPROACHES'][4]!.text,
    });
    expect(find(playbook, 'pat-005')).toMatchObject({ helpful: 5, harmful: 0 });
    expect(find(playbook, 'mis-003')).toMatchObject({ helpful: 2, harmful: 3 });
    expect(findDuplicates(playbook)).toEqual([]);
  });

  it('clusters are stars around the most trusted key point; other sections are left alone', () => {
    const pb = emptyPlaybook();
    pb.sections['PATTERNS & APPROACHES'].push(
      { name: 'pat-001', text: 'alpha beta gamma delta epsilon', helpful: 0, harmful: 0 },
      { name: 'pat-002', text: 'alpha beta gamma delta epsilon zeta', helpful: 9, harmful: 0 },
      { name: 'pat-003', text: 'alpha beta gamma delta epsilon zeta eta theta', helpful: 0, harmful: 0 },
    );
    pb.sections['MISTAKES TO AVOID'].push({
      name: 'mis-001',
      text: 'alpha beta gamma delta epsilon',
      helpful: 0,
      harmful: 0,
    });
    const groups = findDuplicates(pb, { threshold: 0.6 });
    expect(groups).toEqual([
      {
        into: 'pat-002',
        names: ['pat-002', 'pat-001', 'pat-003'],
        section: 'PATTERNS & APPROACHES',
        similarity: 0.733333,
      },
    ]);
    expect(findDuplicates(pb, { threshold: 0.6, sameSection: false })[0]!.names).toContain('mis-001');
    expect(() => findDuplicates(pb, { threshold: 0 })).toThrow(RangeError);
  });

  it('equals the all-pairs oracle on random playbooks (property)', () => {
    const word = fc.constantFrom(
      'run',
      'test',
      'suite',
      'file',
      'type',
      'hint',
      'db',
      'migrate',
      'git',
      'stash',
      'api',
      'cache',
    );
    const text = fc.array(word, { minLength: 0, maxLength: 8 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...SECTION_NAMES), text, fc.nat(5), fc.nat(5)), { maxLength: 40 }),
        fc.constantFrom(0.3, 0.5, 0.6, 0.8, 1),
        fc.boolean(),
        (rows, threshold, sameSection) => {
          const pb = emptyPlaybook();
          rows.forEach(([s, t, h, x], i) => {
            pb.sections[s].push({ name: `kpt_${i}`, text: t, helpful: h, harmful: x });
          });
          expect(findDuplicates(pb, { threshold, sameSection })).toEqual(
            findDuplicatesAllPairs(pb, { threshold, sameSection }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equals the all-pairs oracle on larger playbooks: many distinct word pairs, repeats, rewrites (property)', () => {
    // Hundreds of key points over 1,000 words, ten of them common: thousands of distinct adjacent pairs
    // (more than the index's pair table is first sized for), words repeated inside a text, verbatim
    // copies and one-word rewrites of earlier key points.
    const row = fc.tuple(
      fc.constantFrom(...SECTION_NAMES),
      fc.array(fc.oneof(fc.nat(9), fc.integer({ min: 10, max: 999 })), {
        minLength: 12,
        maxLength: 30,
        size: 'max',
      }),
      fc.nat(5),
      fc.nat(5),
      fc.option(fc.tuple(fc.nat(), fc.nat(20), fc.nat(999)), { freq: 3 }),
    );
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 200, maxLength: 500 }),
        fc.constantFrom(0.3, 0.6, 0.8, 1),
        fc.boolean(),
        (rows, threshold, sameSection) => {
          const pb = emptyPlaybook();
          const texts: string[][] = [];
          rows.forEach(([s, ws, h, x, rewrite], i) => {
            let words = ws.map((w) => `w${w}`);
            if (rewrite && i > 0) {
              const [from, at, w] = rewrite;
              words = [...texts[from % i]!];
              if (words.length && at % 3) words[at % words.length] = `w${w}`;
            }
            texts.push(words);
            pb.sections[s].push({ name: `kpt_${i}`, text: words.join(' '), helpful: h, harmful: x });
          });
          expect(findDuplicates(pb, { threshold, sameSection })).toEqual(
            findDuplicatesAllPairs(pb, { threshold, sameSection }),
          );
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  });

  it('equals the all-pairs oracle on groups of verbatim copies that are near duplicates of each other (property)', () => {
    // A small vocabulary and short texts: many identical shingle sets (units) with many members, most
    // units near duplicates of several others, so star clustering takes whole units as neighbours.
    const WORDS = ['run', 'tests', 'push', 'lint', 'build', 'deploy', 'check', 'types'];
    const row = fc.tuple(
      fc.constantFrom(...SECTION_NAMES.slice(0, 2)),
      fc.array(fc.nat(WORDS.length - 1), { minLength: 2, maxLength: 5 }),
      fc.nat(3),
      fc.nat(3),
      fc.nat(4),
    );
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 20, maxLength: 300 }),
        fc.constantFrom(0.34, 0.5, 0.6, 0.75),
        fc.boolean(),
        (rows, threshold, sameSection) => {
          const pb = emptyPlaybook();
          rows.forEach(([s, ws, h, x, copies], i) => {
            for (let c = 0; c <= copies; c++) {
              const text = ws.map((w) => WORDS[w]).join(' ');
              pb.sections[s].push({ name: `kpt_${i}_${c}`, text, helpful: (h + c) % 4, harmful: x });
            }
          });
          expect(findDuplicates(pb, { threshold, sameSection })).toEqual(
            findDuplicatesAllPairs(pb, { threshold, sameSection }),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an embedding function catches paraphrases the lexical index proposes as candidates', async () => {
    const pb = fixture();
    const calls: string[][] = [];
    // A toy embedding: paraphrase pairs pat-002/pat-004 map to one vector; everything else is distinct.
    const embed = (texts: string[]) => {
      calls.push(texts);
      return texts.map((t, i) =>
        /test suite after every/.test(t) ? [1, 0, 0] : [0, Math.cos(i + t.length), Math.sin(i + t.length)],
      );
    };
    const groups = await findDuplicatesWithEmbeddings(pb, { embed, batchSize: 8 });
    expect(groups.map((g) => g.names)).toEqual([
      ['pat-002', 'pat-004'],
      ['pat-005', 'pat-008'],
      ['mis-003', 'mis-005'],
    ]);
    expect(calls.map((c) => c.length)).toEqual([8, 8, 5]);
  });
});

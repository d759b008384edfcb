/**
 * `learn`'s scanners in linear time, proven by growth ratios (test/unit/linear-time.ts): the against
 * file, rejected terms, rules and failure fixes on adversarial input.
 */
import { describe, expect, it } from 'vitest';
import { againstSentences, contradicts, coverIndex, stance } from '../../lib/learn/against';
import { judgeFailure, judgeRule, learn } from '../../lib/learn/index';
import { three } from './learn-helpers';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

describe('learn: linear scanners', () => {
  const RULES = ['Use pnpm instead of npm in this repository.', 'Never push to main without a review.'];

  it('reads an adversarial against file in linear time', () => {
    const hostile = (n: number) => {
      const k = Math.ceil(n / 16);
      return `${'- use '.repeat(k)}${'a'.repeat(k)}\n- Never use ${'x-'.repeat(k)}\n${'`'.repeat(k)}\n- ${'(('.repeat(k)}\n`;
    };
    // What a run does with the file: its sentences, the cover lookup and the contradiction test per rule.
    const read = (text: string) => {
      const sentences = againstSentences(text);
      const cover = coverIndex(sentences);
      for (const rule of RULES) {
        cover(rule);
        for (const s of sentences) contradicts(rule, s.sentence);
      }
    };
    const g = measureGrowth(read, hostile, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  // One long line each: the comments, the evidence note and the spaces before it are cut in one pass
  // (the regexes read to the end from each unclosed `<!--`, each `_(` and each space of a run: 2.8 s,
  // 4.4 s and 6.9 s on 80-160 KB).
  it.each([
    ['unclosed comments', (n: number) => fill(n, '<!--', '- use a ')],
    ['notes never closed', (n: number) => fill(n, '_(', '- use a ', ')_x')],
    ['spaces, then a word', (n: number) => fill(n, ' ', '- use ', 'x')],
    ['comments across a line break', (n: number) => fill(n, '<!-- a\r', '- use a ', '-->')],
  ])('reads an against line in linear time: %s', (_name, make) => {
    expect(againstSentences(make(200)).length).toBeGreaterThan(0);
    const g = measureGrowth(againstSentences, make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('reads a rejected term ending in a long run of dots in linear time', () => {
    const text = (n: number) => fill(n, '.', 'avoid a', 'x');
    expect(stance(text(200)).rejects).toHaveLength(1);
    const g = measureGrowth(stance, text, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  // Balanced quotes and mostly letters at every size (else 'garbled' at once), so each check runs.
  it.each([
    ['words and a dashed run', (k: number) => `Use ${'a '.repeat(k)}instead of \`${'bb-'.repeat(k)}\``],
    ['a name, a slash and no extension', (k: number) => `Keep ${'bb.'.repeat(k)}/${'cc-'.repeat(k)} here`],
    ['many slashes and no extension', (k: number) => `Keep ${'aa/'.repeat(2 * k)} tidy`],
  ])('judges an adversarial rule in linear time: %s', (_name, unit) => {
    const rule = (n: number) => unit(Math.ceil(n / 7));
    expect(judgeRule(rule(700))).not.toBe('garbled');
    const g = measureGrowth((text: string) => judgeRule(text), rule, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('judges an adversarial failure fix in linear time', () => {
    const change = (n: number) => `run \`${'b-'.repeat(Math.ceil(n / 2))}\` first`;
    const g = measureGrowth(
      (text: string) => judgeFailure('command not found: pytest', text),
      change,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it.each([
    // Every part read back and judged: keys passed, flags dropped (no verdict); words that are not
    // fixText's, an unclosed span (no lesson one can vouch for).
    [
      'one part with many keys',
      (n: number) => `pass ${Array.from({ length: Math.ceil(n / 5) }, () => '`ab`').join('/')}`,
      undefined,
    ],
    [
      'many parts',
      (n: number) => Array.from({ length: Math.ceil(n / 12) }, () => 'drop `--xy`').join(', '),
      undefined,
    ],
    [
      'a long unclosed span',
      (n: number) => `pass \`${'a`/'.repeat(Math.ceil(n / 3))}`,
      'failure: a one-off argument',
    ],
  ] as const)("reads a fix's words back into parts in linear time: %s", (_name, make, verdict) => {
    expect(judgeFailure('command not found: pytest', make(120))).toBe(verdict);
    const g = measureGrowth(
      (text: string) => judgeFailure('command not found: pytest', text),
      make,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('still learns from the sessions when an against file is given', async () => {
    expect((await learn(three(), { against: '- use a\n' })).rules).toHaveLength(1);
  });
});

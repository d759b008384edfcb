/**
 * Linear time, proven by growth ratios: every scanner of attacker-controlled text gets adversarial
 * inputs (long runs of what its regexes and loops look for) from 12.5 KB to 100 KB, and each doubling
 * of the input may at most triple the time (test/unit/linear-time.ts: medians of rounds, a ratio in
 * one run, never a wall-clock threshold).
 */
import { describe, expect, it } from 'vitest';
import { commandHead, errorClass, stepsFromMessages } from '../../lib/failures/index';
import { deterministicSnapshot, findLinks } from '../../lib/snapshot/index';
import { describeGrowth, fill, measureGrowth } from './linear-time';

type Case = readonly [name: string, make: (n: number) => string];

/** One `it` per input: the scanner's time grows at most linearly on it. */
function linear(scanner: string, scan: (input: string) => unknown, cases: readonly Case[]): void {
  describe(scanner, () => {
    for (const [name, make] of cases)
      it(name, () => {
        const g = measureGrowth(scan, make);
        expect(g.excess, `${scanner} on ${name}: ${describeGrowth(g)}`).toBeLessThanOrEqual(1);
      });
  });
}

/** Runs of the characters a link, path or file-name pattern reads. */
const DOTTED: readonly Case[] = [
  ['a. repeated', (n) => fill(n, 'a.')],
  ['eyJa. repeated (base64 segments)', (n) => fill(n, 'eyJa.')],
  ['a- repeated', (n) => fill(n, 'a-')],
  ['1. repeated', (n) => fill(n, '1.')],
  ['a.b- repeated after a space', (n) => fill(n, 'a.b-', ' ')],
  ['a/ repeated', (n) => fill(n, 'a/')],
  ['/a repeated after a space', (n) => fill(n, '/a', ' ')],
  ['(a. repeated', (n) => fill(n, '(a.')],
  ['=a.a- repeated', (n) => fill(n, '=a.a-')],
  ['https:// repeated', (n) => fill(n, 'https://')],
  // Many links in one stretch (not one every few characters: an output array of more than about
  // 16,000 slices costs a step more a slice, see linear-time.ts).
  ['name.ts: repeated', (n) => fill(n, 'name01.ts:')],
  ['a.ts.a.a. … (one extension, then a long tail)', (n) => fill(n, 'a.', 'x.ts.')],
  ['a..a. repeated', (n) => fill(n, 'a..a.')],
  ['a long word', (n) => fill(n, 'a')],
  ['spaces', (n) => fill(n, ' ', 'a')],
];

describe('links and snapshots', () => {
  linear('findLinks', findLinks, DOTTED);
  linear(
    'deterministicSnapshot (one long entry)',
    (value) =>
      deterministicSnapshot({
        objective: 'x',
        entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
      }),
    DOTTED,
  );
});

describe('error classes', () => {
  const ERRORS: readonly Case[] = [
    ...DOTTED.map(([name, make]): Case => [`error: ${name}`, (n) => `error: ${make(n - 7)}`]),
    ['quotes', (n) => fill(n, '"a', 'error ')],
    ['branch repeated', (n) => fill(n, 'branch ', 'error ')],
    ['hex and digits', (n) => fill(n, 'abc1', 'error ')],
    ['tags', (n) => fill(n, '<a', 'error ')],
    ['lines', (n) => fill(n, 'x\n')],
    ['escaped newlines', (n) => fill(n, 'x\\n')],
    ['traceback lines', (n) => fill(n, 'a.a.a\n', 'Traceback (most recent call last)\n')],
    ['a URL scheme without slashes', (n) => fill(n, 'a+b.c-', 'error ')],
    ['===', (n) => fill(n, '=-', 'error ')],
  ];
  linear('errorClass', errorClass, ERRORS);
  linear('commandHead', commandHead, [
    ['spaces', (n) => fill(n, ' ', 'a')],
    ['spaces then a separator', (n) => fill(n, ' ', 'a', '&&b')],
    ['separators', (n) => fill(n, ' & |;')],
    ['assignments', (n) => fill(n, 'a', '', '=')],
    ['slashes', (n) => fill(n, 'a/')],
  ]);
  linear(
    'stepsFromMessages (calls without ids)',
    (text) =>
      stepsFromMessages(
        // Every call first, then every result: the open calls of one tool pile up.
        Array.from({ length: text.length / 10 }, (_, i) =>
          i >= text.length / 20
            ? { role: 'tool', toolName: 'Bash', content: 'x', isError: true }
            : { role: 'assistant', toolName: 'Bash', content: 'ls' },
        ),
      ),
    [['one tool, many calls', (n) => fill(n, 'x')]],
  );
});

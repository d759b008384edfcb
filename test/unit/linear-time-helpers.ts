/**
 * What the linear-time.test.ts parts share: one `it` per adversarial input (`linear`), inputs built
 * outside the measured calls (`prepared`), and the dotted runs that link, path and error readers get.
 */
import { describe, expect, it } from 'vitest';
import { describeGrowth, fill, measureGrowth } from './linear-time';

export type Case = readonly [name: string, make: (n: number) => string];

/** One `it` per input: the scanner's time grows at most linearly on it (`sizes`: 12.5 to 100 KB). */
export function linear(
  scanner: string,
  scan: (input: string) => unknown,
  cases: readonly Case[],
  sizes?: readonly number[],
): void {
  describe(scanner, () => {
    for (const [name, make] of cases)
      it(name, () => {
        const g = measureGrowth(scan, make, sizes ? { sizes } : {});
        expect(g.excess, `${scanner} on ${name}: ${describeGrowth(g)}`).toBeLessThanOrEqual(1);
      });
  });
}

/**
 * A scan whose input is built from the text first (entries, messages, a playbook): built once per
 * text, outside the measured calls, so the time is the scanner's and not the test's own allocation.
 */
export function prepared<T>(
  prepare: (text: string) => T,
  scan: (input: T) => unknown,
): (text: string) => unknown {
  const built = new Map<string, T>();
  return (text) => {
    let input = built.get(text);
    if (input === undefined) {
      input = prepare(text);
      built.set(text, input);
    }
    return scan(input);
  };
}

/** Runs of the characters a link, path or file-name pattern reads. */
export const DOTTED: readonly Case[] = [
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

/**
 * Time growth as a property: fast-check picks a scanner of attacker-controlled text and an adversarial
 * repetition (a short unit of the characters regexes and loops care about, behind a prefix), and the
 * scanner's time may at most triple per doubling of the input (test/unit/linear-time.ts). `npm test`
 * runs a few cases with the fixed seed; `npm run fuzz` runs ten times as many with fresh seeds, so new
 * repetitions are tried on every fuzz run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../lib/categorise/index';
import { extractJson, TranscriptError } from '../../lib/core/index';
import { commandHead, errorClass } from '../../lib/failures/index';
import { heuristicReflect } from '../../lib/heuristic/index';
import { redact } from '../../lib/redact/index';
import { deterministicSnapshot } from '../../lib/snapshot/index';
import { detectFormat, parseTranscript } from '../../lib/transcript/index';
import { describeGrowth, fill, measureGrowth } from './linear-time';

const SCANNERS: Record<string, (input: string) => unknown> = {
  findLinks,
  errorClass,
  commandHead,
  redact,
  extractJson,
  detectFormat,
  // Text of no known format is refused with a typed error (found by `npm run fuzz`: "." repeated):
  // the time to refuse must be linear too, so the error is the result here.
  parseTranscript: (text) => {
    try {
      return parseTranscript(text, { lenient: true });
    } catch (e) {
      if (e instanceof TranscriptError) return e;
      throw e;
    }
  },
  heuristicReflect: (content) => heuristicReflect([{ role: 'user', content }]),
  deterministicSnapshot: (value) =>
    deterministicSnapshot({
      objective: 'x',
      entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
    }),
};

/** Pieces of the patterns the scanners look for: delimiters, escapes, prefixes of keys and links. */
const PIECES = [
  '.',
  '\\',
  '"',
  "'",
  '`',
  '{',
  '}',
  '[',
  ']',
  '/',
  ':',
  '-',
  '_',
  '=',
  '@',
  '%',
  ' ',
  '\n',
  'a',
  'Z',
  '1',
  'x.ts',
  'sk-',
  'eyJ',
  'http://',
  'Bearer ',
  'error',
  'no, ',
  '```',
  '> ',
  'User: ',
  '<user>',
  '</user>',
  '<assistant ',
  '>',
];

const unit = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((a) => a.join(''));

describe('time growth of the scanners on generated repetitions', () => {
  it('at most triples per doubling of the input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(SCANNERS)), unit, unit, (scanner, repeated, prefix) => {
        const g = measureGrowth(SCANNERS[scanner]!, (n) => fill(n, repeated, prefix));
        expect(
          g.excess,
          `${scanner} on ${JSON.stringify(prefix)} + ${JSON.stringify(repeated)}…: ${describeGrowth(g)}`,
        ).toBeLessThanOrEqual(1);
      }),
      { numRuns: 3 },
    );
  }, 600_000);
});

/**
 * The reader's one-pass scan (`scanHashes`) against what it replaces, on any turn: the buckets of
 * `baseParts` and `readerParts` read through strings (`partsHashes`, itself held to the named
 * features by `heuristic-reader-digest.test.ts`), its line test against `PASTED`, and its vocabulary
 * lookup by code units against the lookup by string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASTED, vocabulary, vocabularyId, vocabularyIdOfCodes } from '../../lib/heuristic-model/features';
import { partsHashes } from '../../lib/heuristic-model/reader-hash';
import { scanHashes } from '../../lib/heuristic-model/reader-scan';
import { pastedLine } from '../../lib/heuristic-model/text-scan';
import { evidence } from '../heuristic/evidence';

/** Pieces that reach every branch of the scan: pasted-line openings, fences, code spans, apostrophes, capitals, and what sends a turn back to the strings path. */
const pieces = fc.constantFrom(
  'no',
  'No,',
  'still',
  'STILL',
  'WHY',
  'OK.',
  'AB',
  'ABCD!',
  "don't",
  'it’s',
  "'",
  'the',
  'wrong',
  'i',
  'I',
  'x_y',
  '42',
  '007',
  'a1b2c3d4e5f6a7b8c9d0e1f2',
  'abcdefghijklmnopqrstu',
  '`code`',
  '`',
  '``',
  '```',
  '\n```\n',
  '"',
  '"q"',
  '`"`',
  '`a"b`',
  '?',
  '!',
  '??',
  '?!',
  '!?',
  ' ',
  '  ',
  '    ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\u00a0',
  '\u3000',
  '> ',
  '$ ',
  '$x',
  'File "',
  'Traceback',
  'at ',
  ' at x',
  ' at  ',
  '{',
  '}',
  '[',
  ']',
  '<',
  '|',
  'TypeError',
  'error:',
  'é',
  'É',
  'NÃO',
  'não',
  'ЕЩЁ',
  'ещё',
  'Σ',
  'ΣΑΣ ',
  'ß',
  'ǅ',
  '\u2160',
  '\u24b6',
  '—',
  '“x”',
  '…',
  '\u0660',
  'e\u0301',
  'İ',
  '\u212a',
  '还是',
  '\ud83d\ude00',
  '## User Input',
  '\n---\nname: x',
);
/** Turns of many lines, prose and pasted: the line counts that set `paste:` and `pr:`. */
const lineTurn = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '    x = 1',
        '> quoted',
        '$ npm test',
        '\tat f (a.js:1)',
        '```',
        '',
        '   ',
        'NO, still wrong',
        'ok?',
      ),
      fc.array(pieces, { maxLength: 6 }).map((p) => p.join(' ')),
    ),
    { maxLength: 14 },
  )
  .map((lines) => lines.join('\n'));
/** Turns of many short words: past the 40 of the longest `len:`, the reader's 120 and the base's 200. */
const wordy = fc
  .tuple(
    fc.integer({ min: 0, max: 300 }),
    fc.array(fc.constantFrom('no', 'a', 'i', 'it', '42', 'x', 'the', 'WHY', "it's"), {
      minLength: 1,
      maxLength: 5,
    }),
    fc.boolean(),
  )
  .map(([count, cycle, lines]) =>
    Array.from({ length: count }, (_, i) => cycle[i % cycle.length]).join(lines ? '\n' : ' '),
  );
const text = fc.oneof(
  lineTurn,
  wordy,
  fc.array(pieces, { maxLength: 60 }).map((p) => p.join('')),
  fc.array(pieces, { maxLength: 30 }).map((p) => p.join(' ')),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  // Any code unit of the BMP past ASCII, mixed with ASCII letters and spaces: every case mapping and word class.
  fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('a', 'Z', ' ', '?'),
    ),
    maxLength: 40,
  }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const turn = fc.record({
  text,
  reply: fc.option(fc.oneof(text, fc.constantFrom('Fixed it.', 'Error: x', 'Go on?', 'Go on?  ')), {
    nil: undefined,
  }),
  first: fc.boolean(),
  undo: fc.boolean(),
  interrupted: fc.boolean(),
  repeat: fc.boolean(),
  acknowledged: fc.boolean(),
  bits: fc.nat(31),
});

const sorted = (xs: Iterable<number>) => [...new Set(xs)].sort((a, b) => a - b);

describe("the reader's one-pass scan", () => {
  it('gives the buckets of the strings path on every turn it reads (property)', () => {
    let read = 0;
    let runs = 0;
    fc.assert(
      fc.property(turn, (t) => {
        const e = evidence(t.text, {
          reply: t.reply,
          first: t.first,
          undo: t.undo,
          interrupted: t.interrupted,
          repeat: t.repeat,
          acknowledged: t.acknowledged,
          signals: {
            correction: (t.bits & 1) !== 0,
            challenge: (t.bits & 2) !== 0,
            preference: (t.bits & 4) !== 0,
            approval: (t.bits & 8) !== 0,
            friction: (t.bits & 16) !== 0,
          },
        });
        runs++;
        const fast = scanHashes(e);
        if (!fast) return;
        read++;
        expect(sorted(fast)).toEqual(sorted(partsHashes(e)));
      }),
      { numRuns: 4000 },
    );
    // Most generated turns take the scan (the others hold a quote, an accent or a non-ASCII letter in their prose).
    expect(read).toBeGreaterThan(runs / 3);
  });

  it('tells a pasted line as PASTED does (property)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (s, a, b) => {
        for (const line of s.split('\n')) expect(pastedLine(line, 0, line.length)).toBe(PASTED.test(line));
        // Inside a longer text, bounded by `from` and `to`, as the scan asks it.
        const from = a % (s.length + 1);
        let to = s.indexOf('\n', from);
        if (to < 0) to = s.length;
        to = Math.min(to, from + (b % (to - from + 1)));
        expect(pastedLine(s, from, to)).toBe(PASTED.test(s.slice(from, to)));
      }),
      { numRuns: 4000 },
    );
  });

  it('looks words up by code units as by string (property)', () => {
    const hash = (w: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
      return h;
    };
    const codesOf = (w: string) => Uint16Array.from(w, (_, i) => w.charCodeAt(i));
    for (const w of vocabulary().keys())
      expect(vocabularyIdOfCodes(codesOf(w), w.length, hash(w))).toBe(vocabularyId(w));
    fc.assert(
      fc.property(text, (s) => {
        for (const w of s.toLowerCase().split(/[^a-z0-9_]+/)) {
          // A longer buffer than the word: only its first `length` code units count.
          const codes = new Uint16Array(w.length + 3);
          codes.set(codesOf(w));
          codes[w.length] = 115;
          expect(vocabularyIdOfCodes(codes, w.length, hash(w))).toBe(vocabularyId(w));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * The reader's hand-written scans against the regular expressions they stand for, on any text: the
 * backward "ends with a question" test (`endsAsking`, for `/\?\s*\S{0,3}$/` on a cut of the reply)
 * and the error patterns written with `error\b` first (for `\b(?:error|…)\b|\wError\b`), the
 * template test by substring search (for `TEMPLATE`), and the vocabulary's own hash table (for its map).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vocabulary, vocabularyId, wordsOf } from '../../lib/heuristic-model/features';
import { isTemplate, TEMPLATE } from '../../lib/heuristic-model/reader-features';
import { endsAsking } from '../../lib/heuristic-model/text-scan';

const pieces = fc.constantFrom(
  '?',
  '? ',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u0085',
  'a',
  'ok',
  ')',
  '🙂',
  '\ud800',
  'Error',
  'xError',
  'error_',
  'ERRNO',
  'failed.',
  'K',
  '\u212a',
  'ſ',
  '## User Input',
  '## User',
  'You **MUST**',
  'For the code present, we get this error',
  'Implement the plan as specified',
  '<USER_REQUEST>',
  '$ARGUMENTS',
  '---\n',
  '---\r',
  'description:',
  'name:',
  '\u2028---\nname:',
  'still',
  'nao',
  'não',
  'ещё',
);
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(pieces, { maxLength: 20 }).map((p) => p.join('')),
);

describe("the reader's scans", () => {
  it('endsAsking(s, from, to) is /\\?\\s*\\S{0,3}$/ on s.slice(from, to) (property)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (s, a, b) => {
        const from = a % (s.length + 1);
        const to = from + (b % (s.length - from + 1));
        expect(endsAsking(s, from, to)).toBe(/\?\s*\S{0,3}$/.test(s.slice(from, to)));
      }),
      { numRuns: 5000 },
    );
  });

  it('the error patterns with `error\\b` first match the same texts as the originals (property)', () => {
    const pairs = [
      [
        /\b(?:error|exception|traceback|failed|failure|fatal)\b|\wError\b/i,
        /error\b|\b(?:exception|traceback|failed|failure|fatal)\b/i,
      ],
      [
        /\b(?:error|exception|traceback|failed|failure|errno|panic|fatal)\b|\wError\b/i,
        /error\b|\b(?:exception|traceback|failed|failure|errno|panic|fatal)\b/i,
      ],
    ] as const;
    fc.assert(
      fc.property(text, (s) => {
        for (const [before, after] of pairs) expect(after.test(s)).toBe(before.test(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('isTemplate answers as TEMPLATE.test (property)', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(isTemplate(s)).toBe(TEMPLATE.test(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('vocabularyId answers as the vocabulary map (property)', () => {
    const known = vocabulary();
    for (const [w, id] of known) expect(vocabularyId(w)).toBe(id);
    fc.assert(
      fc.property(text, (s) => {
        for (const w of s.split(/\s+/)) expect(vocabularyId(w)).toBe(known.get(w) ?? -1);
        // The hashes wordsOf gives in its scan are the ones vocabularyId computes itself.
        const hashes: number[] = [];
        const words = wordsOf(s, 1000, hashes);
        expect(hashes.length).toBe(words.length);
        words.forEach((w, i) => {
          expect(vocabularyId(w, hashes[i])).toBe(known.get(w) ?? -1);
        });
      }),
      { numRuns: 3000 },
    );
  });
});

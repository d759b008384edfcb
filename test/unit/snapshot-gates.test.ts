/**
 * The snapshot's cheap gates must never change a category: the per-word needle hints
 * (`needles.ts`, set only on the snapshot's scan path) and the first-word look-up in front of the
 * whole-line forms (`stance.ts`). `classify` on the general path runs every form unhinted, so on any
 * text it and the snapshot must agree. The texts are built from the words the gates look for, their
 * near misses ("shoulder", "asking", "pipeline", "seemingly"), every opener and the forms' first words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCKER, NEXT } from '../../lib/categorise/codes';
import { classify } from '../../lib/categorise/index';
import { leadCategory } from '../../lib/categorise/lead';
import { OPENER_WORDS } from '../../lib/categorise/openers';
import { words } from '../../lib/categorise/text';
import { where } from '../snapshot/where';

const PIECES = [
  // needles and near misses
  'should',
  'shoulder',
  "shouldn't",
  'would',
  'ask',
  'asked',
  'asking',
  'must',
  'seem',
  'seems',
  'seemingly',
  'look',
  'looks',
  'appear',
  'probably',
  'line',
  'pipeline',
  'ignores',
  'potential',
  'possible',
  'still',
  'tested',
  "need's",
  'fixed',
  'failed',
  // first words of the whole-line forms, and the openers (all of them)
  ...OPENER_WORDS,
  'this',
  'that',
  'which',
  'it',
  'I',
  'we',
  'they',
  'you',
  'means',
  "didn't",
  "don't",
  'not',
  'see',
  'print',
  'anything',
  'issue',
  'with',
  'there',
  "there's",
  'good',
  'question',
  'sorry',
  'back',
  'to',
  'right',
  'is',
  'the',
  'output',
  'was',
  'patch',
  'points',
  '`src/a/b.py`',
  '`x`',
  'Modifying',
  'Removing',
  'Step',
  '1:',
  'Label:',
  'Done.',
];

const sentence = fc
  .tuple(
    fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 9 }),
    fc.constantFrom('', '.', '!', '?', ':', '...'),
    fc.constantFrom('', ', '),
  )
  .map(([ws, end, comma]) => {
    const first = ws[0]!;
    // Capitalise the first word now and then, and put a comma after it (an opener's comma).
    const head = first.length > 1 && ws.length % 2 === 0 ? first[0]!.toUpperCase() + first.slice(1) : first;
    return `${head}${ws.length > 1 ? comma || ' ' : ''}${ws.slice(1).join(' ')}`.trimEnd() + end;
  });

describe('snapshot gates', () => {
  it('change no category: the hinted snapshot path agrees with unhinted classify (property)', () => {
    fc.assert(
      fc.property(sentence, (t) => {
        const c = classify(words(t), t).category ?? 'none';
        expect(where(t)).toBe(c);
      }),
      { numRuns: 3000 },
    );
  });

  it('change no category on the forms the gates sit in front of', () => {
    for (const t of [
      'So, this means `x` is gone!',
      'Wait, they didn\u2019t run at all!',
      'Okay, it looks like there is an issue with the lock file',
      'Hmm, that is not quite right.',
      'Good question!',
      'Now back to the parser.',
      'I should probably remove the import.',
      'The user asked whether the cache is stale.',
    ])
      expect(where(t)).toBe(classify(words(t), t).category ?? 'none');
  });

  it('reads a label word through its own table only, never Object.prototype', () => {
    // "constructor: …" once found Object.prototype.constructor and returned a function as its category.
    for (const w of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])
      expect(typeof leadCategory(`${w}: fix the init`)).toBe('number');
    expect(leadCategory('Problem: the cache is stale')).toBe(BLOCKER);
    expect(leadCategory('Plan: rerun the suite')).toBe(NEXT);
  });
});

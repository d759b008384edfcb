/**
 * The gates in front of the categoriser's anchored forms are read off the patterns (`firstWords`,
 * lib/categorise/gates.ts), not listed by hand: what they derive, and that a gate never turns
 * away a line its form matches (a property over lines built from the forms' own words).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GATES } from '../../lib/categorise/gates-data';
import { LEAD_RULES } from '../../lib/categorise/lead-rules';
import { hint, needlesOf } from '../../lib/categorise/needles';
import { OPENER_WORDS } from '../../lib/categorise/openers';
import { STANCE_RULES } from '../../lib/categorise/stance-rules';
import { firstWords, requiredWords } from '../../tools/shared/gate-derive';
import { gatedPatterns } from '../../tools/shared/gated-patterns';
import {
  assertGatesSound,
  derivedData,
  neededGate,
  openingGate,
  patternWords,
  variedLines,
} from './gates-sound';

describe('gates-data.ts', () => {
  it('holds what the patterns give today (run `npm run gates` after changing a pattern)', () => {
    const derived = Object.fromEntries(gatedPatterns().map(([id, p]) => [id, derivedData(p)]));
    expect(GATES).toEqual(derived);
  });
});

describe('firstWords', () => {
  it.each([
    ['a word, maybe after another', /^\s*(?:so,?\s+)?to\s+([a-z]+):\s*$/i, ['so', 'to']],
    ['a list marker or a word', /^\s*(?:[-*]\s+)?\*{0,2}step\s*\d+/i, ['-', '*', 'step']],
    ['a mark', /^\s*[-#]\s/, ['-', '#']],
    ['any mark but a space', /^\s*[^\s\w]\s/, undefined],
    ['white space or a mark, then a word', /^[\s*]+word\b/, ['*', 'word']],
    ['a class of letters and marks in the first word', /^\s*[a-]b\s/, undefined],
    ['a class of two letters inside a word', /^\s*i\s+apologi[sz]e\b|^\s*sorry\b/i, ['i', 'sorry']],
    ['a class of letters after the first word', /^\s*(?:this|that)\s+[a-z]+/i, ['this', 'that']],
    ['a word that ends the line', /^\s*done$/i, ['done']],
    ['a lookahead skipped', /^\s*(?!not)(?:yes|no)\b/i, ['yes', 'no']],
    ['repeated openers', /^\s*(?:(?:so|but),?\s+)*it\b/i, ['it', 'so', 'but']],
    ['an optional suffix', /^\s*here(?:'|’)?s\s/i, ['here', 'heres']],
    ['an escaped code point', /^\s*\u0041b\s/, ['ab']],
  ])('lists the words of %s', (_, pattern, words) => {
    expect(firstWords(pattern)?.sort()).toEqual(words ? [...words].sort() : undefined);
  });
  it.each([
    ['not anchored', /\bshould\b/],
    ['anchored in one alternative only', /^\s*so\b|\bshould\b/],
    ['a class of letters in the first word', /^\s*[a-z]+ing\b/i],
    ['\\w in the first word', /^\s*\w+ly\b/],
    ['any character first', /^.x/],
    ['a word that may run on (no end after it)', /^\s*so/i],
    ['an unbounded run of letters', /^\s*(?:ab)+\s/],
    ['multiline', /^so\b/m],
    ['a back-reference', /^(a)\1\s/],
    ['\\W, which may be the white space a gate skips', /^\s*\W\s/],
  ])('gives up on %s', (_, pattern) => {
    expect(firstWords(pattern)).toBeUndefined();
  });
  it('stops listing past 64 words', () => {
    const many = Array.from(
      { length: 70 },
      (_, k) => `w${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}`,
    );
    expect(firstWords(new RegExp(`^\\s*(?:${many.join('|')})\\b`))).toBeUndefined();
    expect(firstWords(new RegExp(`^\\s*(?:${many.slice(0, 60).join('|')})\\b`))).toHaveLength(60);
  });
  it('derives the lists that used to be kept by hand beside the forms', () => {
    // The lists of stance.ts and lead.ts before the gates were derived (6 December 2026).
    const rule = (id: string) => STANCE_RULES.find((r) => r.id === id)!.pattern;
    const hand = [
      [rule('none-praise'), 'that what good great excellent fair interesting valid you'],
      [rule('none-apology'), 'i my apologies sorry'],
      [rule('next-back-to'), 'now so ok okay back'],
      [rule('blocker-not-right'), 'wait hmm no but so that this it'],
      [rule('blocker-looks-issue'), 'it this that we'],
      [rule('blocker-means-alarm'), `this that which ${OPENER_WORDS.join(' ')}`],
      [rule('blocker-missing-alarm'), `it i this that we they ${OPENER_WORDS.join(' ')}`],
      [
        LEAD_RULES.find((r) => r.id === 'lead-sees-issue')!.pattern,
        'ok okay ah now i found spotted here heres',
      ],
    ] as const;
    for (const [form, words] of hand) expect(firstWords(form!)?.sort()).toEqual(words.split(' ').sort());
    // The first letters the stance checked by hand before its steps, trials and lead-ins.
    expect(firstWords(rule('next-step'))?.sort()).toEqual(['*', '-', 'step']);
    expect(firstWords(rule('next-titled-step'))?.sort()).toEqual(['*', '-']);
    expect(firstWords(rule('next-trial'))).toEqual(['if']);
    expect(firstWords(rule('hypothesis-conditional'))).toEqual(['if']);
    expect(firstWords(rule('next-lead-in'))?.sort()).toEqual(['so', 'to']);
  });
});

describe('requiredWords', () => {
  it.each([
    ['a sequence', /\bshould\s+probably\s+([a-z]+)/i, [['should'], ['probably']]],
    [
      'one word per alternative',
      /\b(?:asked|asking|asks)\s+(?:if|whether)\b/i,
      [['asked', 'asking', 'asks']],
    ],
    ['spellings of a class', /^\s*i\s+apologi[sz]e\b/i, [['apologise', 'apologize']]],
    ['an optional letter', /\bheres?\b/, [['heres', 'here']]],
    ['a word per alternative, the best of each', /\bit\s+seems\b|\bthat\s+looks\b/, [['seems', 'looks']]],
    ['nothing sure: an alternative of short words', /\b(?:ok|seems)\b/, []],
    ['nothing sure: an optional word', /^(?:should\s+)?x/, []],
    ['a suffix after a class', /[a-z]+ing\b/, [['ing']]],
    ['nothing sure: a class', /\b[a-z]+\b/, []],
  ])('reads %s', (_, pattern, words) => {
    expect(requiredWords(pattern)).toEqual(words);
  });
  it('is sound on every row of the stance table: a line its pattern matches holds a word of each set', () => {
    for (const rule of STANCE_RULES) {
      const lower = rule.example.toLowerCase();
      expect(rule.pattern.test(rule.example), rule.id).toBe(true);
      for (const set of requiredWords(rule.pattern))
        expect(
          set.some((w) => lower.includes(w)),
          rule.id,
        ).toBe(true);
    }
  });
});

describe('requiredGate', () => {
  it('reads needle words from the word bits and other words and marks by a search', () => {
    const gate = neededGate(/\bshould\s+probably\s+([a-z]+)/i);
    // The snapshot's word table leaves a hint of the needles each text's words hold (needles.ts).
    const hinted = (text: string) => {
      hint(
        text,
        text
          .toLowerCase()
          .split(/[^a-z']+/)
          .reduce((bits, w) => bits | needlesOf(w), 0),
      );
      return gate(text);
    };
    expect(hinted('We Should Probably drop it')).toBe(true);
    expect(hinted('We should drop it')).toBe(false);
    // No hint for a text: its needles are read off its own spelling, in any case and script.
    expect(gate('We SHOULD — probably — drop it')).toBe(true);
    expect(gate('We should drop it, said another text')).toBe(false);
    // A word ending in "ed" gates by that ending only where the pattern ends the word there.
    const reported = neededGate(/\b(?:suggested|requested)\b/i, { search: false });
    hint('User suggested a cache.', needlesOf('user') | needlesOf('suggested') | needlesOf('cache'));
    expect(reported('User suggested a cache.')).toBe(true);
    hint('User suggests a cache.', needlesOf('user') | needlesOf('suggests') | needlesOf('cache'));
    expect(reported('User suggests a cache.')).toBe(false);
    const runOn = neededGate(/\bdeclared[a-z]*/i, { search: false });
    hint(
      'It was declaredly so.',
      needlesOf('it') | needlesOf('was') | needlesOf('declaredly') | needlesOf('so'),
    );
    expect(/\bdeclared[a-z]*/i.test('It was declaredly so.')).toBe(true);
    expect(runOn('It was declaredly so.')).toBe(true);
    // "error" holds no needle and the backtick is a mark: both are searched for, in any case.
    const error = neededGate(/\b(?:error|failure)\s+is\s+in\s+`([^`\s]+)`/i);
    expect(error('The ERROR is in `a/b.py`')).toBe(true);
    expect(error('The error is in a/b.py')).toBe(false);
    expect(error('The issue is in `a/b.py`')).toBe(false);
    // Without searches only needle words gate: a pattern anchored at the start fails as fast.
    expect(neededGate(/^\s*the\s+error\s+is\s+in\s+`/i, { search: false })('no error here')).toBe(true);
    expect(neededGate(/\b(?:ok|x)\b/)('anything')).toBe(true); // nothing sure: no gate
  });
});

describe('firstWordGate', () => {
  const forms = [...STANCE_RULES.map((r) => r.pattern), ...LEAD_RULES.map((r) => r.pattern)];
  // A line each form matches, in the order of `forms`; the property changes how it opens.
  const EXAMPLES = [...STANCE_RULES.map((r) => r.example), ...LEAD_RULES.map((r) => r.example)];
  const line = variedLines(EXAMPLES, patternWords(forms));
  it('reads each example with its own form', () => {
    EXAMPLES.forEach((example, k) => {
      expect(forms[k]!.test(example), example).toBe(true);
    });
  });
  it('never turns away a line its form matches (first word, needed words and marks)', () => {
    assertGatesSound(forms, EXAMPLES, { numRuns: 20_000, minMatched: 1_000 });
  });
  it('finds a gate that leaves out a word the form opens with', () => {
    // "Now back to …" without its openers: the lines that open with "now", "so" or "ok" are turned away.
    const k = STANCE_RULES.findIndex((r) => r.id === 'next-back-to');
    const wrong = openingGate(forms.map((f, j) => (j === k ? /^\s*back\s+to\s/i : f)));
    const run = fc.check(
      fc.property(line, (raw) => !forms[k]!.test(raw) || (wrong(raw) & (1 << k)) !== 0),
      { numRuns: 20_000 },
    );
    expect(run.failed).toBe(true);
  });
  it('turns away a line that opens with another word', () => {
    const g = openingGate([/^\s*sorry\b/i, /^\s*step\s*\d/i]);
    expect(g('  Step 2: run it')).toBe(0b10);
    expect(g('Sorry!')).toBe(0b01);
    expect(g('Stepping back')).toBe(0);
    expect(g('\u00a0sorry')).toBe(0b11); // past ASCII first: every form is tried
    const marks = openingGate([/^\s*(?:[-*]\s+)?step\b/i, /^\s*\W/]);
    expect(marks('- step')).toBe(0b11);
    expect(marks('# step')).toBe(0b10);
    expect(marks('')).toBe(0b10);
    // `\W` also matches the white space a gate skips: "  x" matches /^\s*\W/ (a space, then a space).
    const loose = openingGate([/^\s*\W/, /^\s*[\W]x/]);
    expect(/^\s*\W/.test('  x')).toBe(true);
    expect(loose('  x')).toBe(0b11);
  });
});

/**
 * `repairSpelling` (rearview/playbook): a typo in a rule is repaired only to a spelling the session
 * itself uses, never a name, code, a word the session uses elsewhere or a word of another alphabet;
 * it never throws, and its time grows linearly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairSpelling, wordCounts, wordList, writeKeyPoint } from '../../lib/playbook/index';
import { describeGrowth, fill, measureGrowth } from './linear-time';

/** A small dictionary: enough English for the sentences below. */
const WORDS = new Set(
  (
    'always run specs locally before push it to don write docstrings in the tests use pnpm not npm ' +
    "as well also check doctrines docs do don’t don't doesn't does please keep commit committed " +
    'changes change lint list commits useful use full every time the a an and on of'
  ).split(/\s+/),
);
const isWord = (w: string) => WORDS.has(w.toLowerCase());
/** The session's other messages: the words it uses. */
const SESSION = [
  'I will run the specs before I push it.',
  'Before this, and before that, it ran.',
  'git push origin main',
  'Removed the docstrings from the specs. The docstrings repeated the test names. Docstrings gone.',
  'Use `vitest` for the tests; vitest is set up.',
  "I don't know yet; it doesn't matter.",
];
const repair = (text: string, more: string[] = []) =>
  repairSpelling(text, { isWord, counts: wordCounts([...SESSION, ...more, text]) });

describe('repairSpelling', () => {
  it('repairs a typo to the one spelling the session uses', () => {
    const r = repair('Always run specs locally beforu pushit to GH.');
    expect(r.text).toBe('Always run specs locally before push it to GH.');
    expect(r.repairs).toEqual([
      { from: 'beforu', to: 'before' },
      { from: 'pushit', to: 'push it' },
    ]);
    // "doctrings" is one edit from "doctrines" (a dictionary word) and from "docstrings" (the
    // session's own term, used three times): the session decides.
    expect(repair("Don't write doctrings in specs.").text).toBe("Don't write docstrings in specs.");
  });

  it('writes a verb split from its object in its -ing form after a preposition that takes one', () => {
    const withGerunds = (w: string) => isWord(w) || ['pushing', 'running'].includes(w.toLowerCase());
    const fix = (text: string) =>
      repairSpelling(text, { isWord: withGerunds, counts: wordCounts([...SESSION, 'run it', text]) }).text;
    expect(fix('Always run specs locally beforu pushit to GH.')).toBe(
      'Always run specs locally before pushing it to GH.',
    );
    expect(fix('Stop after runit once.')).toBe('Stop after running it once.'); // the last letter doubled
    // No preposition before it: the verb stays bare; a form the dictionary lacks: the split stays.
    expect(fix('Please pushit now.')).toBe('Please push it now.');
    expect(repair('Always run specs before pushit.').text).toBe('Always run specs before push it.');
  });

  it('leaves a negation typed without its apostrophe to the key-point writer, which writes the contraction', () => {
    // "dont" is one edit from "font" and "done", words the session may use: neither is meant.
    expect(repair('Please dont commit the lockfile.', ['font', 'font', 'done']).repairs).toEqual([]);
    // The writer's contraction, at the end of a sentence too ("mustnt." was left as typed before).
    expect(writeKeyPoint('Never commit the lockfile, you mustnt.')).toBe(
      "Never commit the lockfile, you mustn't.",
    );
  });

  it('leaves names, code, words of the session and other alphabets alone', () => {
    for (const text of [
      'Use vitest for the tests.', // the session's own word, unknown to the dictionary
      'Run `beforu` first.', // in code
      'Always run specs in src/beforu first.', // glued to a path
      'Use pnpm as Beforu said.', // a capitalised word inside a sentence: a name
      'Always run BEFORU first.', // capitals
      'Always run befoRu first.', // mixed case
      'Always run beforü first.', // another alphabet cut the word
      'Use pnpm, not npm.', // nothing unknown
    ])
      expect(repair(text), text).toEqual({ text, repairs: [] });
    // A word the session uses twice is the session's word, however it is spelt.
    expect(repair('Run the specz first.', ['specz here', 'and specz there']).repairs).toEqual([]);
  });

  it('keeps an ending and a first letter: grammar and other words are no typos', () => {
    // "commits" → "commit" would drop the ending; "fommit" → "commit" would change the first letter.
    expect(repair('Keep commitz small.', ['commit', 'commit']).repairs).toEqual([]);
    expect(repair('Always fommit changes.', ['commit', 'commit']).repairs).toEqual([]);
    // A doubled last letter is a slip: "usefull" → "useful".
    expect(repair('Keep it usefull.', ['useful']).text).toBe('Keep it useful.');
  });

  it('repairs nothing when two spellings are as good', () => {
    // "linst" is one edit from "list" and from "lint", each used once.
    expect(repair('Always linst changes.', ['lint', 'list']).repairs).toEqual([]);
    // A capital at a sentence start is kept on the repair.
    expect(repair('Beforu you push it, run the specs.').text).toBe('Before you push it, run the specs.');
  });

  it('reads a plain word list: one word a line, comments and blank lines left out, lower-cased', () => {
    expect(wordList('# cspell-tools: keep-case\n\nVitest\n  pnpm  \r\nMonorepo')).toEqual([
      'vitest',
      'pnpm',
      'monorepo',
    ]);
  });

  it('repairs nothing, and throws nothing, with a dictionary that throws', () => {
    const broken = () => {
      throw new Error('broken dictionary');
    };
    const text = 'Always run specs beforu pushit.';
    expect(repairSpelling(text, { isWord: broken, counts: wordCounts(SESSION) })).toEqual({
      text,
      repairs: [],
    });
  });

  it('never throws, and returns the text unchanged when it repairs nothing', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }),
        (t, s) => {
          const r = repairSpelling(t, { isWord, counts: wordCounts([...s, t]) });
          expect(typeof r.text).toBe('string');
          if (!r.repairs.length) expect(r.text).toBe(t);
          for (const x of r.repairs) expect(r.text).toContain(x.to);
        },
      ),
    );
  });

  it('grows linearly on adversarial text (every word unknown, long runs, backticks)', () => {
    const counts = wordCounts(SESSION);
    const scan = (t: string) => repairSpelling(t, { isWord, counts });
    for (const [name, make] of [
      ['unknown words', (n: number) => fill(n, 'beforu ')],
      ['one long run of letters', (n: number) => 'x'.repeat(n)],
      ['backticks', (n: number) => fill(n, '`a` beforu ')],
    ] as const) {
      const g = measureGrowth(scan, make);
      expect(g.excess, `${name}: ${describeGrowth(g)}`).toBeLessThanOrEqual(1);
    }
  });
});

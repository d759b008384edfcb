/**
 * rearview/heuristic: word- and context-aware detection, marker lists as data, and property tests that
 * heuristicReflect never throws and stays linear on adversarial text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyTurn, compileMarkers, DEFAULT_MARKERS, heuristicReflect } from '../../lib/heuristic/index';
import { SEED_MARKERS } from '../../tools/shared/seed-markers';
import { TURN_ADVERSARIAL } from '../adversarial';
import { answered } from './heuristic-helpers';

describe('word-aware and context-aware matching', () => {
  const c = (text: string) => classifyTurn(text);

  it.each([
    ['try again later', 'friction'],
    ['Can you try again?', 'friction'],
    ['Let us start again from chapter two', 'friction'],
    ['Is 49 a perfect square?', 'preference'],
    ['Find the perfect gift for my mum', 'preference'],
    ['The againstness of it', 'friction'],
    ['I reverted my local changes, now the build passes', 'correction'],
    ['No problem, carry on', 'correction'],
  ] as const)('%j is not %s', (text, category) => {
    expect(c(text)[category]).toBe(false);
  });

  it.each([
    ['No. Rewind.', 'correction'],
    ["Shouldn't that be using a fixture?", 'correction'],
    ['still doesnt work', 'correction'],
    ["It still doesn't work", 'correction'],
    ['wait, did you run the tests?', 'correction'],
    ['You did it again!', 'friction'],
    ['I already told you to use pnpm', 'friction'],
    ['Perfect!', 'approval'],
    ['Do not touch the tests.', 'correction'],
    ['It does not work.', 'correction'],
    ['From now on, use tabs', 'preference'],
    ['Revert that change.', 'correction'],
    ['This is wrong.', 'correction'],
  ] as const)('%j is %s', (text, category) => {
    expect(c(text)[category]).toBe(true);
  });

  it('a bare "no" answering a question is not a correction', () => {
    expect(c('no').correction).toBe(false);
    expect(c('No.').correction).toBe(false);
  });

  it('negation: not perfect, no need to revert, nothing wrong', () => {
    expect(c('It is not perfect yet.').approval).toBe(false);
    expect(c("I don't think that's right").approval).toBe(false);
    expect(c('There is nothing wrong with the parser.').correction).toBe(false);
  });

  it('ignores code fences, inline code, quotes and pasted logs and commit messages', () => {
    expect(
      c('Here is the output:\n```\nno, connection refused\nactually, retrying\n```\nWhat does it mean?'),
    ).toEqual(c('What does it mean?'));
    expect(c('The code says `actually, x = 1`. What is x?').correction).toBe(false);
    expect(c('The docs say "no, do not revert the change" here. Explain?').correction).toBe(false);
    expect(c('git log shows:\n3f2a1b9c Revert "add GraphQL"\n4e5d6c7b Fix build').correction).toBe(false);
    expect(c('> no, that is wrong\nwhat did the reviewer mean?').correction).toBe(false);
    expect(c('Log:\n    at Object.<anonymous> (x.js:1:1) no, wrong\nwhy?').correction).toBe(false);
    expect(c('```js\nrevert()\n```').correction).toBe(false);
  });

  it('keeps prose after pasted text', () => {
    expect(
      c('I get this:\n  TypeError: x is undefined\n    at foo (a.js:1)\n\nIt still fails.').correction,
    ).toBe(true);
  });

  it('questions vs directives', () => {
    expect(c('Should I always use tabs?').preference).toBe(false);
    expect(c('Always use tabs.').preference).toBe(true);
    expect(c('Why did you change the library?').correction).toBe(true);
    expect(c('Why did you change the library.').correction).toBe(false);
  });

  it('slash commands are not read', () => {
    expect(c('/model no, not that one').correction).toBe(false);
  });

  it('repetition, rhetorical questions, reversals and redirects are corrections', () => {
    for (const t of [
      'We already talked about why the config lives in one file.',
      'I never asked for a CLI. Change it back to the way it was.',
      "Doesn't the standard library have a parser for this?",
      'How is this not a breaking change:',
      'Actually this returns a list, not a dict.',
      'Instead of a new class, extend the existing one.',
      "It's still missing the header.",
      'You were supposed to edit only the tests.',
    ]) {
      expect(c(t).correction, t).toBe(true);
    }
    expect(c('We already talked about why the config lives in one file.').friction).toBe(true);
    expect(c("Now we're cooking!").approval).toBe(true);
    expect(c('Change the background to blue.').correction).toBe(false);
    expect(c('Does the library have a parser?').correction).toBe(false);
  });

  it('warnings, hedged approval, broken agreements and repeated mistakes (second labelled set)', () => {
    for (const t of [
      'careful, the diary folder is alive and well!',
      "not yet, let's orient ourselves first.",
      "What's the point of adding RecentBook when we have Book?",
      'Where did that come from?',
      'Why `--fix=lf` instead of `--fix=yes`?',
      'I haven’t seen you running coverage... did you?',
      'Better but the first line is meaningless',
      'So, we have not followed the code style!',
      'not AVEVA Plantstream, but plantstream the japanese software',
      'Same mistake as before.',
      'Um... you stopped. Are you okay?',
      'Did you revert that change we agreed not to do?',
    ]) {
      expect(c(t).correction, t).toBe(true);
    }
    expect(c('Same mistake as before.').friction).toBe(true);
    expect(c('this source activation is getting on my nerves').friction).toBe(true);
    expect(c('yes, all batches LGTM').approval).toBe(true);
    // Statements only: asking how to revert is not asking to revert.
    expect(c('Revert the last commit.').correction).toBe(true);
    expect(c('How do I revert a commit in git?').correction).toBe(false);
    // A request to look again is not friction; "you … again" only opens a complaint.
    expect(c('can you review the class again and explain where').friction).toBe(false);
    expect(c('You broke the build again!').friction).toBe(true);
    // "Remember, …" reminds of a fact, "remember this code" files material: neither is a lasting rule.
    expect(c("Remember, I'm unfamiliar with modern Python.").preference).toBe(false);
    expect(c('remember this flutter code as part 5').preference).toBe(false);
    expect(c('Remember to run the specs before pushing.').preference).toBe(true);
  });

  it('tag-wrapped spans are quoted material', () => {
    expect(
      c('So <code_style>- **NEVER add redundant comments** that restate the code</code_style> applies here.')
        .preference,
    ).toBe(false);
    expect(c('see <git_workflow>!').correction).toBe(false);
    // An unclosed tag hides only itself.
    expect(c('<br> No, that is wrong.').correction).toBe(false); // the line starts with `<`: pasted
    expect(c('That is <b> wrong!').correction).toBe(true);
    expect(c('x <tag>wrong!</tag> fine').correction).toBe(false);
  });
});

describe('marker lists are data', () => {
  it('extends and replaces lists', () => {
    expect(classifyTurn('Scrap that.').correction).toBe(false);
    const extended = { ...DEFAULT_MARKERS, correction: [...DEFAULT_MARKERS.correction, '^scrap that'] };
    expect(classifyTurn('Scrap that.', extended).correction).toBe(true);
    const compiled = compileMarkers(extended);
    expect(heuristicReflect(answered('Scrap that.'), { markers: compiled })[0]!.category).toBe('correction');
    const only = { correction: ['banana'], challenge: [], preference: [], positive: [], friction: [] };
    expect(classifyTurn('No, that is wrong.', only).correction).toBe(false);
    expect(classifyTurn('Banana!', only).correction).toBe(true);
  });

  it('exports the seed lists verbatim', () => {
    expect(SEED_MARKERS.correction).toHaveLength(16);
    expect(SEED_MARKERS.preference).toHaveLength(11);
    expect(SEED_MARKERS.friction).toHaveLength(8);
    expect(SEED_MARKERS.correction).toContain('no, ');
  });

  it('apostrophes join words only between word characters; a pattern ends where its sentence does', () => {
    const only = {
      correction: ['^scrap that $', 'you * again'],
      challenge: [],
      preference: [],
      positive: [],
      friction: [],
    };
    for (const text of ["Don't do that.", 'Don’t do that.', "Do'nt do that.", 'dont do that']) {
      expect(classifyTurn(text).correction, text).toBe(true);
    }
    expect(classifyTurn("Don' t do that.").correction).toBe(false);
    expect(classifyTurn('Scrap that', only).correction).toBe(true);
    expect(classifyTurn('Scrap', only).correction).toBe(false);
    expect(classifyTurn('Scrap. That.', only).correction).toBe(false);
    expect(classifyTurn('Scrap that thing', only).correction).toBe(false);
    expect(classifyTurn('you did it all again', only).correction).toBe(true);
    expect(classifyTurn("you'", only).correction).toBe(false);
  });

  it('tolerates malformed lists', () => {
    const junk = { correction: [1, null, '', '*', ',', 'ok'], preference: 'x' } as never;
    expect(() => classifyTurn('ok then', junk)).not.toThrow();
    expect(classifyTurn('ok then', junk).correction).toBe(true);
  });
});

describe('heuristicReflect never throws', () => {
  it('on arbitrary messages (property)', () => {
    const message = fc.record(
      {
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'human'), fc.anything()),
        content: fc.anything(),
        id: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(message, fc.anything()), { maxLength: 8 }), (messages) => {
        expect(Array.isArray(heuristicReflect(messages as never))).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ maxLength: 200 }), (a, b) => {
        const out = heuristicReflect([{ role: 'user', content: `${a}\n${b}` }]);
        for (const i of out) expect(i.traceRefs).toEqual(['message:m0']);
      }),
      { numRuns: 300 },
    );
    expect(heuristicReflect(null as never)).toEqual([]);
  });

  it('stays linear on adversarial text', () => {
    // 2 MB each: a quadratic scan would run for hours, past the test's timeout; the linear one takes
    // milliseconds. The time ratio of two sizes is bench/adversarial.bench.ts's (no clock here).
    for (const [, make] of TURN_ADVERSARIAL) {
      const turn = classifyTurn(make(2_000_000));
      expect(turn).toBeDefined();
    }
  });
});

/**
 * The key point writer of rearview/playbook: a standing rule told from a one-off request, and
 * writeKeyPoint's one imperative sentence per standing instruction (well formed, judged, deterministic).
 */
import fc from 'fast-check';
import { heuristicReflect } from 'rearview/heuristic';
import { judgeRule } from 'rearview/learn';
import {
  extractInstruction,
  extractInstructions,
  isStandingTurn,
  isWellFormedKeyPoint,
  judgeKeyPoint,
  keyPointVerdict,
  MAX_INSTRUCTIONS,
  proposeKeyPoint,
  STANDING_CUT,
  STANDING_WEIGHTS,
  saysStanding,
  standingCues,
  standingScore,
  writeKeyPoint,
  writeKeyPoints,
} from 'rearview/playbook';
import { describe, expect, it } from 'vitest';

describe('standing rule or one-off request', () => {
  it('weighs one integer per cue, and reads the cues it names', () => {
    expect(STANDING_WEIGHTS).toHaveLength(standingCues('').length + 1);
    expect(STANDING_WEIGHTS.every(Number.isInteger)).toBe(true);
    expect(standingScore('')).toBe(STANDING_WEIGHTS[0]);
    expect(standingScore('From now on, always ask me before deleting files.')).toBeGreaterThanOrEqual(
      STANDING_CUT,
    );
  });

  it('keeps rules that say they stand, and leaves one-off requests, errors and questions out', () => {
    for (const t of [
      'From now on, always ask me before deleting files.',
      'No, never push to main directly.',
      'Use pnpm, not npm, in this repository.',
      'I prefer short answers.',
    ]) {
      expect(isStandingTurn(t), t).toBe(true);
    }
    for (const t of [
      'fix the error',
      'Please fix the error in the login page.',
      'the build still fails: TypeError: x is undefined\n    at foo (a.js:1:2)',
      'why did you change the config?',
      "Don't write code yet.",
      'No, use the other branch instead.',
    ]) {
      expect(isStandingTurn(t), t).toBe(false);
    }
    expect(isStandingTurn(42 as unknown as string)).toBe(false);
  });

  it('names a rule that says it stands', () => {
    expect(saysStanding('Always run the linter before committing.')).toBe(true);
    expect(saysStanding('Use ruff instead of flake8.')).toBe(true);
    // "for all" / "in all" name a scope, not a standing rule: "…for all the things we updated" is one task.
    expect(saysStanding('Make a commit message for all the things we updated today.')).toBe(false);
    expect(saysStanding('Always use tabs in all files.')).toBe(true);
    expect(saysStanding('Use the WHATWG URL API instead.')).toBe(false);
    expect(saysStanding('Rename the card title.')).toBe(false);
  });
});

describe('writeKeyPoint', () => {
  it('writes the standing instruction as one imperative sentence', () => {
    expect(writeKeyPoint('No, always use pnpm instead of npm in this repository.')).toBe(
      'Always use pnpm instead of npm in this repository.',
    );
    expect(writeKeyPoint('I already told you, use tabs not spaces.')).toBe('Use tabs not spaces.');
    expect(writeKeyPoint('Before writing any code, I would like to see your plan each time.')).toBe(
      'Before writing any code, show me your plan each time.',
    );
    expect(writeKeyPoint('i would rather not use fixed pixels, ever')).toBe("Don't use fixed pixels, ever.");
  });

  it('proposes nothing for a one-off, a pasted failure or a question', () => {
    for (const t of [
      'fix the error',
      'That still fails with TypeError: x is undefined, fix it',
      'why did you change the config?',
      "Don't write code yet.",
      'No, use it to continue, not just the two of them.',
    ]) {
      expect(writeKeyPoint(t), t).toBeUndefined();
    }
  });

  it('never writes the garbled or template sentences a reviewer found', () => {
    for (const t of [
      'Prefer how you think.',
      'Avoid the hook matching to.',
      'Prefer you to review the complete git.',
      'Point, about not having solid testing strategy…',
      "Apply the user's correction.",
      'Use these files as the source of truth.',
      'Only phton code i eill run it.',
    ]) {
      expect(isWellFormedKeyPoint(t), t).toBe(false);
    }
    expect(isWellFormedKeyPoint('Never reinitialise task-master; it would erase the task history.')).toBe(
      true,
    );
    expect(writeKeyPoint('I would prefer you to review the complete git.')).toBeUndefined();
    expect(writeKeyPoint('I prefer how you think.')).toBeUndefined();
  });

  it('every sentence it writes is well formed, passes the learn quality rules and is deterministic', () => {
    const parts = [
      'No, ',
      'always ',
      'never ',
      'please ',
      'use pnpm ',
      'instead of npm',
      'run the tests ',
      'before committing',
      '. ',
      'from now on ',
      'I prefer ',
      'it ',
      'this ',
      'to ',
      'the ',
      'fix the error',
      '?',
      'you ',
      'I ',
      'ask me ',
      '\n',
    ];
    let written = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 12 }), (list) => {
        const text = list.join('');
        const all = writeKeyPoints(text);
        expect(writeKeyPoints(text)).toEqual(all);
        expect(writeKeyPoint(text)).toBe(all[0]);
        expect(all.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
        for (const k of all) {
          written++;
          expect(isWellFormedKeyPoint(k)).toBe(true);
          expect(k).toMatch(/^[A-Z].*[.…]$/s);
          // Every sentence it writes is one the judge keeps: one judge on every path.
          expect(judgeKeyPoint(k)).toBeUndefined();
          expect(judgeRule(k)).toBeUndefined();
        }
      }),
      { numRuns: 400 },
    );
    expect(written).toBeGreaterThan(0);
  });

  it('asks the judge: what it refuses is no key point, and markdown escapes are undone', () => {
    // Standing, well-formed, yet refused by judgeKeyPoint: a free choice, a project file.
    const free = 'No, use whatever test runner you like from now on.';
    expect(writeKeyPoint(free)).toBeUndefined();
    expect(keyPointVerdict(free)).toEqual({ refused: 'vague' });
    const file = 'From now on, always show only the diff for app/connection-test/page.tsx.';
    expect(writeKeyPoint(file)).toBeUndefined();
    expect(keyPointVerdict(file)).toEqual({ refused: 'task-bound' });
    // A route group or a dynamic segment is a folder of the project's path, not its end.
    for (const path of ['app/(auth)/login.tsx', 'app/blog/[slug]/page.tsx'])
      expect(keyPointVerdict(`From now on, always show only the diff for ${path}.`)).toEqual({
        refused: 'task-bound',
      });
    // Refused before the judge: no instruction, or a one-off.
    expect(keyPointVerdict('fix the error')).toEqual({ refused: 'no instruction' });
    expect(keyPointVerdict(42 as unknown as string)).toEqual({ refused: 'no instruction' });
    expect(writeKeyPoint('Never do train\\_test\\_split on the raw data from now on.')).toBe(
      'Never do train_test_split on the raw data from now on.',
    );
    // Strong emphasis loses its marks; a glob in code and a Python name keep theirs.
    expect(writeKeyPoint('**Always** pass num_results **everywhere**.')).toBe(
      'Always pass num_results everywhere.',
    );
    expect(writeKeyPoint('Always run `ls **/*.ts` before a commit.')).toBe(
      'Always run `ls **/*.ts` before a commit.',
    );
    expect(writeKeyPoint('Never edit __init__.py by hand.')).toBe('Never edit __init__.py by hand.');
    expect(keyPointVerdict('No, always use pnpm instead of npm in this repository.')).toEqual({
      keyPoint: 'Always use pnpm instead of npm in this repository.',
      keyPoints: ['Always use pnpm instead of npm in this repository.'],
    });
  });

  it('writes a contraction typed without its apostrophe as a word, not inside a name', () => {
    // An aider user's turn (shared data): "DOnt" is a typing slip, not a word to keep.
    expect(writeKeyPoints('DOnt implement anything without my confirmation. Always ask my approval')).toEqual(
      ["Don't implement anything without my confirmation.", 'Always ask my approval.'],
    );
    expect(writeKeyPoint('Never commit dont.js to the repository.')).toBe(
      'Never commit dont.js to the repository.',
    );
    expect(writeKeyPoint('From now on, always say why a test isnt run.')).toBe(
      "Always say why a test isn't run.",
    );
  });

  it('writes one key point per standing instruction, not two rules joined by a semicolon', () => {
    // An aider user's turn: two unrelated rules, which were one key point "…; use a dark theme".
    const two =
      'Do not use partial updates or diff markers from now on. Always use a dark theme (#0f172a) with green buttons (#22c55e).';
    expect(writeKeyPoints(two)).toEqual([
      'Do not use partial updates or diff markers from now on.',
      'Always use a dark theme (#0f172a) with green buttons (#22c55e).',
    ]);
    expect(writeKeyPoint(two)).toBe('Do not use partial updates or diff markers from now on.');
    // `extractInstruction` still joins two in a row: the standing score reads turns that way.
    expect(extractInstruction(two)).toContain('; always use a dark theme');
    // At most MAX_INSTRUCTIONS of a turn that lists more.
    const many = 'Never push to main. Never skip the tests. Never commit secrets. Never force-push.';
    expect(writeKeyPoints(many)).toHaveLength(MAX_INSTRUCTIONS);
    expect(extractInstructions(many)).toEqual([
      'Never push to main.',
      'Never skip the tests.',
      'Never commit secrets.',
    ]);
  });

  it("credits the turn's standing only to its first instruction: a later one must stand alone", () => {
    // A Cline user's turn (shortened): a standing rule, then the task of the moment.
    const turn =
      'Do NOT touch or destroy any resources in the old project, from now on. Use the Google Cloud CLI in the terminal to create a new bucket named dev-media.';
    expect(writeKeyPoints(turn)).toEqual([
      'Do NOT touch or destroy any resources in the old project, from now on.',
    ]);
    // The same two sentences the other way round: the task is the first, and the turn stands.
    const swapped =
      'Use the Google Cloud CLI in the terminal to create a new bucket named dev-media. Do NOT touch or destroy any resources in the old project, from now on.';
    expect(writeKeyPoints(swapped)).toContain(
      'Do NOT touch or destroy any resources in the old project, from now on.',
    );
  });

  it("reads a wrapped line as one sentence, and keeps a long instruction's first clause", () => {
    // A console user's prompt, wrapped by the terminal: "It might / be just …" is not an imperative.
    const wrapped =
      "I'm not sure it is worth its weight. It might\n  be just a big baggage of notes in the end. Never add notes to docs/ from now on.";
    expect(writeKeyPoints(wrapped)).toEqual(['Never add notes to docs/ from now on.']);
    // Its reason after a comma, too long to keep whole, is cut at the clause, not mid-word.
    const long = `Please don't write docstrings in specs, these are redundant with describe_/it_ functions -- remember we'll get a human readable description when we run \`pytest --spec\`\n  and you and me both can read the function names with underscores just fine (make a note of this, plz)`;
    expect(writeKeyPoint(long)).toBe("Don't write docstrings in specs.");
  });

  it('reads a verb followed by its own verb as a subject, not an imperative', () => {
    // A SpecStory user's note: "Undo" is the feature, not the command.
    expect(
      extractInstructions(
        'Undo should not need to be modified, as it stores and restores the entire canvas.',
      ),
    ).toEqual([]);
    expect(extractInstructions('Test is failing again.')).toEqual([]);
    expect(extractInstructions('Undo the last commit.')).toEqual(['Undo the last commit.']);
  });

  it('reads nothing after a pasted role prompt: a brief for some agent, not the person to this one', () => {
    const turn =
      'Keep answers short. Follow the prompt below - You are the Analyzer Agent (Staff Architect). ' +
      'Do not write final code. Always check the merged MRs first.';
    expect(extractInstructions(turn, { rulesOnly: true })).toEqual(['Keep answers short.']);
    expect(extractInstructions('You are a senior TypeScript engineer. Never skip the tests.')).toEqual([]);
    // "you are" without a role noun is no role prompt.
    expect(
      extractInstructions('You are a bit fast. Always run the tests first.', { rulesOnly: true }),
    ).toEqual(['Always run the tests first.']);
  });

  it('reads "I like X but I want…" as a concession, not a preference for X', () => {
    // A SpecStory user's turn: "Prefer the procedure … but I want to make adjustment." was a key point.
    expect(
      extractInstructions('I like the procedure CreateAllMarkedCustomers() but I want to make adjustment.'),
    ).toEqual([]);
    expect(extractInstructions('I prefer tabs over spaces.')).toEqual(['Prefer tabs over spaces.']);
  });

  it('reads "I like X" as praise unless it says what X is preferred to, and "I\'d like to X" as a request', () => {
    // Both were key points of the shared data ("Prefer the proposed approach a lot.").
    expect(extractInstructions('I like the proposed approach a lot.')).toEqual([]);
    expect(extractInstructions('I like the blackmail aspect.')).toEqual([]);
    expect(extractInstructions('I really like using pnpm instead of npm.')).toEqual([
      'Prefer using pnpm instead of npm.',
    ]);
    expect(extractInstructions('I like tabs over spaces.')).toEqual(['Prefer tabs over spaces.']);
    // "Prefer to simplify the build script." before: "I'd like" missed the lead-in typed without a space.
    expect(extractInstructions("I'd like to simplify the build script.")).toEqual([
      'Simplify the build script.',
    ]);
    expect(extractInstructions("I'd like you to always run the tests first.")).toEqual([
      'Always run the tests first.',
    ]);
  });

  it('reads "I dislike you doing X" as "Don\'t do X", and a verb\'s -ing form back to its base', () => {
    expect(
      extractInstructions('I dislike you adding inline documentation to pytest.ini and conftest.py.'),
    ).toEqual(["Don't add inline documentation to pytest.ini and conftest.py."]);
    expect(extractInstructions("I don't like you creating new files for every helper.")).toEqual([
      "Don't create new files for every helper.",
    ]);
    // "adding" is "add" ("ad" before), "running" is "run".
    expect(extractInstructions("Shouldn't we be adding a fixture?")).toEqual(['Add a fixture.']);
    expect(extractInstructions("Shouldn't we be running the linter?")).toEqual(['Run the linter.']);
    // What the person dislikes that is no act of the agent's stays as it was said.
    expect(extractInstructions('I dislike long commit messages.')).toEqual(['Avoid long commit messages.']);
  });

  it('keeps the first of two instructions when the second has a condition of its own', () => {
    expect(
      extractInstructions(
        "Good, but don't put comments into bash snippets, if needed for an explanation, put it in the text above.",
      ),
    ).toEqual(["Don't put comments into bash snippets."]);
    // A condition that is part of the one instruction stays with it.
    expect(extractInstructions('Always use tabs, if possible, in Makefiles.')).toEqual([
      'Always use tabs, if possible, in Makefiles.',
    ]);
  });

  it('reads "No, not X. Y." as "use Y, not X" for the next sentence only', () => {
    expect(extractInstructions('No, not GraphQL. REST endpoint. Keep answers short.')).toEqual([
      'Use REST endpoint, not GraphQL.',
      'Keep answers short.',
    ]);
    expect(extractInstructions('Not GraphQL. REST endpoint.')).toEqual(['Use REST endpoint, not GraphQL.']);
    // A list of answers or traits rejects nothing (a ShareGPT persona, a SpecStory questionnaire).
    expect(extractInstructions('Personality style:\nPassive\nNot Self-Aware\nOblivious')).toEqual([]);
    expect(
      extractInstructions('Export functionality? Not a priority\n\nIntegration with existing features:'),
    ).toEqual([]);
    // A later noun phrase is not what replaces GraphQL ("Use Great job, not GraphQL.").
    expect(extractInstructions('No, not GraphQL. REST endpoint. Great job')).toEqual([
      'Use REST endpoint, not GraphQL.',
    ]);
    // "Not really." answers a question; a label after it is no value to use ("Use NOW, not really.").
    for (const answer of ['Not really.', 'Not yet.', 'No, not exactly.', 'Not at all!', 'Not right now.'])
      expect(extractInstructions(`${answer} NOW: I ran this and got every engine.`), answer).toEqual([]);
    expect(extractInstructions('Not really. Keep the answers short.')).toEqual(['Keep the answers short.']);
  });

  it('is the text proposeKeyPoint gives a correction, which otherwise keeps only its evidence', () => {
    const standing = 'No, always use pnpm instead of npm.';
    const [insight] = heuristicReflect([
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: standing },
    ]);
    expect(proposeKeyPoint(insight!, standing)?.text).toBe(writeKeyPoint(standing));
    const oneOff = 'No, the build still fails with this error, fix it.';
    for (const i of heuristicReflect([
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: oneOff },
    ])) {
      expect(proposeKeyPoint(i, oneOff)).toBeUndefined();
    }
  });
});

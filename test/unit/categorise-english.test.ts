/**
 * The table of English openings (lib/categorise/english.ts): every row is anchored at the sentence's
 * start, reads its own example through `classify` (as the snapshot does), and the table and the
 * readings changed with it (progressive openings, a question before an example, "may not be") are
 * linear in the sentence.
 */
import { describe, expect, it } from 'vitest';
import { BLOCKER, EVIDENCE, HYPOTHESIS, NEXT, NO_CATEGORY, QUESTION } from '../../lib/categorise/codes';
import { ENGLISH_RULES, englishOpening } from '../../lib/categorise/english';
import { classify, words } from '../../lib/categorise/index';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const NAMES: Record<number, string | undefined> = {
  [HYPOTHESIS]: 'openHypotheses',
  [BLOCKER]: 'blockers',
  [NEXT]: 'nextActions',
  [QUESTION]: 'unresolvedQuestions',
  [EVIDENCE]: 'requiredEvidenceLinks',
  [NO_CATEGORY]: undefined,
};
const category = (t: string) => classify(words(t), t).category;

describe('categorise: English openings', () => {
  it.each(ENGLISH_RULES.map((r) => [r.id, r] as const))(
    '%s is anchored and reads its example',
    (_id, rule) => {
      // The anchor is the table's shortcut: a row that does not apply fails at the first characters.
      expect(rule.pattern.source.startsWith('^')).toBe(true);
      // The stage's gate is the rows' alternation under `i`: a row may add no other flag (`u`, `s`, `m`).
      expect(rule.pattern.flags.replace('i', '')).toBe('');
      expect(englishOpening(rule.example, rule.stage)).toBe(rule.category);
      expect(category(rule.example)).toBe(NAMES[rule.category]);
    },
  );

  it('gives each stage its own rows', () => {
    expect(englishOpening('**Next steps**', 'first')).toBeUndefined();
    expect(englishOpening('Let me know if you need anything else!', 'after-plan')).toBeUndefined();
    // An imperative under a bold heading is a step: the heading row waits for the plan check.
    expect(category('**Create a local environment file**')).toBe('nextActions');
    expect(category('**Next steps**')).toBeUndefined();
  });

  it('reads a missing or failing part last, when nothing else in the sentence says what it does', () => {
    expect(category('Login is not implemented yet.')).toBe('blockers');
    expect(category("I don't see the startup message in the logs.")).toBe('blockers');
    expect(category('The hook does not fire on save.')).toBe('blockers');
    // What the rest of the reading says comes first: a plan, a done-report, a negative finding.
    expect(category('Let me check why the hook does not fire on save.')).toBe('nextActions');
    expect(category("I don't see any errors.")).toBeUndefined();
    expect(category('The script does not modify your files.')).toBeUndefined();
    expect(englishOpening('The server is not sending the headers.', 'first')).toBeUndefined();
  });

  it('reads a verb row only when its word opens a plan', () => {
    expect(category('After that, run `gt doctor --fix` again.')).toBe('nextActions');
    expect(englishOpening('After that, everything passed.', 'first')).toBeUndefined();
    expect(category('The first step is to navigate into the repository.')).toBe('nextActions');
    expect(englishOpening('The fix is to blame for the slowdown.', 'after-plan')).toBeUndefined();
  });

  it('tells a title-case heading from a step in bold', () => {
    expect(category('**Tag Filtering**')).toBeUndefined();
    expect(category('**Test Infrastructure and Tooling**')).toBeUndefined();
    expect(category('**Create a local environment file**')).toBe('nextActions');
    expect(category('**Option 2: Copy the file to `~/.claude/commands/`**')).toBe('nextActions');
    expect(englishOpening('**Option 2: The cache**', 'first')).toBeUndefined();
  });

  it('keeps what a person holds on purpose, and conditions, out of the still-holds row', () => {
    expect(category('The seeds file still has `org_id`.')).toBe('blockers');
    expect(englishOpening('We still have 100% coverage after the change.', 'after-plan')).toBeUndefined();
    expect(englishOpening('If the file still has the key, drop it.', 'after-plan')).toBeUndefined();
  });

  it('reads the changed openings as the pool showed them', () => {
    expect(
      category('Adding strict types to config files and identifying more readonly property candidates:'),
    ).toBe('nextActions');
    expect(category('Now writing the session logs and repo infrastructure files in parallel.')).toBe(
      'nextActions',
    );
    // A subject, not an action under way; what the writer saw, not a step.
    expect(category('Cloning the repository is relatively cheap but not free.')).not.toBe('nextActions');
    expect(category('Looking at the code snippet I retrieved earlier today:')).not.toBe('nextActions');
    expect(category('Should we track stock by unit amount? (e.g., 300ml vs 500ml bottles)')).toBe(
      'unresolvedQuestions',
    );
    expect(category('The background image may not be working because the path is relative.')).toBe(
      'openHypotheses',
    );
    expect(category('I see an issue in the backup-crawler-output.ts file.')).toBe('blockers');
  });

  it('reads "fail-safe" and "fail-fast" as a design property, not a failure', () => {
    for (const t of ['The handler is fail-safe.', 'We keep a fail-fast loader.', 'What fail_fast Does'])
      expect(category(t), t).not.toBe('blockers');
    // A failure stays one, and a problem word beside the property still counts.
    for (const t of ['The tests fail on CI.', 'Builds fail safely only on Linux, and fail on macOS.'])
      expect(category(t), t).toBe('blockers');
  });

  it('reads content presented with a hedge, and a sign-off asked, as no note', () => {
    for (const t of [
      'Sure, here’s an example of how the code might be modified to use the shared client:',
      'Here is some sample code that could be used to open the connection:',
      'Here are a few examples of queries that may help:',
      'Is there anything else I can help you with?',
      'How may I assist you further?',
    ])
      expect(category(t), t).toBe(undefined);
    // A guess shown, or a question about the work, keeps its category.
    expect(category("Here's what might be happening:")).toBe('openHypotheses');
    expect(category("Here's an example of what might be causing the crash:")).toBe('openHypotheses');
    expect(category("Is there anything else you'd like me to adjust in the implementation?")).toBe(
      'unresolvedQuestions',
    );
  });

  it('reads a problem word after "on", "if" or "handles" as a case the code copes with, not a defect', () => {
    for (const t of [
      'All subtasks complete. All LLM paths fail-safe on missing key, 26 regression tests pass.',
      'It retries on timeout.',
      'The parser handles errors gracefully.',
      'The parser handles errors and exceptions gracefully.',
      'It retries on timeout or failure.',
      'Added a config to ignore missing docstrings.',
      'It fills the column with `None` if missing.',
      'Screenshot and video capture on failure',
    ])
      expect(category(t), t).not.toBe('blockers');
    // The defect before the case still stands, and so does a case word with no problem word after it.
    for (const t of [
      'Tests fail on missing key.',
      'The handler crashes on error.',
      // "crashes" after a join is a verb as often: the defect stands.
      'It handles errors and crashes on startup.',
      // "errors out" is what it does, a verb, however it is joined.
      'It retries on timeout and errors out.',
      'It retries on timeout, then errors out.',
      'The key is missing.',
      'Errors on startup.',
    ])
      expect(category(t), t).toBe('blockers');
  });

  it('reads a noun that is also a verb, then what became of it, as a report (sets/outcome-reports)', () => {
    for (const t of [
      'Install finished.',
      'Fix applied cleanly.',
      'Update complete.',
      'Run completes in 3s.',
      'Structure matches exactly.',
      'Looking good.',
    ])
      expect(category(t), t).not.toBe('nextActions');
    // The rest of the decision still runs: a problem after the report stands.
    expect(category('Fix applied, but the tests still fail.')).toBe('blockers');
    expect(category('Build failed.')).toBe('blockers');
    // Imperatives stay steps: an adjective before its noun, a linking verb, "matches" as a noun.
    for (const t of ['Check modified files.', 'Get started.', 'Find matches in the log.', 'Run the tests.'])
      expect(category(t), t).toBe('nextActions');
  });

  it.each([
    ['a long outcome prefix', (n: number) => `${'- '.repeat(Math.ceil(n / 2))}install`],
    ['an outcome word repeated', (n: number) => `Install ${'finished '.repeat(Math.ceil(n / 9))}`],
  ])('reads %s as an outcome in linear time', (_name, make) => {
    const g = measureGrowth((t: string) => classify(words(t), t), make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it.each([
    ['a long offer with no "I will"', (n: number) => `If you want ${'a.'.repeat(Math.ceil(n / 2))} x`],
    ['a long opening clause with no comma', (n: number) => `After that${' a'.repeat(Math.ceil(n / 2))}`],
    ['a long bold run', (n: number) => `**${'a'.repeat(n)}`],
    ['words before "still"', (n: number) => `${'x '.repeat(Math.ceil(n / 2))}still has `],
    ['a long link label', (n: number) => `**URL:** [${'a'.repeat(n)}`],
    ['hex runs', (n: number) => `${'a1'.repeat(Math.ceil(n / 2))}`],
    ['a long title-case heading, never closed', (n: number) => `**${'Ab '.repeat(Math.ceil(n / 3))}`],
    ['a numbered option with no verb', (n: number) => `**Option 1: ${'a'.repeat(n)}`],
    ['"is not" over and over, never a state', (n: number) => `${'it is not '.repeat(Math.ceil(n / 10))}`],
    ['"returns" with no "instead of"', (n: number) => `${'returns x '.repeat(Math.ceil(n / 10))}`],
  ])('reads %s in linear time', (_name, make) => {
    const g = measureGrowth(
      (t: string) =>
        englishOpening(t, 'first') ?? englishOpening(t, 'after-plan') ?? englishOpening(t, 'last'),
      make,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it.each([
    ['an action under way, then dots', (n: number) => `Running${'.'.repeat(n)}x`],
    ['an action under way, then words', (n: number) => `Checking ${'a '.repeat(Math.ceil(n / 2))}:`],
    ['a question, then open parentheses', (n: number) => `?${' ('.repeat(Math.ceil(n / 2))})`],
  ])('classifies %s in linear time', (_name, make) => {
    const g = measureGrowth((t: string) => classify(words(t), t), make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

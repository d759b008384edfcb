/**
 * The categorizer's cues, one rule per test, on invented sentences (none is taken from the labelled
 * set of eval/snapshot/): what the sentence does decides, not which words it holds.
 */
import { describe, expect, it } from 'vitest';
import { opensInCode } from '../../lib/categorise/cues';
import { headingLine } from '../../lib/categorise/lead';
import { answersItself, copulaPointer } from '../../lib/categorise/text';
import { ownCategories } from '../../tools/shared/own-category';
import { where } from '../snapshot/where';

describe('snapshot cues', () => {
  it('reads "expected X, got Y" anywhere as a failed check, not as expected failures', () => {
    // Found by the blind judgement of the bundled samples (eval/snapshot/SAMPLES.md): this was dropped.
    expect(where('The login spec is failing: expected 302, got 401.')).toBe('blockers');
    expect(where('Checked the totals, expected 12 but got 13 rows.')).toBe('blockers');
    expect(where('All green, with 3 expected failures as usual.')).toBe('none');
  });

  it('reads a failure told by its status word alone (aborted, refused, exceeded) as a problem', () => {
    expect(where('API Error: Request was aborted.')).toBe('blockers');
    expect(where('Connection refused on port 5432.')).toBe('blockers');
    expect(where('Maximum recursion depth exceeded while calling a Python object.')).toBe('blockers');
    expect(where('The aborted request no longer fails after the retry.')).toBe('none');
  });

  it('reads what the writer saw ("Observed error: …", "Noticed …") as a report, not a step done', () => {
    expect(where('Observed error (API): prompt is too long: 207255 tokens > 200000 maximum')).toBe(
      'blockers',
    );
    expect(where('Noticed the build fails on CI.')).toBe('blockers');
    expect(where('Observed that all tests pass now.')).toBe('none');
    expect(where('I noticed a typo and fixed it.')).toBe('none');
  });

  it('reads "regression test" as a kind of test, and a regression on its own as a problem', () => {
    expect(where('26 regression tests pass.')).toBe('none');
    expect(where('Added a regression test for the empty cart.')).toBe('none');
    expect(where('Run the regression suite next.')).toBe('nextActions');
    expect(where('This is a regression from the last release.')).toBe('blockers');
    expect(where('Regression tests still fail on Windows.')).toBe('blockers');
    expect(where('The regressions are back after the merge.')).toBe('blockers');
  });

  it('reads a slip or omission reported as done as a problem that stands', () => {
    expect(where('I forgot to export the helper from the index.')).toBe('blockers');
    expect(where('We overlooked the empty-list case in the parser.')).toBe('blockers');
    expect(where('No test was missed.')).toBe('none');
    expect(where('The mistyped variable name has been corrected.')).toBe('none');
  });

  it('keeps a problem asserted as present ("there is …") over a done-report, not one naming a case', () => {
    expect(where('I updated the config, and there is a typo in the key name.')).toBe('blockers');
    expect(where('Fixed the case where there is a missing header.')).toBe('none');
    expect(where('There were no errors after I added the guard.')).toBe('none');
  });

  it('reads an excerpt that starts inside a code span as code up to the closing backtick', () => {
    expect(opensInCode('run()` returns None here')).toBe(true);
    expect(opensInCode('Use `npm ci` here')).toBe(false);
    expect(opensInCode('Use `npm ci here')).toBe(false);
    expect(where('Drop` with no guard, which will fail on older servers.')).toBe('blockers');
    expect(where('Use `npm ci` instead of install.')).toBe('nextActions');
  });

  it('reads a check answered in the same entry as a finding, not a step', () => {
    expect(answersItself('Verify that the flag is read at startup - it is.')).toBe(true);
    expect(answersItself('Check whether the cache is shared: it is not, each worker has one.')).toBe(false);
    expect(where('Verify that the flag is read at startup - it is.')).toBe('none');
    expect(where('See whether the flag is set; yes, at startup.')).toBe('none');
    expect(where('Check if the cache is shared between workers.')).toBe('nextActions');
    expect(where('Run the linter, no need to format.')).toBe('nextActions');
  });

  it('sends "the thing we want is <path>" to evidence, but not a diagnosis or a mention', () => {
    expect(copulaPointer('The log we are after is at /tmp/run.log.')).toBe(2);
    expect(copulaPointer('The parser is slow on lib/big.json.')).toBe(0);
    expect(where('The config we load is `conf/dev.yaml`.')).toBe('requiredEvidenceLinks');
    expect(where('The script to run is at ./scripts/repro.sh, as the README says.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('The bug is in lib/parse.ts:40.')).toBe('blockers');
    expect(where('The parser is slow on lib/big.json.')).not.toBe('requiredEvidenceLinks');
  });

  it('reads a modal over a judgement of use as a remark, not a guess', () => {
    expect(where('That flag might be handy when we profile the loader.')).toBe('none');
    expect(where('The cache might be stale.')).toBe('openHypotheses');
    expect(where('The timeout could be too short for the runners.')).toBe('openHypotheses');
  });

  it('reads negated knowing before why / whether / if as a reported question', () => {
    expect(where("It's not clear why the worker exits early.")).toBe('unresolvedQuestions');
    expect(where("I don't know whether the retry is idempotent.")).toBe('unresolvedQuestions');
    expect(where('No idea why the lock file changed.')).toBe('unresolvedQuestions');
    expect(where('Whether the cache should be per-user is still open.')).toBe('unresolvedQuestions');
    expect(where('I know why the worker exits early.')).toBe('none');
  });

  it('reads "times out" as a status word, with its negation', () => {
    expect(where('The test still times out after the change.')).toBe('blockers');
    expect(where('Timed out after 30 seconds on the second shard.')).toBe('blockers');
    expect(where('The build no longer times out.')).toBe('none');
    expect(where('Three times out of ten the build is green.')).toBe('none');
  });

  it('excuses a problem by a benign predicate, not by "the expected" value', () => {
    expect(where("The output doesn't match the expected string.")).toBe('blockers');
    expect(where('The retry failed twice, which is normal on a cold cache.')).toBe('none');
  });

  it('keeps a problem that persists or remains', () => {
    expect(where('The issue persists after the restart.')).toBe('blockers');
    expect(where('The same problem remains.')).toBe('blockers');
    expect(where('The timeout error remains even with the larger limit.')).toBe('blockers');
    expect(where('What remains is to update the docs.')).not.toBe('blockers');
  });

  it('reads what should be, then what is, as a problem', () => {
    expect(where('Expected 3 rows but got 4.')).toBe('blockers');
    expect(where('The counter should be reset between runs, but it keeps the old value.')).toBe('blockers');
    expect(where('This should fix it, but I will rerun the suite.')).toBe('nextActions');
  });

  it('reads an expected resolution as no blocker, whatever its verb, and a subject that acts as a plan', () => {
    // The labelling rules put "should work now" with done-reports; the strangers' pool held five such
    // sentences, four of them read as blockers before ("This will resolve the errors you are seeing.").
    for (const s of [
      'This should fix the error.',
      'This should resolve the TypeScript error.',
      'This will resolve the XML parsing error, and the mod should now load correctly.',
      'This will fix the crash when the list is empty.',
      'The patch should solve the problem.',
      'This change should address the timeout.',
    ])
      expect(where(s), s).toBe('none');
    expect(where('I will fix the crash.')).toBe('nextActions');
    expect(where('We should fix the timeout before the release.')).toBe('nextActions');
    // A problem that stands is still one.
    expect(where('This should have fixed it, but the build still fails with the same error.')).toBe(
      'blockers',
    );
  });

  it('review: reassurance, advice and reported doubts are not blockers; the expected value still is one', () => {
    // "never" is not a problem word (a rule for it had no labelled evidence and misread advice).
    expect(where('You should never commit the .env file.')).not.toBe('blockers');
    expect(where('That branch is never taken in production, so it is safe.')).toBe('none');
    // "as expected" / "than expected" open no "expected X, got Y".
    expect(where('As expected, we got 200 from the health check.')).toBe('none');
    expect(where('The new parser is faster than expected, and we got a 2x speedup.')).toBe('none');
    // A "but" clause that meets the expectation.
    expect(where('The cache should be cleared, but that is fine.')).toBe('none');
    expect(where('It should be fast, but it is.')).toBe('none');
    // "the expected value" names what should be: the problem stands.
    expect(where('The expected value is missing from the fixture.')).toBe('blockers');
    // A curly apostrophe answers a check like a straight one.
    expect(where('Check whether the cache is shared: it isn’t.')).toBe(
      where("Check whether the cache is shared: it isn't."),
    );
  });

  it('review: a leading "Is" counts as a copula, as the words do', () => {
    expect(where('Is it failing on CI and the log is at /tmp/run.log.')).not.toBe('requiredEvidenceLinks');
    expect(copulaPointer('Is the log at /tmp/run.log? The log is at /tmp/run.log.')).toBe(2);
  });

  it('reads "I will <verb>" as a plan whatever the verb, as "I\'ll" is; not "I will not"', () => {
    expect(where('I will tidy the fixtures and rerun the parser suite.')).toBe('nextActions');
    expect(where('We will carefully compare both exports.')).toBe('nextActions');
    expect(where("I'll tidy the fixtures.")).toBe('nextActions');
    expect(where('It will tidy itself on restart.')).toBe('none');
  });

  it('reads a hedged question about what to do as a question, a hedged question about a cause as a guess', () => {
    expect(where('Probably need to bump the schema version too?')).toBe('unresolvedQuestions');
    expect(where('Maybe we should pin the old resolver?')).toBe('unresolvedQuestions');
    expect(where('Maybe the cache is stale?')).toBe('openHypotheses');
  });

  it('sends a pointer with a gloss to evidence; a verdict after a hyphen or a problem in the gloss is not one', () => {
    expect(where('`web/src/state/cart.ts` (cart totals)')).toBe('requiredEvidenceLinks');
    expect(where('- `api/handlers/auth.go:88-120` — token refresh path')).toBe('requiredEvidenceLinks');
    expect(where('**docs/setup.md** + the install notes')).toBe('requiredEvidenceLinks');
    expect(where('`web/src/state/cart.ts` - looks fine')).toBe('none');
    expect(where('`web/src/state/cart.ts` (fails to type-check)')).toBe('blockers');
    expect(where('`web/src/state/cart.ts` (updated the totals)')).toBe('none');
    expect(where('Cart totals (see the state module)')).toBe('none');
  });

  it("takes a writer's leading label at its word: diagnosis, goal, todo, hypothesis, question", () => {
    expect(where('**Diagnosis:** the release script reads a path that was renamed')).toBe('blockers');
    expect(where('Initial Problem: uploads stopped after the proxy change')).toBe('blockers');
    expect(where('**Goal:** make the exporter handle missing fields and errors')).toBe('none');
    expect(where('Hypothesis: the worker restarts drop the queue')).toBe('openHypotheses');
    expect(where('**Open question:** keep the v1 endpoint for a release')).toBe('unresolvedQuestions');
    // A label that names no category leaves the line to its words.
    expect(where('**Note:** the uploader retries three times')).toBe('none');
    expect(where('Result: three specs still fail on CI')).toBe('blockers');
  });

  it('reads checkboxes as status: an open box is to do, only ticked boxes are done', () => {
    expect(where('Update Todos ☒ Port the exporter ☒ Add the fixtures')).toBe('none');
    expect(where('Update Todos ☒ Port the exporter ☐ Add the fixtures')).toBe('nextActions');
    expect(where('- [ ] document the flag')).toBe('nextActions');
    expect(where('- [x] document the flag')).toBe('none');
  });

  it('reads "I see the issue - <what>" as a diagnosis, but not the bare remark', () => {
    expect(where('I see the issue - the loader runs before the config is read.')).toBe('blockers');
    expect(where('Found the problem: the cache key ignores the locale.')).toBe('blockers');
    expect(where('I see the issue.')).toBe('none');
  });

  it('reads a short line opening with an action under way as a step; a longer one by its words', () => {
    expect(where('Running `check_totals.py`.')).toBe('nextActions');
    expect(where('Debugging the export path')).toBe('nextActions');
    expect(where('Checking the fixtures')).toBe('nextActions');
    expect(where('Nothing changed in the exporter.')).toBe('none');
    expect(where('Running the suite showed that the two exporters write the same rows to the sink.')).toBe(
      'none',
    );
  });

  it('reads "should be to <verb>" as a plan and "we should either" as one', () => {
    expect(where('The fix should be to use the shared clock.')).toBe('nextActions');
    expect(where('We should either pin the resolver or vendor it.')).toBe('nextActions');
  });

  it('does not take acronym pairs or a title naming a file for evidence', () => {
    expect(where('Emphasizes CI/CD.')).toBe('none');
    expect(where('**README.md Cleanup:**')).toBe('none');
    expect(where('See docs/ci/cd.md')).toBe('requiredEvidenceLinks');
  });

  it('does not take two words joined by a slash, a markup tag or a CJK sentence holding a slash for evidence', () => {
    expect(where('Input/output variants')).toBe('none');
    expect(where('</bash-stderr>')).toBe('none');
    // No spaces in CJK prose: the sentence is words, not one path ("add the expand/collapse state").
    expect(where('这是因为我们需要添加展开/折叠的状态控制。')).not.toBe('requiredEvidenceLinks');
    expect(where('请看这个目录（/srv/app/logs）里面的日志')).not.toBe('requiredEvidenceLinks');
    // Paths stay paths: quoted, opened by a mark, with a file extension, or a code span's contents alone.
    expect(where('See `src/lib`')).toBe('requiredEvidenceLinks');
    expect(where('See ./src/lib')).toBe('requiredEvidenceLinks');
    expect(where('src/lib')).toBe('requiredEvidenceLinks');
    expect(where('见 /srv/app/logs/error.log')).toBe('requiredEvidenceLinks');
    expect(where('日志：/srv/app/logs/error.log')).toBe('requiredEvidenceLinks');
    // A clause glued to a URL or a path ("push it here", "put it in the frame as yyyy/mm/dd (weekday)?").
    expect(where('https://github.com/acme/appここにプッシュしてほしい')).not.toBe('requiredEvidenceLinks');
    expect(where('この曜日って隣の日付の枠内にsrc/app.ts (曜日)として入れることできない？')).not.toBe(
      'requiredEvidenceLinks',
    );
  });

  it('reads a mistake as a problem and "asked how / whether" as a reported question', () => {
    expect(where('I repeated the same mistake in the migration script.')).toBe('blockers');
    expect(where('No mistake in the totals this time.')).toBe('none');
    expect(where('The reviewer asked why the retry budget is global.')).toBe('unresolvedQuestions');
    expect(where('The reviewer asked me to rename the flag.')).not.toBe('unresolvedQuestions');
  });

  it('reads a bare file name as evidence, quoted or not; a path with an imperative or an action under way as a step', () => {
    expect(where('`deploy_checklist.md`')).toBe('requiredEvidenceLinks');
    expect(where('deploy_checklist.md')).toBe('requiredEvidenceLinks');
    expect(where('See scripts/release.sh.')).toBe('requiredEvidenceLinks');
    expect(where('Run `scripts/release.sh`.')).toBe('nextActions');
    // Found on the bundled samples: an HTTP request line is a pointer, not a step.
    expect(where('GET /orders/:id/lines?state=open.')).toBe('requiredEvidenceLinks');
    expect(where('Running `check_totals.py`.')).toBe('nextActions');
    // Dots with no name before them are no file: "...code", "..." in an elided string.
    expect(where('`[:-4]` -> `...text`.')).not.toBe('requiredEvidenceLinks');
  });

  it('reads a bold title over what follows as no note, whatever its words or paths', () => {
    expect(where('**Troubleshooting CI Failures:**')).toBe('none');
    expect(where('**CHANGELOG.md Cleanup:**')).toBe('none');
    expect(where('**Inputs/Outputs:**')).toBe('none');
    expect(where('**Diagnosis:** the hook calls a removed venv')).toBe('blockers');
  });

  it('reads a Markdown heading as a title over what follows, in any language; an error line stays a failure', () => {
    expect(where('## Todo List')).toBe('none');
    expect(where('### Commit 6 — feat: shared BackToDashboardLink')).toBe('none');
    expect(where('## The Actual Issue: PERMISSION_DENIED Error')).toBe('none');
    expect(where('##### What prompted the author to learn TypeScript?')).toBe('none');
    expect(where('## Vấn đề hiện tại:')).toBe('none');
    // Not headings: no space after the marks, or more than six of them, or a plain sentence.
    expect(where('#123 is failing again: the login test times out.')).toBe('blockers');
    expect(where('####### Run the migration before the release.')).toBe('nextActions');
    expect(headingLine('   ## indented up to three spaces')).toBe(true);
    expect(headingLine('    ## four spaces is code')).toBe(false);
    // aider prints a failed edit block as a heading: the failed call's error line is a blocker.
    const failed = ownCategories({
      objective: '',
      entries: [
        {
          scope: 'observation',
          key: 'k',
          value: '# 1 SEARCH/REPLACE block failed to match!',
          sourceIteration: 0,
        },
      ],
    });
    expect(failed).toEqual(['blockers']);
  });

  it('reads "I must <verb>", "Please <verb>" and "double check" as plans', () => {
    expect(where('We must merge the two migrations before the release.')).toBe('nextActions');
    expect(where('Please rerun the export with the new flag.')).toBe('nextActions');
    expect(where('I should double check the locale fallback.')).toBe('nextActions');
    expect(where('Please note that the cache is shared.')).toBe('none');
  });

  it('reads past a numbered or bulleted list marker before a gloss or an action under way', () => {
    expect(where('12. `web/src/state/cart.ts` (cart totals)')).toBe('requiredEvidenceLinks');
    expect(where('3) Running `check_totals.py`.')).toBe('nextActions');
    expect(where('• Checking the fixtures')).toBe('nextActions');
    // A digit or underscore glued to the "-ing" word makes it a name, not an action.
    expect(where('Running2 jobs at once')).toBe('none');
  });

  it('reads defects named without a status word as problems', () => {
    expect(where('So my refactor broke the nightly export.')).toBe('blockers');
    expect(where('That was an oversight in the retry policy.')).toBe('blockers');
    expect(where('We lost the trailing newline in the template.')).toBe('blockers');
    expect(where('The cache key is a list, which is unhashable.')).toBe('blockers');
    // Removing one is a done-report.
    expect(where('Removed the redundant null check.')).toBe('none');
  });
});

/**
 * The categorizer's cues found in the listed errors of the labelled rounds (sets 10 to 28), each on
 * invented sentences (none is taken from a labelled set), and the opener lists and word codes the
 * anchored forms share.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../lib/categorise/cues';
import { OPENER_WORDS, OPENERS } from '../../lib/categorise/openers';
import { plainFirst, shoutedFirst } from '../../lib/categorise/pointer';
import { where } from '../snapshot/where';

describe('snapshot cues', () => {
  // Forms found in set 10's listed errors (invented sentences, none from a labelled set).
  it('sends a line location, quoted actual or expected output and a grep hit to evidence', () => {
    expect(where('Okay, `parse_header` is defined at line 412.')).toBe('requiredEvidenceLinks');
    expect(where('The loop is at line 88.')).toBe('requiredEvidenceLinks');
    expect(where('The line is at 97.')).toBe('requiredEvidenceLinks');
    expect(where('Actual: `2024-01-01T00:00`')).toBe('requiredEvidenceLinks');
    expect(where('Hmm, my actual output is `[1, 2]`.')).toBe('requiredEvidenceLinks');
    expect(where('`web/src/cart.ts: const total = sum(items)`')).toBe('requiredEvidenceLinks');
    // Code described at a line, a quote the sentence goes on about, a plan or a problem at a line: not pointers.
    expect(where('Line 40 starts `return cache.get(key)`.')).toBe('none');
    expect(where('The expected string `a b` puts the space inside the span.')).not.toBe(
      'requiredEvidenceLinks',
    );
    expect(where('Let me look at line 40.')).toBe('nextActions');
    expect(where('The test fails at line 40.')).toBe('blockers');
    expect(where('Expected `3`, got `4`.')).toBe('blockers');
  });

  it('reads a call as code, not a pointer, whatever URL it holds', () => {
    expect(where("`fetch('https://api.example.com/v1')`.")).toBe('none');
    expect(where('See https://ci.example.com/run/12')).toBe('requiredEvidenceLinks');
  });

  it('reads an issue met "still" as standing, and "I can see the X issue!" alone as no note', () => {
    expect(where("We're still hitting an issue with the locale field.")).toBe('blockers');
    expect(where('We still have no issue with the cache.')).not.toBe('blockers');
    expect(where('I can see the caching issue!')).toBe('none');
    expect(where('I see the issue - the key is never reset.')).toBe('blockers');
  });

  it('reads "should only <verb>", "we could <verb>", "Pass X to Y" and "step 1: <verb>" as plans', () => {
    expect(where('I should only rename the export in the index.')).toBe('nextActions');
    expect(where('We could move the guard into the constructor:')).toBe('nextActions');
    expect(where('Pass `timeout` to `fetchWithRetry`.')).toBe('nextActions');
    expect(where('So, step 2: Update `lib/parse.ts`.')).toBe('nextActions');
    expect(where('It could be the cache.')).toBe('openHypotheses');
    expect(where('All tests pass now.')).toBe('none');
  });

  it('sends a listing line ("Line 12: …"), "it\'s line N" and a hedged guess where to look to evidence', () => {
    expect(where('Line 212: `return cache.get(key)`')).toBe('requiredEvidenceLinks');
    expect(where('Line 40: When the config folder exists but holds no JSON files.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where("It's line 88.")).toBe('requiredEvidenceLinks');
    expect(where('`web/src/cart/total.ts` seems relevant.')).toBe('requiredEvidenceLinks');
    expect(where('`lib/net/retry.ts` likely handles it.')).toBe('requiredEvidenceLinks');
    expect(where('The relevant fixtures are probably in `test/fixtures/cart.json`.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('In `lib/net/retry.ts`, `backoff` is computed once.')).toBe('requiredEvidenceLinks');
    // A plan for the line, a description of it, a file glossed with a guess, a guess about no file: not pointers.
    expect(where('Line 212: `get(key)` should become `get(key, fallback)`.')).not.toBe(
      'requiredEvidenceLinks',
    );
    expect(where('Line 40 starts `return cache.get(key)`.')).toBe('none');
    expect(where('`web/src/cart.ts`: this file builds the totals and might round too early.')).toBe(
      'openHypotheses',
    );
    expect(where('The cache is probably stale.')).toBe('openHypotheses');
  });

  it('reads "I see the issue now - <what>", "isn\'t working as expected" and "More issues!" as problems', () => {
    expect(where('I see the issue now - the retry never resets the counter.')).toBe('blockers');
    expect(where("The mock isn't working as expected.")).toBe('blockers');
    expect(where('The test failed as expected.')).toBe('none');
    expect(where('More bugs!')).toBe('blockers');
    expect(where('Same problem!')).toBe('blockers');
  });

  it('reads "the fix is to <verb>", "To <verb> …:" and imperatives such as "Store …" as plans; "Stage 2 complete." as done', () => {
    expect(where('So the fix is simply to remove the header check.')).toBe('nextActions');
    expect(where('To handle both cases:')).toBe('nextActions');
    expect(where('Store the client as an instance attribute.')).toBe('nextActions');
    expect(where('Please provide the failing command.')).toBe('nextActions');
    expect(where('Stage 2 complete.')).toBe('none');
    expect(where('Phase 3 done')).toBe('none');
    // A fix described, not named as a step; an HTTP method or acronym first, not an imperative.
    expect(where('The fix is in the parser.')).not.toBe('nextActions');
    expect(where('GET requests carry no body.')).toBe('none');
    expect(where('Get the logs from CI.')).toBe('nextActions');
  });

  it('reads "asked if / whether / for clarification" as a reported question', () => {
    expect(where('The user asked if the cache survives a restart.')).toBe('unresolvedQuestions');
    expect(where('She is asking whether both jobs run at once.')).toBe('unresolvedQuestions');
    expect(where('User asked for clarification on the retry policy.')).toBe('unresolvedQuestions');
    expect(where('I asked the user to restart.')).not.toBe('unresolvedQuestions');
  });

  it('round from set 12: praise, counted issues, priorities, "should be in `path`", fragile code, labels, "I assume"', () => {
    expect(where('Great question!')).toBe('none');
    expect(where('One more import order issue.')).toBe('blockers');
    expect(where('The issue.')).not.toBe('blockers');
    expect(where('Our top priorities:')).toBe('nextActions');
    expect(where("Here's how we could proceed without a migration:")).toBe('nextActions');
    expect(
      where('The main handler should be in `server/routes/cart.ts` (where the total is likely computed).'),
    ).toBe('requiredEvidenceLinks');
    expect(where('The retry loop in `net.ts` is a bit brittle.')).toBe('blockers');
    expect(where('Default arguments that call functions can be problematic.')).toBe('blockers');
    expect(where('**Change**: Added a `limit` field to the query.')).toBe('none');
    expect(where('Fix: add the null guard to `parse`.')).toBe('nextActions');
    expect(where('The parser keeps a cache (I assume, from the field names).')).toBe('openHypotheses');
    expect(where('We assume full dependence when the model is not separable.')).not.toBe('openHypotheses');
  });

  it('round from set 13: "Line N shows", "In `file.py`:", hedged questions about what to do, "next X is", tricky, apologies', () => {
    expect(where('Line 30 shows `strict = true`, which turns the check on.')).toBe('requiredEvidenceLinks');
    expect(where('In `parser.py`:')).toBe('requiredEvidenceLinks');
    expect(where("Maybe we shouldn't retry on a 404?")).toBe('unresolvedQuestions');
    expect(where('Maybe `parse` should return `None` here?')).toBe('unresolvedQuestions');
    expect(where('Or maybe it should?')).toBe('openHypotheses');
    expect(where('The next field is `timeout`.')).toBe('none');
    expect(where('The next step is to run the suite.')).toBe('nextActions');
    expect(where('Quoting paths in `make` is tricky.')).toBe('blockers');
    expect(where('The `--dry-run` flag does not trigger the upload.')).toBe('blockers');
    expect(where('I apologize for the wrong path.')).toBe('none');
    expect(where('I apologize - the test still fails on CI.')).toBe('blockers');
  });

  it('round from set 14: "Back to X:", "seems acceptable", a path as the subject of a guess, the RED state', () => {
    expect(where('Back to `parse_args`:')).toBe('nextActions');
    expect(where('Now back to the retry loop.')).toBe('nextActions');
    expect(where('This seems acceptable.')).toBe('none');
    expect(where('The file `server/routes/cart.ts` seems to be the main handler.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('It seems `lib/net/retry.ts` is where the delay is computed.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('The fix in `lib/net/retry.ts` seems like a safe change.')).not.toBe(
      'requiredEvidenceLinks',
    );
    expect(where('We have our RED state.')).toBe('none');
    expect(where('CI is red again.')).toBe('blockers');
  });

  it('round from set 15: a quoted source, a leading adverb before a guessed path, "right to question", "Now for X"', () => {
    expect(where('The PR says "Retries should back off exponentially".')).toBe('requiredEvidenceLinks');
    expect(where('The reporter said "it also fails with `--fast`", which is new.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('The traceback shows `parse_header` calling `decode`.')).toBe('requiredEvidenceLinks');
    expect(where('The issue says "the cache might be stale" - I think so too.')).toBe(
      'requiredEvidenceLinks',
    );
    // Naming code is not quoting a source.
    expect(where('The PR mentions `parse_header`.')).not.toBe('requiredEvidenceLinks');
    expect(where('Specifically `lib/net/retry.ts` seems relevant.')).toBe('requiredEvidenceLinks');
    expect(where("You're absolutely right to question this.")).toBe('none');
    expect(where('Now for the retry tests.')).toBe('nextActions');
  });

  it('round from set 16: "that\'s not quite right", "it looks like there\'s an issue", "In `path`, … seems", "Combining …"', () => {
    expect(where("Wait, that's not quite right.")).toBe('blockers');
    expect(where("It looks like there's an issue with the lock file.")).toBe('blockers');
    expect(where('It looks like the lock file is present.')).not.toBe('blockers');
    expect(where('In `lib/net/retry.ts`, the `delay` helper seems to compute the wait.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('Combining the two steps.')).toBe('nextActions');
  });

  it('reads "It ignores X" about the code as a problem, unless a plan comes with it', () => {
    expect(where('It ignores the `timeout` option entirely.')).toBe('blockers');
    expect(where('So `merge` silently ignores the second mapping.')).toBe('blockers');
    expect(where('Markdown ignores single newlines.')).toBe('none');
    expect(where('It ignores the input, so let me pass the seed instead.')).toBe('nextActions');
  });

  it('round from set 17: "Now I <verb>", "If X, <verb>", "should probably <any verb>", praise, "I saw `path`"', () => {
    expect(where('Now I rerun the failing test with the debug flag.')).toBe('nextActions');
    expect(where('Now I see what happens.')).toBe('none');
    expect(where('If the list is empty, use the default instead.')).toBe('nextActions');
    expect(where('If the cache is cold, each call takes 2,000 ms.')).toBe('none');
    expect(where('`parse_args` should probably become a method of `Runner`.')).toBe('nextActions');
    expect(where('It should probably be cached.')).toBe('openHypotheses');
    expect(where("That's a great question.")).toBe('none');
    expect(where('The generated config layout seems standard.')).toBe('none');
    expect(where('The two loaders are quite repetitive:')).toBe('blockers');
    expect(where('I saw `src/app/loader.ts` in the search results earlier.')).toBe('requiredEvidenceLinks');
    expect(where('I saw `main` earlier.')).toBe('none');
    expect(where('The issue author says: "it should not retry on 400".')).toBe('requiredEvidenceLinks');
  });

  it('round from set 18: "execute" opens a plan, "This is an issue with X", a potential issue is a guess', () => {
    expect(where('I should just execute the migration script.')).toBe('nextActions');
    expect(where('This is an issue with the release workflow.')).toBe('blockers');
    expect(where('This is an improvement over the old loader.')).toBe('none');
    expect(where('Hmm, there is a potential issue with shared mutable state.')).toBe('openHypotheses');
    expect(where('The one possible problem is if `key` is reused across tenants?')).toBe('openHypotheses');
  });

  it('round from set 19: a reference that says, a quoted comment or output, where an error shows, "should always <verb>"', () => {
    expect(where('The docstring says:')).toBe('requiredEvidenceLinks');
    expect(where('But wait, `merge` documentation says:')).toBe('requiredEvidenceLinks');
    expect(where('The PR says:')).toBe('none');
    expect(where('The output says:')).toBe('none');
    expect(where('The comment says `# keep in sync with api.ts`.')).toBe('requiredEvidenceLinks');
    expect(where('The output shows `exit 3`.')).toBe('requiredEvidenceLinks');
    expect(where('However, the error is in `lib/io/reader.py`.')).toBe('requiredEvidenceLinks');
    expect(where('The issue is in `parse_args` calling `load`.')).toBe('blockers');
    expect(where('So we should always clone the options first.')).toBe('nextActions');
    expect(where('I can amend the commit message.')).toBe('nextActions');
    expect(where('These progress bars are annoying in CI logs.')).toBe('blockers');
  });

  it('round from set 20: what a file holds, "The comment says:", "the instructions say", a missed step', () => {
    expect(where('`lib/io/reader.py` has the `Reader` class.')).toBe('requiredEvidenceLinks');
    expect(where('`src/legacy` is for the old interface.')).toBe('requiredEvidenceLinks');
    expect(where('`np.merge` has a `how` argument.')).toBe('none');
    expect(where('The comment says:')).toBe('requiredEvidenceLinks');
    expect(where('The instructions say: "Do not edit the tests".')).toBe('requiredEvidenceLinks');
    expect(where('The error happens in `lib/a.py` and `lib/b.py`.')).toBe('requiredEvidenceLinks');
    expect(where('I should have run the linter before pushing.')).toBe('blockers');
    expect(where('I should have been clearer.')).toBe('none');
  });

  it('round from set 21: a file called the relevant one, "The docstring for `f` says:", "Wait, `a/b.py` has …", praise about X', () => {
    expect(where('`test_io.py` seems like the most relevant file.')).toBe('requiredEvidenceLinks');
    expect(where('`test_io.py` seems to pass now.')).not.toBe('requiredEvidenceLinks');
    expect(where('The docstring for `parse_date` says:')).toBe('requiredEvidenceLinks');
    expect(where('Wait, `lib/io/reader.py` has another call:')).toBe('requiredEvidenceLinks');
    expect(where('Good question about setup.cfg.')).toBe('none');
    expect(where('Good question about the cache: does it expire?')).toBe('unresolvedQuestions');
  });

  it('round from set 22: verdicts that something works, "The traceback indicates:", lines roughly at', () => {
    expect(where('Everything seems to be working correctly.')).toBe('none');
    expect(where('The patch seems robust enough for this case.')).toBe('none');
    expect(where('This seems like a reasonable trade-off.')).toBe('none');
    expect(where('`merge` seems like a good candidate for the default.')).toBe('openHypotheses');
    expect(where('The traceback indicates:')).toBe('requiredEvidenceLinks');
    expect(where('The lines are roughly 120 to 140.')).toBe('requiredEvidenceLinks');
  });

  it('reads the forms found in the errors of sets 23-25: where a thing is, a guessed file, "It seems I broke X", "If I change X, it should work", a state that persists', () => {
    expect(where('So the main logic should be in `lib/core/parse.ts`.')).toBe('requiredEvidenceLinks');
    expect(where('`load` is defined in `lib/io/load.ts` and `lib/io/index.ts`.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('The bug must be in `select`.')).not.toBe('requiredEvidenceLinks');
    expect(where('`render.py` likely wraps `draw`.')).toBe('requiredEvidenceLinks');
    expect(where('It seems I introduced a type error.')).toBe('blockers');
    expect(where('It seems I removed the only caller.')).toBe('openHypotheses');
    expect(where('If I change `parse` to strip the BOM, it should work.')).toBe('nextActions');
    expect(where('The cache path is still being set at import time.')).toBe('blockers');
    expect(where('There are still no containers.')).not.toBe('blockers');
    expect(where('If the flag is still set, we skip it.')).not.toBe('blockers');
    expect(where('So `-q` is not triggering quiet mode.')).toBe('blockers');
    expect(where('This is a recurring issue that wastes CI time.')).toBe('blockers');
    expect(where("We've encountered an error regarding the lock file.")).toBe('blockers');
  });

  it('the anchored forms share one list of openers, and a code span is a path only by the pointer rules', () => {
    // Each form once had its own opener list ("So", "But wait", "Hmm", "Now", …); now any of them opens any form.
    expect(where('But wait, it ignores the timeout.')).toBe('blockers');
    expect(where('Hmm, it seems I broke the build.')).toBe('blockers');
    expect(where('However, the docstring says:')).toBe('requiredEvidenceLinks');
    expect(where('Oh, we should have pinned it.')).toBe('blockers');
    expect(where('Now, `lib/a/b.py` has the `A` class.')).toBe('requiredEvidenceLinks');
    // `xr.merge` has a dot but no file extension: code, not a file, whatever form names it.
    expect(where('The error is in `xr.merge`.')).not.toBe('requiredEvidenceLinks');
    expect(where('In `xr.merge`:')).not.toBe('requiredEvidenceLinks');
    expect(where('In `utils.py`:')).toBe('requiredEvidenceLinks');
    expect(where('The error is in `lib/io/reader.py`.')).toBe('requiredEvidenceLinks');
  });

  it('lists in OPENER_WORDS exactly the words OPENERS accepts (the first-word gates rely on it)', () => {
    const one = new RegExp(`^${OPENERS}$`, 'i');
    for (const w of OPENER_WORDS) expect(one.test(`${w}, `)).toBe(true);
    // Any word OPENERS accepts is listed: try every run of letters the regex source spells.
    const spelled = new Set(OPENERS.match(/[a-z]+/g)!.filter((w) => one.test(`${w} `)));
    spelled.add('okay');
    expect([...spelled].sort()).toEqual([...OPENER_WORDS].sort());
  });

  it('has room for every word code in the seven bits the flags give them', () => {
    // Bits 24-30 hold the code: a 128th word would spill into the sign bit and corrupt every flag test.
    expect(CODES.length).toBeLessThanOrEqual(127);
    expect(new Set(CODES).size).toBe(CODES.length);
  });

  it('plainFirst and shoutedFirst read the first word as their own scans did (property)', () => {
    // The two scans before they shared one reader of the first word.
    const lead = (raw: string) => {
      let i = 0;
      while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
      return i;
    };
    const plain = (raw: string) => {
      let i = lead(raw);
      let small = false;
      for (; i < raw.length && /[a-z]/i.test(raw[i]!); i++) if (/[a-z]/.test(raw[i]!)) small = true;
      return small && raw[i] === ' ';
    };
    const shouted = (raw: string) => {
      const s = lead(raw);
      let i = s;
      while (i < raw.length && /[A-Z]/.test(raw[i]!)) i++;
      return i - s >= 2 && !/[a-z]/i.test(raw[i] ?? '');
    };
    const text = fc.string({ unit: fc.constantFrom('G', 'E', 't', 'a', ' ', '\t', '/', '2', '_', 'é', ',') });
    fc.assert(
      fc.property(text, (raw) => {
        expect(plainFirst(raw)).toBe(plain(raw));
        expect(shoutedFirst(raw)).toBe(shouted(raw));
      }),
    );
  });

  it('reads the forms found in the errors of sets 26-28', () => {
    // What ran or was written, shown next: evidence; "shows:" / "says:" lead-ins stay as they were.
    expect(where('The output is:')).toBe('requiredEvidenceLinks');
    expect(where('The patch file I created was:')).toBe('requiredEvidenceLinks');
    expect(where('However, the previous implementation was:')).toBe('requiredEvidenceLinks');
    expect(where("My previous `sed -n '255,270p'` output was:")).toBe('requiredEvidenceLinks');
    expect(where('The example output shows:')).toBe('none');
    // A source or a search naming the file to read.
    expect(where('The PR description points to `seaborn/_core/scales.py`.')).toBe('requiredEvidenceLinks');
    expect(where('The grep results point to `requests/models.py` as the place where it is set.')).toBe(
      'requiredEvidenceLinks',
    );
    expect(where('The PR description points to `xr.merge`.')).not.toBe('requiredEvidenceLinks');
    // An alarming consequence, something missing with alarm: blockers; praise and success are not.
    expect(where('This means `}}` is commented out!')).toBe('blockers');
    expect(where("It didn't print anything!")).toBe('blockers');
    expect(where("I don't see `from . import x` in the file!")).toBe('blockers');
    expect(where('This means we are done.')).not.toBe('blockers');
    // Behind the first-word gate of the whole-line forms: an opener first, then the form.
    expect(where('So which means `x` is gone!')).toBe('blockers');
    expect(where("Wait, they didn't run at all!")).toBe('blockers');
    expect(where('Hmm, so this means the cache is stale!')).toBe('blockers');
    expect(where("Actually, there isn't a problem!")).not.toBe('blockers');
    expect(where('I definitely should not submit changes to `pyproject.toml`.')).toBe('blockers');
    // A change named by its gerund, with no verb of its own: a plan; a guess about it is not.
    expect(where('Modifying `pylint/lint/base_options.py` to set `nargs=0` for `verbose`.')).toBe(
      'nextActions',
    );
    expect(where('Removing the unused import `builtin_str` from `requests/sessions.py`.')).toBe(
      'nextActions',
    );
    expect(where('Fixing `scatterplot` might require changes in `seaborn/_oldcore.py`.')).not.toBe(
      'nextActions',
    );
    // The writer's plan with its steps next; "strip" and "specify" open plans.
    expect(where('Instead of specifying exact version numbers, we should:')).toBe('nextActions');
    expect(where('I would add these git safety improvements in two places:')).toBe('nextActions');
    expect(where('We can specify Python version requirements in pyproject.toml.')).toBe('nextActions');
    expect(where('Strip the trailing newline from the result.')).toBe('nextActions');
  });
});

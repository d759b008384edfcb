/**
 * The writer's stance (lib/snapshot/stance.ts), one rule per test, on invented sentences (none is taken
 * from the labelled sets of eval/snapshot/): a status written last, a numbered step, reported
 * questions, suggestions and criticism, a constraint, a hedged verdict or plan, a heading over a plan.
 */
import { describe, expect, it } from 'vitest';
import { stanceCategory } from '../../lib/categorise/stance';
import { CATEGORIES } from '../../lib/snapshot/index';
import { NOTE_ADVERSARIAL } from '../adversarial';
import { where } from '../snapshot/where';

const CATEGORIES_AND_NONE: string[] = [...CATEGORIES, 'none'];

describe('snapshot stance', () => {
  it('reads a status written last: done is retired, not started is still to do', () => {
    expect(where('Wire the billing webhook: Done.')).toBe('none');
    expect(where('Port the CSV exporter (done)')).toBe('none');
    expect(where('TASK-12 (Rate-limit the login form): Not Started.')).toBe('nextActions');
    expect(where('Migrate the staging database: In progress')).toBe('nextActions');
    expect(where('Purge the stale feature flags - TODO')).toBe('nextActions');
    expect(where('Backfill the audit table: pending.')).toBe('nextActions');
    expect(where('Rotate the signing keys: Blocked')).toBe('blockers');
    // A status word inside the line is no status written last.
    expect(where('Done: nothing, the queue still drops messages.')).not.toBe('nextActions');
  });

  it('reads a backlog, next, plan, remaining or pending label as work left to do', () => {
    expect(where('**Backlog:** write the importer (done), add paging, document the API.')).toBe(
      'nextActions',
    );
    // Labels whose words alone would say nothing ("the CSV exporter and the docs").
    expect(where('Remaining: the CSV exporter and the docs')).toBe('nextActions');
    expect(where('Pending: review of the retry budget')).toBe('nextActions');
    expect(where('Plan: the parser in two passes')).toBe('nextActions');
    expect(where('Next: the staging migration')).toBe('nextActions');
  });

  it('reads a numbered step with an imperative as a step, and a numbered observation as none', () => {
    expect(where('Step 3: Rename the column in the migration.')).toBe('nextActions');
    expect(where('Step 2: the loader hands the row to the cache.')).not.toBe('nextActions');
  });

  it('reads reported questions, suggestions and criticism', () => {
    expect(where('The reviewer questioned the need for a second cache layer.')).toBe('unresolvedQuestions');
    expect(where('Questioned whether the retry budget is per request.')).toBe('unresolvedQuestions');
    expect(where('The maintainer suggested splitting the parser into two passes.')).toBe('nextActions');
    expect(where('User rightly pointed out that the fixture holds only one invoice.')).toBe('blockers');
    // "I"/"we" report their own plans and doubts through other rules.
    expect(stanceCategory('I suggested a smaller batch size earlier.', () => false)).toBe(-1);
  });

  it('reads a first-person "should not" as a constraint on the plan', () => {
    expect(where('So we must NOT touch the generated files.')).toBe('blockers');
    expect(where("I shouldn't change the public signature of parse().")).toBe('blockers');
  });

  it('reads a hedged verdict: a good one closes the item, a bad one is a problem', () => {
    expect(where('So the new ordering seems fine.')).toBe('none');
    expect(where('This looks correct and complete.')).toBe('none');
    expect(where('That looks wrong.')).toBe('blockers');
    // A verdict followed by "but" is not the line's last word.
    expect(stanceCategory('This looks right, but the cache still misses.', () => false)).toBe(-1);
  });

  it('reads "should probably <verb>" as a hedged plan, not a guess', () => {
    expect(where('I should probably remove the unused import of `os`.')).toBe('nextActions');
    expect(where('The exporter should probably be slower on big files.')).not.toBe('nextActions');
  });

  it('reads "if X, Y would …" as a guessed consequence, and "if I want X, I would need to" as a plan', () => {
    expect(where('If the queue is empty at shutdown, the flush would return early.')).toBe('openHypotheses');
    expect(stanceCategory('If I want paging, I would need to change the cursor.', () => false)).toBe(-1);
    expect(stanceCategory('If the cache is cold, we would lose the first write.', () => false)).toBe(0);
    expect(stanceCategory('If the cache is cold, we would have to warm it first.', () => false)).toBe(-1);
  });

  it('reads a heading over a plan as a step, unless it states the obstacle', () => {
    expect(where("Here's what we should do:")).toBe('nextActions');
    expect(where('To get the exporter working again there are two options:')).toBe('nextActions');
    expect(where('From the branch and the notes, this is what was still in progress:')).toBe('nextActions');
    expect(stanceCategory("Since the linter won't pass, we have two options:", () => false)).toBe(-1);
  });

  it('reads "I/we (just) need/want <thing>" as a plan, and its negation as none of it', () => {
    expect(where('So we just need the tenant id from the session.')).toBe('nextActions');
    expect(where('We want NO retries on a 4xx.')).toBe('nextActions');
    expect(where("We don't need the tenant id here.")).not.toBe('nextActions');
  });

  it('reads a condition asked about as a guess to check, and "whether …?" as a question', () => {
    expect(where('If `flush()` runs twice, does the counter reset?')).toBe('unresolvedQuestions');
    expect(where('If `normalize` drops the trailing slash?')).toBe('openHypotheses');
    expect(where('Whether the cache key includes the locale?')).toBe('unresolvedQuestions');
  });

  it('reads "insert", "append" and "prepend" as imperatives', () => {
    expect(where('Insert a guard clause before the loop.')).toBe('nextActions');
    expect(where('Append the region to the cache key.')).toBe('nextActions');
  });

  it('reads a trial step ("If I change it to:") and a bold title with a dash before an imperative as steps', () => {
    expect(where('If I rewrite the loop as:')).toBe('nextActions');
    expect(where('If we go with the second layout...')).toBe('nextActions');
    expect(where('**BillingPage** - wire the retry banner, drop the old modal')).toBe('nextActions');
    // A condition about what is, not a step tried: no colon or ellipsis, or no first person.
    expect(stanceCategory('If I had known, I would have waited.', () => false)).not.toBe(2);
    expect(stanceCategory('If the loop runs twice:', () => false)).toBe(-1);
  });
});

describe('snapshot stance on adversarial text', () => {
  it('stays linear: no rule backtracks over a long entry (a regression: "If a, a, … would need to" took seconds)', () => {
    // 500,000 characters each: a quadratic rule would run for minutes, past the test's timeout; the
    // linear rules take milliseconds. The time ratio of two sizes is bench/adversarial.bench.ts's.
    for (const [, make] of NOTE_ADVERSARIAL) {
      const value = make(500_000);
      expect(CATEGORIES_AND_NONE).toContain(where(value));
    }
  });
});

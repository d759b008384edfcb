/**
 * Shared by the snapshot's conformance cases (snapshot.ts, snapshot-reduction.ts): one iteration's
 * notes, and one note per stance rule with the category it gives.
 */
import type { SnapshotInput } from 'rearview/snapshot';

/** One iteration's notes, tasks and previous snapshot, with non-ASCII text. */
export const input: SnapshotInput = {
  objective: 'Fix the failing retry tests — café ☕ edition',
  entries: [
    {
      scope: 'notes',
      key: 'a',
      value: 'CI is red: 3 retry tests failing in test/retry.test.ts',
      sourceIteration: 2,
    },
    { scope: 'notes', key: 'b', value: 'no error found in lib/llm/anthropic.ts', sourceIteration: 3 },
    { scope: 'notes', key: 'c', value: 'the flaky websocket test is fixed', sourceIteration: 3 },
    { scope: 'notes', key: 'd', value: 'maybe the jitter is not pinned to 0', sourceIteration: 4 },
    { scope: 'notes', key: 'e', value: 'Should 529 be retried like 503?', sourceIteration: 4 },
    { scope: 'notes', key: 'f', value: 'Run the retry suite with the jitter pinned', sourceIteration: 5 },
    {
      scope: 'notes',
      key: 'g',
      value: '3 retry tests failing in test/retry.test.ts again',
      sourceIteration: 5,
    },
    { scope: 'notes', key: 'h', value: 'Zürich 🚀 deploy blocked by quota', sourceIteration: 5 },
  ],
  tasks: [{ id: 'T1', title: 'Release 0.2', status: 'blocked' }],
  previous: {
    currentObjective: 'Fix the failing retry tests',
    openHypotheses: [],
    blockers: ['websocket test flaky'],
    nextActions: [],
    unresolvedQuestions: [],
    requiredEvidenceLinks: [],
  },
};

/** One note per rule that decides ahead of the words (lib/snapshot/stance.ts, lead.ts), with the category it gives. */
export const STANCE: [string, string][] = [
  ['Wire the billing webhook — done.', 'none'],
  ['TASK-12 (Rate-limit the login form): Not Started.', 'nextActions'],
  ['Rotate the signing keys: Blocked', 'blockers'],
  ['Step 3: Rename the column in the migration.', 'nextActions'],
  ['**BillingPage** – wire the retry banner', 'nextActions'],
  ['The reviewer questioned the need for a second cache layer.', 'unresolvedQuestions'],
  ['The maintainer suggested splitting the parser into two passes.', 'nextActions'],
  ['User rightly pointed out that the fixture holds one invoice.', 'blockers'],
  ['So we must NOT touch the generated files.', 'blockers'],
  ['I shouldn’t change the public signature of parse().', 'blockers'],
  ['So the new ordering seems fine.', 'none'],
  ['That looks wrong.', 'blockers'],
  ['I should probably remove the unused import.', 'nextActions'],
  ['If the queue is empty at shutdown, the flush would return early.', 'openHypotheses'],
  ['If I rewrite the loop as:', 'nextActions'],
  ["Here's what we should do:", 'nextActions'],
  ['So we just need the tenant id from the session.', 'nextActions'],
  ['If `normalize` drops the trailing slash?', 'openHypotheses'],
  ['That was an oversight in the retry policy.', 'blockers'],
  ['Ça marche: Done.', 'none'],
  ['The patch file I created was:', 'requiredEvidenceLinks'],
  ['The PR description points to `src/retry/policy.ts`.', 'requiredEvidenceLinks'],
  ['This means `}}` is commented out!', 'blockers'],
  ["It didn't print anything!", 'blockers'],
  ['Modifying `src/retry/policy.ts` to cap the jitter.', 'nextActions'],
  ['Instead of pinning exact versions, we should:', 'nextActions'],
  // A problem word after "on" or "handles" names a case the code copes with (lib/categorise/named.ts).
  ['All LLM paths fail-safe on missing key, 26 regression tests pass.', 'none'],
  ['The loader fails on a missing key.', 'blockers'],
  // Listed without the list marker and box of its message.
  ['- [ ] Add the lockfile to the backend image', 'nextActions'],
];

/**
 * Shared by the snapshot tests of the deterministic categorizer and of the reflection flow: the entry
 * builder, a realistic iteration, a valid model reply and a scripted client.
 */
import type { LlmClient } from '../../lib/llm/index';
import type { MemoryEntry, SnapshotInput } from '../../lib/snapshot/index';

export const e = (value: string, sourceIteration = 1, scope = 'notes', key = 'k'): MemoryEntry => ({
  scope,
  key,
  value,
  sourceIteration,
});

/** A realistic iteration: enough entries for a deterministic snapshot well above 400 tokens. */
export function bigInput(): SnapshotInput {
  const entries: MemoryEntry[] = [
    e('CI is red on main since the retry refactor', 3),
    e('3 tests failing in test/retry.test.ts after the refactor', 4),
    e('test suite broken: retry backoff assertions fail', 4),
    e('no error found in lib/llm/anthropic.ts', 4),
    e('the flaky websocket test is fixed', 5),
    e('maybe the jitter is not pinned to 0 in the failing tests', 5),
    e('perhaps retry-after is read in seconds instead of milliseconds', 5),
    e('Should the 529 status be retried like 503?', 5),
    e('Run the retry suite with the jitter pinned to 0', 6),
    e('Update the retry docs in lib/llm/README.md', 6),
    e('Check the retry-after header parsing in lib/llm/retry.ts', 6),
  ];
  const more = [
    'Investigate backoff assertion in test/retry.test.ts: expected 2000 ms, got 333 ms',
    'Compare the jitter formula with the AWS architecture blog post',
    'Bisect the commits between v0.1.3 and main to find the regression',
    'Add a unit test for retry-after-ms parsing with fractional values',
    'Log every attempt number and computed delay while debugging',
    'Ask the reviewer whether exponential growth should cap at 30 seconds',
    'Replace setTimeout with the injectable sleep in withRetries',
    'Document the retry classification table for 408, 409, 429 and 5xx statuses',
    'Verify the SDK retries stay disabled per request so attempts never multiply',
    'probably the mock server returns retry-after in seconds while the client expects milliseconds',
    'Measure how long the full retry suite takes on the 2-core runner',
    'Read the Anthropic SDK changelog for changes to timeout semantics',
    'Pin fast-check seeds for the property tests that generate status sequences',
    'Rename retryAfterMs to retryAfterHintMs for clarity in the public API',
    'Is the 60 second per-attempt timeout too generous for reflection calls?',
    'Try the browser project once the node suite passes, Chromium may order timers differently',
    'Suspect the abortable sleep leaks a listener when the signal fires during backoff',
    'Profile memory of the fixture replayer with ten thousand recorded completions',
    'What happens when the server sends both retry-after and retry-after-ms headers?',
    'Write a changelog entry describing the new backoff defaults and jitter',
  ];
  for (const m of more) entries.push(e(m, 6));
  return {
    objective: 'Fix the failing retry tests after the retry refactor',
    entries,
    tasks: [
      { id: 'T1', title: 'Pin jitter in retry tests', status: 'in_progress' },
      { id: 'T2', title: 'Release 0.2', status: 'blocked' },
    ],
    previous: {
      currentObjective: 'Fix the failing retry tests',
      openHypotheses: [],
      blockers: ['websocket test flaky', 'CI is red on main since the retry refactor'],
      nextActions: ['Write the release notes'],
      unresolvedQuestions: [],
      requiredEvidenceLinks: [],
    },
    iteration: 6,
  };
}

export const GOOD_REPLY = {
  current_objective: 'Fix the failing retry tests after the retry refactor',
  open_hypotheses: ['maybe the jitter is not pinned to 0 in the failing tests'],
  blockers: [
    {
      text: 'CI red: 3 tests failing in test/retry.test.ts, backoff assertions fail',
      sources: ['m1', 'm2', 'm3'],
    },
    'Release 0.2',
  ],
  next_actions: ['Run the retry suite with the jitter pinned to 0', 'Pin jitter in retry tests'],
  unresolved_questions: ['Should the 529 status be retried like 503?'],
  required_evidence_links: ['test/retry.test.ts', 'lib/llm/retry.ts'],
  dropped: [
    { value: 'no error found in lib/llm/anthropic.ts', reason: 'resolved' },
    { value: 'the flaky websocket test is fixed', reason: 'resolved' },
  ],
};

/** A client that answers every request with `text` and counts calls. */
export function scripted(
  text: string,
  usage = { inputTokens: 1500, outputTokens: 200 },
): LlmClient & { calls: number } {
  const c = {
    calls: 0,
    async complete() {
      c.calls++;
      return { text, usage, latencyMs: 5, model: 'scripted' };
    },
  };
  return c;
}

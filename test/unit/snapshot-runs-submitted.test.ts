/**
 * An agent run that ended by submitting its work has nothing left to do: `entriesFromSteps` given the
 * run's outcome reads its thoughts as `done` (no next action, no open question; a blocker or a guess
 * stays). Invented runs.
 */
import { describe, expect, it } from 'vitest';
import { deterministicSnapshot, entriesFromSteps, snapshotInputFrom } from '../../lib/snapshot/index';
import type { Outcome, Step } from '../../lib/transcript/index';

const step = (index: number, thought: string, extra: Partial<Step> = {}): Step => ({
  index,
  thought,
  action: 'ls',
  observation: 'ok',
  source: { index },
  ...extra,
});
const RUN: Step[] = [
  step(0, 'I will reproduce the bug first.'),
  step(1, 'The test still fails with KeyError in the parser.'),
  step(2, 'Maybe the cache key ignores the locale.'),
  step(3, 'I should double check the edge cases. What if the list is empty?'),
];
const snapshot = (outcome?: Outcome) =>
  deterministicSnapshot(snapshotInputFrom('fix it', entriesFromSteps(RUN, outcome)));

describe('entriesFromSteps with the run outcome', () => {
  it('lists no next action or question of a run that submitted; its problems and guesses stay', () => {
    const open = snapshot();
    expect(open.nextActions.length).toBeGreaterThan(0);
    expect(open.unresolvedQuestions).toEqual(['What if the list is empty?']);
    const done = snapshot({ status: 'submitted', submission: 'diff --git a/x b/x', failed: false });
    expect(done.nextActions).toEqual([]);
    expect(done.unresolvedQuestions).toEqual([]);
    expect(done.blockers).toEqual(open.blockers);
    expect(done.openHypotheses).toEqual(open.openHypotheses);
    expect(done.blockers.length + done.openHypotheses.length).toBeGreaterThan(0);
    // mini-swe-agent's `Submitted` is the same status.
    expect(snapshot({ status: 'Submitted', submission: 'diff', failed: false }).nextActions).toEqual([]);
  });

  it('reads a run stopped on a limit, or one with an empty submission, as before', () => {
    const open = snapshot();
    for (const outcome of [
      { status: 'exit_cost', submission: 'diff', failed: true },
      { status: 'submitted (exit_context)', submission: 'diff', failed: true },
      { status: 'submitted', submission: '  ', failed: true },
      { status: 'submitted', failed: true },
    ] as Outcome[])
      expect(snapshot(outcome), JSON.stringify(outcome)).toEqual(open);
  });
});

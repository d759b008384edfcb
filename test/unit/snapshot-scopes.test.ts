/**
 * The scopes that say what a session shows is over (lib/snapshot/scopes.ts): which lists each keeps an
 * entry out of, the trace's reason, and the reflection prompt's line — written out here, apart from the
 * table, so that a change to the table shows as a failing row.
 */
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  reflectedSnapshotPrompt,
} from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';

/** One sentence the categoriser reads as each list's. */
const SAMPLES = {
  blockers: 'The build fails with a missing module error.',
  nextActions: 'Run the migration on staging next.',
  unresolvedQuestions: 'Should the export include archived rows?',
  openHypotheses: 'The cache might be stale.',
} as const;
type List = keyof typeof SAMPLES;
const LISTS = Object.keys(SAMPLES) as List[];

/** Per scope: the lists it keeps an entry out of, and the reason the trace gives. */
const EXPECTED: Record<string, { drops: List[]; reason?: 'done' | 'resolved' }> = {
  notes: { drops: [] },
  assistant: { drops: [] },
  user: { drops: [] },
  done: { drops: ['nextActions', 'unresolvedQuestions'], reason: 'done' },
  answered: { drops: ['nextActions', 'unresolvedQuestions', 'openHypotheses'], reason: 'done' },
  replied: { drops: ['unresolvedQuestions'], reason: 'done' },
  delivered: { drops: ['nextActions', 'unresolvedQuestions'], reason: 'done' },
  superseded: { drops: ['blockers', 'nextActions', 'unresolvedQuestions', 'openHypotheses'] },
  fixed: { drops: ['blockers', 'nextActions', 'unresolvedQuestions', 'openHypotheses'], reason: 'resolved' },
};
/** A scope whose reason differs by list: the problem no longer stands, the rest is over. */
const REASON_OF: Record<string, Partial<Record<List, 'done' | 'resolved'>>> = {
  superseded: {
    blockers: 'resolved',
    nextActions: 'done',
    unresolvedQuestions: 'done',
    openHypotheses: 'done',
  },
};

const entry = (scope: string, list: List) => ({
  scope,
  key: `${scope}.${list}`,
  value: SAMPLES[list],
  sourceIteration: 1,
});

describe('scopes that keep an entry out of the lists', () => {
  it('reads each sample as its own list under a plain scope', () => {
    for (const list of LISTS)
      expect(deterministicSnapshot({ objective: 'Ship it', entries: [entry('notes', list)] })[list]).toEqual([
        SAMPLES[list],
      ]);
  });

  it('keeps an entry of each scope out of exactly its lists, with its reason', () => {
    for (const [scope, want] of Object.entries(EXPECTED))
      for (const list of LISTS) {
        const t = deterministicSnapshotWithTrace({ objective: 'Ship it', entries: [entry(scope, list)] });
        const dropped = want.drops.includes(list);
        expect(t.snapshot[list], `${scope} / ${list}`).toEqual(dropped ? [] : [SAMPLES[list]]);
        if (dropped)
          expect(t.dropped, `${scope} / ${list}`).toContainEqual(
            expect.objectContaining({ text: SAMPLES[list], reason: want.reason ?? REASON_OF[scope]?.[list] }),
          );
      }
  });

  it('tells the reflection what each scope present means, in one fixed order, and nothing for others', () => {
    const lineOf = (scope: string) =>
      reflectedSnapshotPrompt({ objective: 'Ship it', entries: [entry(scope, 'nextActions')] })
        .split('\n')
        .filter((l) => l.includes(`An entry of scope "${scope}"`));
    for (const scope of ['done', 'answered', 'replied', 'delivered', 'superseded', 'fixed'])
      expect(lineOf(scope), scope).toHaveLength(1);
    for (const scope of ['notes', 'assistant', 'user']) expect(lineOf(scope), scope).toEqual([]);
    const all = reflectedSnapshotPrompt({
      objective: 'Ship it',
      entries: ['fixed', 'superseded', 'delivered', 'replied', 'answered', 'done'].map((s) =>
        entry(s, 'blockers'),
      ),
    });
    const at = ['done', 'answered', 'replied', 'delivered', 'superseded', 'fixed'].map((s) =>
      all.indexOf(`An entry of scope "${s}"`),
    );
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

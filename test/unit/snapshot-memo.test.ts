/**
 * `createSnapshotMemo`: a snapshot given a memo reads only the texts it has not met, and must say
 * exactly what the same snapshot says without one — call after call, whatever the earlier calls
 * left in the memo (their candidates, links, terms, a vocabulary with other ids), and across a start
 * over past `maxTexts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRearviewError } from '../../lib/core/index';
import {
  computeTrajectoryReduction,
  createSnapshotMemo,
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  type MemoryEntry,
  type SnapshotInput,
  SnapshotMemo,
  type SnapshotOptions,
  warmSnapshotMemo,
} from '../../lib/snapshot/index';

/** Real agent notes (set 29, mini-swe-agent), read by strangers' agents, not written for this test. */
const REAL = readFileSync(join(import.meta.dirname, '../../eval/snapshot/sets/29/entries.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => (JSON.parse(l) as { text: string }).text);

const SCOPES = ['notes', 'notes', 'notes', 'blockers', 'evidence', 'next', 'questions', 'hypotheses'];
const PIECES = [
  'CI is red',
  'the retry test is fixed',
  'maybe the cache',
  'Run the suite',
  'Should we retry?',
  'see lib/retry.ts:42',
  'https://ci.example.com/run/7',
  'Zürich ☕',
  "isn't",
  'no error found in',
  'src/a.py',
  '  ',
  '',
];

const text = fc.oneof(
  fc.constantFrom(...REAL),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 5 }).map((p) => p.join(' ')),
  fc.string({ maxLength: 40 }),
);
const entry = fc.record({
  scope: fc.constantFrom(...SCOPES),
  key: fc.string({ maxLength: 3 }),
  value: text,
  sourceIteration: fc.integer({ min: -3, max: 40 }),
});
const call = fc.record({
  objective: fc.oneof(fc.constantFrom(...REAL.slice(0, 5)), text),
  entries: fc.array(entry, { maxLength: 30 }),
  tasks: fc.array(
    fc.record({
      id: fc.string({ maxLength: 3 }),
      title: text,
      status: fc.constantFrom('open', 'blocked', 'done'),
    }),
    { maxLength: 3 },
  ),
  options: fc.record(
    {
      maxCategoryItems: fc.integer({ min: 0, max: 30 }),
      maxTextLength: fc.integer({ min: 1, max: 300 }),
      nearDuplicateThreshold: fc.double({ min: 0, max: 1, noNaN: true }),
    },
    { requiredKeys: [] },
  ),
  // Carry the previous call's entries over (a memory that grows), or start afresh.
  carry: fc.boolean(),
});

function sameWithAndWithout(
  input: SnapshotInput,
  options: SnapshotOptions,
  memo: SnapshotMemo,
): ReturnType<typeof deterministicSnapshotWithTrace> {
  const plain = deterministicSnapshotWithTrace(input, options);
  const memoed = deterministicSnapshotWithTrace(input, { ...options, memo });
  expect(JSON.stringify(memoed)).toBe(JSON.stringify(plain));
  expect(JSON.stringify(deterministicSnapshot(input, { ...options, memo }))).toBe(
    JSON.stringify(plain.snapshot),
  );
  return memoed;
}

/** One note per text, in order. */
const notesOf = (texts: readonly string[]): MemoryEntry[] =>
  texts.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i }));

/** `f` throws a ValidationError (`validation_failed`) whose message names `key`. */
function expectValidationError(f: () => unknown, key: string): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(isRearviewError(err) && err.code).toBe('validation_failed');
  expect((err as Error).message).toContain(key);
}

describe('createSnapshotMemo', () => {
  it('property: a memo changes nothing, call after call, across a start over', () => {
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(0, 7, 60, Number.POSITIVE_INFINITY),
        (calls, maxTexts) => {
          const memo = createSnapshotMemo({ maxTexts });
          let entries: MemoryEntry[] = [];
          for (const c of calls) {
            entries = c.carry ? [...entries, ...c.entries] : c.entries;
            sameWithAndWithout({ objective: c.objective, entries, tasks: c.tasks }, c.options, memo);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('real notes: a memory that grows, shrinks and changes objective reads the same', () => {
    const memo = createSnapshotMemo();
    let entries: MemoryEntry[] = [];
    for (let call = 0; call < 8; call++) {
      const fresh = REAL.slice(call * 15, call * 15 + 15).map((value, i) => ({
        scope: SCOPES[(call + i) % SCOPES.length]!,
        key: `c${call}e${i}`,
        value,
        sourceIteration: call,
      }));
      entries =
        call === 5 ? entries.filter((_, i) => i % 3 !== 0) : [...entries, ...fresh, ...fresh.slice(0, 3)];
      const objective = call < 4 ? 'Fix the separability matrix for nested models' : REAL[call]!;
      const trace = sameWithAndWithout({ objective, entries }, {}, memo);
      expect(trace.kept.length).toBeGreaterThan(0);
    }
    // Every distinct entry text met is kept (the default maxTexts is far above), plus links.
    expect(memo.size).toBeGreaterThanOrEqual(new Set(REAL.slice(0, 120)).size);
  });

  it('keeps each distinct text once, starts over past maxTexts, and clear() empties it', () => {
    const memo = createSnapshotMemo({ maxTexts: 3 });
    const input = (values: string[]): SnapshotInput => ({
      objective: 'x',
      entries: values.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i })),
    });
    deterministicSnapshot(input(['CI is red', 'CI is red', 'Run the suite']), { memo });
    expect(memo.size).toBe(2);
    deterministicSnapshot(input(['CI is red', 'Should we retry?', 'CI is red in lib/a.ts']), { memo });
    // Two new entry texts and one link text make 5, over 3: dropped once the build is done.
    expect(memo.size).toBe(0);
    deterministicSnapshot(input(['maybe the cache', 'CI is red']), { memo });
    expect(memo.size).toBe(2);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(deterministicSnapshot(input(['CI is red']), { memo }).blockers).toEqual(['CI is red']);
  });

  it('rejects a bad maxTexts or a memo it did not make with a ValidationError naming the key', () => {
    for (const bad of [-1, 1.5, Number.NaN, '10' as unknown as number])
      expectValidationError(() => createSnapshotMemo({ maxTexts: bad }), 'maxTexts');
    expect(createSnapshotMemo({ maxTexts: 0 }).maxTexts).toBe(0);
    expect(new SnapshotMemo().maxTexts).toBe(50_000);
    expectValidationError(
      () => deterministicSnapshot({ objective: '', entries: [] }, { memo: {} as SnapshotMemo }),
      'memo',
    );
  });

  it('computeTrajectoryReduction takes a memo too, and resolves with invalid_input for a bad one', async () => {
    const input: SnapshotInput = {
      objective: 'Fix the build',
      entries: notesOf(REAL.slice(0, 40)),
    };
    const memo = createSnapshotMemo();
    const plain = await computeTrajectoryReduction(input);
    const memoed = await computeTrajectoryReduction(input, { memo });
    expect(memoed.snapshot).toEqual(plain.snapshot);
    expect(memo.size).toBeGreaterThan(0);
    const bad = await computeTrajectoryReduction(input, { memo: {} as SnapshotMemo });
    expect(bad.diagnostics.reflectionSkippedReason).toBe('invalid_input');
  });

  it('property: warmed in slices of any size, the memo gives the same snapshots, and runs out', () => {
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 8 }),
        (calls, limits) => {
          const memo = createSnapshotMemo();
          let entries: MemoryEntry[] = [];
          for (const c of calls) {
            entries = c.carry ? [...entries, ...c.entries] : c.entries;
            const input = { objective: c.objective, entries, tasks: c.tasks };
            let left = Number.POSITIVE_INFINITY;
            for (const limit of limits) {
              const before = memo.size;
              const now = warmSnapshotMemo(memo, input, { limit });
              expect(memo.size - before).toBeLessThanOrEqual(limit);
              expect(now).toBeLessThanOrEqual(left);
              left = now;
              sameWithAndWithout(input, c.options, memo);
            }
            expect(warmSnapshotMemo(memo, input)).toBe(0);
            sameWithAndWithout(input, c.options, memo);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('warming reads real notes in slices; the snapshot after it reads no entry text anew', () => {
    const entries = Array.from({ length: 600 }, (_, i) => ({
      scope: 'notes',
      key: `k${i}`,
      value: i < REAL.length ? REAL[i]! : `${REAL[i % REAL.length]} (again ${i})`,
      sourceIteration: i,
    }));
    expect(new Set(entries.map((e) => e.value)).size).toBe(600);
    const input = { objective: 'Fix the separability matrix', entries };
    const memo = createSnapshotMemo();
    const lefts = [1, 2, 3].map(() => warmSnapshotMemo(memo, input, { limit: 200 }));
    expect(lefts).toEqual([400, 200, 0]);
    expect(memo.analyses.size).toBe(600);
    const read = [...memo.analyses.values()];
    sameWithAndWithout(input, {}, memo);
    // No entry text was read again: the same analyses, and no other.
    expect([...memo.analyses.values()].every((a, i) => a === read[i])).toBe(true);
  });

  it('warming stops at maxTexts, and rejects what it cannot use', () => {
    const memo = createSnapshotMemo({ maxTexts: 5 });
    const input = {
      objective: '',
      entries: notesOf(REAL.slice(0, 20)),
    };
    expect(warmSnapshotMemo(memo, input)).toBe(0);
    expect(memo.size).toBe(5);
    expectValidationError(() => warmSnapshotMemo({} as SnapshotMemo, input), 'memo');
    expectValidationError(
      () => warmSnapshotMemo(memo, { objective: '', entries: 'x' as never }),
      'input.entries',
    );
    expectValidationError(() => warmSnapshotMemo(memo, input, { limit: -1 }), 'limit');
    expectValidationError(() => warmSnapshotMemo(memo, input, { limit: 0.5 }), 'limit');
  });
});

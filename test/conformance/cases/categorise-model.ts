import { NOTE_CLASSES, noteBuckets, noteLogits, notesReader } from 'rearview/categorise-model';
import { CATEGORIES, createSnapshotMemo, deterministicSnapshot } from 'rearview/snapshot';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

/** Agent notes of every kind, with non-ASCII text, contractions, paths and a long line. */
const NOTES = [
  'The issue might be with how I am running it.',
  'Observed error (Anthropic API): prompt is too long: 207255 tokens > 200000 maximum',
  'API Error: Request was aborted.',
  'All subtasks complete: 26 regression tests pass.',
  'Should we rename it to with_common_list_options?',
  "Let's run the retry suite with the jitter pinned.",
  'See lib/retry.ts:42 and https://example.com/issue/7',
  'Zürich 🚀 deploy blocked by quota — café ☕',
  'Hypothesis C: the test might be accidentally working because of how paths are constructed.',
  "I don't know why the cache isn't invalidated.",
  `${'very long note '.repeat(80)}end`,
];

export const categoriseModelCases: ConformanceCase[] = [
  {
    // FNV-1a bucket hashing (Math.imul), lower-casing, the rules as features and integer sums: the
    // same buckets, logits and snapshot in every runtime.
    name: 'categorise-model/notes reader',
    run() {
      const logits = NOTES.map(noteLogits);
      check(
        logits.every((z) => z.length === NOTE_CLASSES.length && z.every(Number.isInteger)),
        'integer logits, one per class',
      );
      const input = {
        objective: 'Fix the failing retry tests',
        entries: NOTES.map((value, i) => ({ scope: 'notes', key: `n${i}`, value, sourceIteration: i })),
      };
      const snapshot = deterministicSnapshot(input, { categorise: notesReader });
      const got = NOTES.map((t) => notesReader(t));
      NOTES.forEach((t, i) => {
        const c = got[i];
        if (c !== undefined && c !== 'requiredEvidenceLinks' && t.length < 260)
          check(snapshot[c].includes(t), `"${t}" under ${c}`);
      });
      const memo = createSnapshotMemo();
      deterministicSnapshot(input, { memo });
      checkEqual(
        deterministicSnapshot(input, { categorise: notesReader, memo }),
        snapshot,
        'a memo changes nothing',
      );
      check(
        CATEGORIES.every((c) => snapshot[c].length <= NOTES.length),
        'every category holds at most the notes',
      );
      // A person's words get the rules' answer: the same snapshot as without the reader.
      const person = {
        ...input,
        entries: input.entries.map((e) => ({ ...e, role: 'user' as const })),
      };
      const personal = deterministicSnapshot(person, { categorise: notesReader });
      checkEqual(personal, deterministicSnapshot(person), "a person's words are the rules'");
      const byRole = NOTES.map((t) => notesReader(t, 'user'));
      return { logits, got, byRole, snapshot, personal, buckets: NOTES.map((t) => noteBuckets(t)) };
    },
  },
];

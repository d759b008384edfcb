/**
 * `npx tsx eval/snapshot/notes-reader-lists.ts` (issue 39): how long the deterministic snapshot's lists
 * are over every transcript of `../shared/data`, sorted by the rules and by the notes reader of
 * `rearview/categorise-model` (which gets each entry's role from the snapshot, so a person's words keep
 * the rules' answer). A count, not a quality figure: which items are right is read blind in
 * `sets/pending/` (README, "The notes reader's lists").
 *
 * Result (6 December 2026, after the refit on the expected-resolution rule): 467 transcripts; blockers
 * rules 447, reader 430; questions 30 / 25; hypotheses 43 / 31; next actions 213 / 212. With the
 * weights of 5 December (notes-reader-2026-12-05.json), at e9f54f9: blockers 448 / 416, hypotheses
 * 43 / 33, next actions 213 / 213.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { notesReader } from '../../lib/categorise-model/index.js';
import { deterministicSnapshot, readSnapshotSource } from '../../lib/snapshot/index.js';

const DATA = join(import.meta.dirname, '../../../shared/data');
const LISTS = ['blockers', 'unresolvedQuestions', 'openHypotheses', 'nextActions'] as const;

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });

const counts = Object.fromEntries(LISTS.map((l) => [l, { rules: 0, reader: 0 }]));
let transcripts = 0;
for (const file of walk(DATA).filter((f) => !f.endsWith('README.md'))) {
  let src: ReturnType<typeof readSnapshotSource>;
  try {
    src = readSnapshotSource(readFileSync(file, 'utf8'));
  } catch {
    continue; // not a session a snapshot reads (README, SOURCES.jsonl, …)
  }
  if (src.kind !== 'transcript') continue;
  transcripts++;
  const rules = deterministicSnapshot(src.input);
  const reader = deterministicSnapshot(src.input, { categorise: notesReader });
  for (const l of LISTS) {
    counts[l]!.rules += rules[l].length;
    counts[l]!.reader += reader[l].length;
  }
}
console.log(`${transcripts} transcripts`);
for (const l of LISTS) console.log(`${l}: rules ${counts[l]!.rules}, notes reader ${counts[l]!.reader}`);

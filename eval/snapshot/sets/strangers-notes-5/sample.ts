/**
 * Draws `strangers-notes-5`: a fifth draw of agent prose, from the 22 `strangers-final` authors only
 * (issue 39), for the rules written after `strangers-notes-4` was scored (from its misses, set 3's
 * and the pool's): entries no rule was chosen on, labelled blind by the rules of `eval/snapshot/LABELLING.md`,
 * scored once. Same files, prose filter and sentence splitter as `../strangers-notes/sample.ts`; same
 * author split (`splitOf`).
 *
 * Deterministic: each kept-apart author's sentences, in session order, cut into POS_BINS stretches;
 * PER_AUTHOR per author round-robin over them, smallest FNV-1a hash of `strangers-notes-5|file|pos`
 * first, skipping texts of the first four sets. No text is stored: rows carry `sha256`.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/strangers-notes-5/sample.ts`.
 */
import { resolve } from 'node:path';
import {
  drawMore,
  loadStrangersNotes,
  NOTES_ENTRIES,
  type NoteRow,
  notesByAuthor,
  splitOf,
  writeDraw,
} from '../strangers-notes/sample';
import { NOTES2_ENTRIES } from '../strangers-notes-2/sample';
import { NOTES3_ENTRIES } from '../strangers-notes-3/sample';
import { NOTES4_ENTRIES } from '../strangers-notes-4/sample';

export const NOTES5_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const PER_AUTHOR = 16;
const POS_BINS = 4;

export function drawNotes5(taken: ReadonlySet<string>): NoteRow[] {
  const kept = new Map([...notesByAuthor()].filter(([author]) => splitOf(author) === 'strangers-final'));
  return drawMore(kept, {
    prefix: 'notes5-',
    salt: 'strangers-notes-5',
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    taken,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const earlier = [NOTES_ENTRIES, NOTES2_ENTRIES, NOTES3_ENTRIES, NOTES4_ENTRIES].flatMap((p) =>
    loadStrangersNotes(p),
  );
  writeDraw(NOTES5_ENTRIES, drawNotes5(new Set(earlier.map((r) => r.text))));
}

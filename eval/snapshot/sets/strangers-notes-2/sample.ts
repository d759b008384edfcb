/**
 * Draws `strangers-notes-2`: a second, larger draw of agent prose by the same 64 authors as
 * `strangers-notes` (issue 39), labelled blind by the rules of `eval/snapshot/LABELLING.md`, so the
 * notes reader can *train* on strangers' prose (folds grouped by author) while the first set's figures
 * stay as they were. Same files, prose filter and sentence splitter as `../strangers-notes/sample.ts`
 * (imported, not copied); same author split (`splitOf`), so `strangers-final` authors stay apart.
 *
 * Deterministic, no randomness: each author's prose sentences, in session order, are cut into
 * POS_BINS equal stretches; PER_AUTHOR sentences per author are taken round-robin over the stretches,
 * smallest FNV-1a hash of `strangers-notes-2|file|pos` first (a new salt, so not the first set's
 * order), skipping texts taken by the first set or earlier in this one. No `cue` stratum: this set is
 * for training and for a rate no keyword cue chose. No text is stored: rows carry `sha256`;
 * `loadStrangersNotes(NOTES2_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/strangers-notes-2/sample.ts`.
 */
import { resolve } from 'node:path';
import {
  drawMore,
  loadStrangersNotes,
  NOTES_ENTRIES,
  type NoteRow,
  notesByAuthor,
  writeDraw,
} from '../strangers-notes/sample';

export const NOTES2_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const PER_AUTHOR = 12;
const POS_BINS = 6;

export function drawNotes2(taken: ReadonlySet<string>): NoteRow[] {
  return drawMore(notesByAuthor(), {
    prefix: 'notes2-',
    salt: 'strangers-notes-2',
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    taken,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const taken = new Set(loadStrangersNotes(NOTES_ENTRIES).map((r) => r.text));
  writeDraw(NOTES2_ENTRIES, drawNotes2(taken));
}

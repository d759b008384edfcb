/**
 * Draws `strangers-notes-3`: a third draw of agent prose, from the 22 `strangers-final` authors only
 * (issue 39): entries no rule, weight or threshold was chosen on, labelled blind by the rules of
 * `eval/snapshot/LABELLING.md`, and scored once, for the rules written after the second set was scored.
 * Same files, prose filter and sentence splitter as `../strangers-notes/sample.ts` (imported, not
 * copied); same author split (`splitOf`).
 *
 * Deterministic, no randomness: each author's prose sentences, in session order, are cut into
 * POS_BINS equal stretches; PER_AUTHOR sentences per author are taken round-robin over the stretches,
 * smallest FNV-1a hash of `strangers-notes-3|file|pos` first (a new salt), skipping texts taken by the
 * first two sets or earlier in this one. No text is stored: rows carry `sha256`;
 * `loadStrangersNotes(NOTES3_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/strangers-notes-3/sample.ts`.
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

export const NOTES3_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const PER_AUTHOR = 16;
const POS_BINS = 4;

export function drawNotes3(taken: ReadonlySet<string>): NoteRow[] {
  const kept = new Map([...notesByAuthor()].filter(([author]) => splitOf(author) === 'strangers-final'));
  return drawMore(kept, {
    prefix: 'notes3-',
    salt: 'strangers-notes-3',
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    taken,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const earlier = [...loadStrangersNotes(NOTES_ENTRIES), ...loadStrangersNotes(NOTES2_ENTRIES)];
  writeDraw(NOTES3_ENTRIES, drawNotes3(new Set(earlier.map((r) => r.text))));
}

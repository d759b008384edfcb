/**
 * Draws `unseen-specstory-notes` (issue 39): the agent's prose of SpecStory exports (Cursor, Copilot,
 * Claude Code sessions) from public repositories whose authors are in no folder of `../shared/data`
 * (eval/heuristic/sets/unseen-specstory/README.md tells how the files were chosen and copied). Drawn as
 * `../unseen-notes/` is (the prose filter and sentence splitter of `../strangers-notes/sample.ts`, 8
 * sentences per author round-robin over 4 stretches of the session), with its own salt. No text is
 * stored: rows carry `sha256`, and `loadUnseenSpecstoryNotes(dir)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/unseen-specstory-notes/sample.ts --dir <folder>`
 * (`<folder>` holds `specstory/<owner>__<name>.md`).
 */
import { resolve } from 'node:path';
import { drawMore, type NoteRow, writeDraw } from '../strangers-notes/sample';
import { loadUnseenNotes, unseenNotesByAuthor } from '../unseen-notes/sample';

export const UNSEEN_SPECSTORY_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

/** The rows with their texts, re-read from the copies under `dir` and checked by SHA-256; throws when a copy is missing. */
export const loadUnseenSpecstoryNotes = (dir: string): (NoteRow & { text: string })[] =>
  loadUnseenNotes(dir, UNSEEN_SPECSTORY_NOTES_ENTRIES);

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--dir');
  const dir = at > 0 ? process.argv[at + 1] : undefined;
  if (!dir) throw new Error('usage: sample.ts --dir <folder holding specstory/<owner>__<name>.md>');
  const rows = drawMore(unseenNotesByAuthor(dir, 'specstory'), {
    prefix: 'unseen-ss-',
    salt: 'unseen-specstory-notes',
    perAuthor: 8,
    bins: 4,
    taken: new Set(),
  }).map((r) => ({ ...r, split: 'unseen' as NoteRow['split'] }));
  writeDraw(UNSEEN_SPECSTORY_NOTES_ENTRIES, rows);
}

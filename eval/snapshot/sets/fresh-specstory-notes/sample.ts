/**
 * Draws `fresh-specstory-notes` (issue 39): the agent's prose of SpecStory exports from public
 * repositories whose owners are in no folder of `../shared/data`, not in `../unseen-notes/` and not in
 * `../unseen-specstory-notes/` (README.md tells how the files were chosen and copied). Drawn as those
 * sets are (the prose filter and sentence splitter of `../strangers-notes/sample.ts`, 8 sentences per
 * author round-robin over 4 stretches of the session), with its own salt. No text is stored: rows
 * carry `sha256`, and `loadUnseenNotes(dir, FRESH_SPECSTORY_NOTES_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/fresh-specstory-notes/sample.ts --dir <folder>`
 * (`<folder>` holds `specstory/<owner>__<name>.md`).
 */
import { resolve } from 'node:path';
import { writeDraw } from '../strangers-notes/sample';
import { drawUnseen } from '../unseen-notes/sample';

export const FRESH_SPECSTORY_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--dir');
  const dir = at > 0 ? process.argv[at + 1] : undefined;
  if (!dir) throw new Error('usage: sample.ts --dir <folder holding specstory/<owner>__<name>.md>');
  writeDraw(
    FRESH_SPECSTORY_NOTES_ENTRIES,
    drawUnseen(dir, 'specstory', 'fresh-specstory-notes', 'fresh-ss-'),
  );
}

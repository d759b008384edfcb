/**
 * Draws `unseen-specstory-notes` (issue 39): the agent's prose of SpecStory exports (Cursor, Copilot,
 * Claude Code sessions) from public repositories whose authors are in no folder of `../shared/data`
 * (eval/heuristic/sets/unseen-specstory/README.md tells how the files were chosen and copied). Drawn as
 * `../unseen-notes/` is (the prose filter and sentence splitter of `../strangers-notes/sample.ts`, 8
 * sentences per author round-robin over 4 stretches of the session), with its own salt. No text is
 * stored: rows carry `sha256`, and `loadUnseenNotes(dir, UNSEEN_SPECSTORY_NOTES_ENTRIES)` of
 * `../unseen-notes/sample.ts` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/unseen-specstory-notes/sample.ts --dir <folder>`
 * (`<folder>` holds `specstory/<owner>__<name>.md`).
 */
import { resolve } from 'node:path';
import { writeDraw } from '../strangers-notes/sample';
import { drawUnseen } from '../unseen-notes/sample';

export const UNSEEN_SPECSTORY_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--dir');
  const dir = at > 0 ? process.argv[at + 1] : undefined;
  if (!dir) throw new Error('usage: sample.ts --dir <folder holding specstory/<owner>__<name>.md>');
  writeDraw(
    UNSEEN_SPECSTORY_NOTES_ENTRIES,
    drawUnseen(dir, 'specstory', 'unseen-specstory-notes', 'unseen-ss-'),
  );
}

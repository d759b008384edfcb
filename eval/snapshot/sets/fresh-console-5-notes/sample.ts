/**
 * Draws `fresh-console-5-notes` (issue 39): the agent's prose (`⏺` / `●` lines) of the Claude Code console
 * transcripts of `eval/heuristic/sets/fresh-console-5/` (authors in no folder of `../shared/data` and in no
 * earlier set; that README tells how the copies were found and copied). Drawn as `../fresh-gemini-notes/`
 * is (`../strangers-notes/copies.ts`: 8 sentences per author round-robin over 4 stretches), with its own
 * salt, from the console reader's joined prose (the terminal's wraps joined). No text is stored: rows
 * carry `sha256`, and `loadUnseenNotes(dir, FRESH_CONSOLE_5_NOTES_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/fresh-console-5-notes/sample.ts --dir
 * <folder>` (`<folder>` holds `console/<id>.md`); `--sheets <out>` also writes the readers' sheets
 * (each entry with up to three sentences before and two after it in its reply) outside the repository.
 */
import { resolve } from 'node:path';
import { copiesDraw, runCopiesDraw } from '../strangers-notes/copies';

export const FRESH_CONSOLE_5_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  runCopiesDraw(FRESH_CONSOLE_5_NOTES_ENTRIES, copiesDraw('fresh-console-5', 'console', 'fresh-cn5-'));

/**
 * Draws `fresh-console-notes` (issue 39): the agent's prose of the Claude Code console transcripts of
 * `eval/heuristic/sets/fresh-console/` (45 authors in no folder of `../shared/data`; that README tells
 * how the 60 copies were found and copied). Drawn as `../unseen-notes/` is (the prose filter and
 * sentence splitter of `../strangers-notes/sample.ts`, 8 sentences per author round-robin over 4
 * stretches of the author's sessions), with its own salt; an author is the one that set's
 * `files.jsonl` names (one home folder over several copies). No text is stored: rows carry `sha256`,
 * and `loadUnseenNotes(dir, FRESH_CONSOLE_NOTES_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/fresh-console-notes/sample.ts --dir
 * <folder>` (`<folder>` holds `console/<id>.md`); `--sheets <out>` also writes the readers' sheets
 * (each entry with up to three sentences before and two after it in its reply) outside the repository.
 */
import { resolve } from 'node:path';
import { copiesDraw, runCopiesDraw } from '../strangers-notes/copies';

export const FRESH_CONSOLE_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  runCopiesDraw(FRESH_CONSOLE_NOTES_ENTRIES, copiesDraw('fresh-console', 'console', 'fresh-cn-'));

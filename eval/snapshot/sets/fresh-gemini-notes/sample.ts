/**
 * Draws `fresh-gemini-notes` (issue 39): the agent's prose (`✦` replies) of the Gemini CLI console transcripts of
 * `eval/heuristic/sets/fresh-gemini/` (19 authors in no folder of `../shared/data`; that README tells
 * how the 32 copies were found and copied). Drawn as `../unseen-notes/` is (the prose filter and
 * sentence splitter of `../strangers-notes/sample.ts`, 8 sentences per author round-robin over 4
 * stretches of the author's sessions), with its own salt; an author is the one that set's
 * `files.jsonl` names (one home folder over several copies). No text is stored: rows carry `sha256`,
 * and `loadUnseenNotes(dir, FRESH_GEMINI_NOTES_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/fresh-gemini-notes/sample.ts --dir
 * <folder>` (`<folder>` holds `gemini/<id>.md`); `--sheets <out>` also writes the readers' sheets
 * (each entry with up to three sentences before and two after it in its reply) outside the repository.
 */
import { resolve } from 'node:path';
import { copiesDraw, runCopiesDraw } from '../strangers-notes/copies';

export const FRESH_GEMINI_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  runCopiesDraw(FRESH_GEMINI_NOTES_ENTRIES, copiesDraw('fresh-gemini', 'gemini', 'fresh-gn-'));

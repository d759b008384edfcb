/**
 * Draws `strangers-notes-4` (issue 39): the kept-apart authors' sentences, none of an earlier set's,
 * as `../strangers-notes/apart.ts` defines the later draws. No text is stored: rows carry `sha256`.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/strangers-notes-4/sample.ts`.
 */
import { resolve } from 'node:path';
import { drawApart, entriesOf } from '../strangers-notes/apart';
import { writeDraw } from '../strangers-notes/sample';

export const NOTES4_ENTRIES = entriesOf(4);

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  writeDraw(NOTES4_ENTRIES, drawApart(4));

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
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { drawMore, type NoteRaw, type NoteRow, notesOf, writeDraw } from '../strangers-notes/sample';
import { writeSheets } from '../strangers-notes/sheets';

export const FRESH_CONSOLE_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const COPIES = resolve(import.meta.dirname, '../../../heuristic/sets/fresh-console/files.jsonl');

/** Every author's prose sentences under `dir/console`, in file and session order. */
export function consoleNotesByAuthor(dir: string): Map<string, NoteRaw[]> {
  const byAuthor = new Map<string, NoteRaw[]>();
  const copies = readFileSync(COPIES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { file: string; author: string })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
  for (const c of copies) {
    const notes = notesOf(`console/${c.file}`, c.author, dir);
    if (notes.length > 0) byAuthor.set(c.author, [...(byAuthor.get(c.author) ?? []), ...notes]);
  }
  return byAuthor;
}

/** The draw: 8 sentences per author over 4 stretches, smallest `fnv1a32('fresh-console-notes|' + file + '|' + pos)` first. */
export const drawConsole = (dir: string): NoteRow[] =>
  drawMore(consoleNotesByAuthor(dir), {
    prefix: 'fresh-cn-',
    salt: 'fresh-console-notes',
    perAuthor: 8,
    bins: 4,
    taken: new Set(),
  }).map((r) => ({ ...r, split: 'unseen' as NoteRow['split'] }));

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const dir = arg('--dir');
  if (!dir) throw new Error('usage: sample.ts --dir <folder holding console/<id>.md> [--sheets <out>]');
  const rows = drawConsole(dir);
  writeDraw(FRESH_CONSOLE_NOTES_ENTRIES, rows);
  const sheets = arg('--sheets');
  if (sheets) writeSheets(sheets, rows, consoleNotesByAuthor(dir), 3);
}

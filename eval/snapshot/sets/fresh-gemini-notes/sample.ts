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
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { drawMore, type NoteRaw, type NoteRow, notesOf, writeDraw } from '../strangers-notes/sample';
import { writeSheets } from '../strangers-notes/sheets';

export const FRESH_GEMINI_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const COPIES = resolve(import.meta.dirname, '../../../heuristic/sets/fresh-gemini/files.jsonl');

/** Every author's prose sentences under `dir/gemini`, in file and session order. */
export function geminiNotesByAuthor(dir: string): Map<string, NoteRaw[]> {
  const byAuthor = new Map<string, NoteRaw[]>();
  const copies = readFileSync(COPIES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { file: string; author: string })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
  for (const c of copies) {
    const notes = notesOf(`gemini/${c.file}`, c.author, dir);
    if (notes.length > 0) byAuthor.set(c.author, [...(byAuthor.get(c.author) ?? []), ...notes]);
  }
  return byAuthor;
}

/** The draw: 8 sentences per author over 4 stretches, smallest `fnv1a32('fresh-gemini-notes|' + file + '|' + pos)` first. */
export const drawGemini = (dir: string): NoteRow[] =>
  drawMore(geminiNotesByAuthor(dir), {
    prefix: 'fresh-gn-',
    salt: 'fresh-gemini-notes',
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
  if (!dir) throw new Error('usage: sample.ts --dir <folder holding gemini/<id>.md> [--sheets <out>]');
  const rows = drawGemini(dir);
  writeDraw(FRESH_GEMINI_NOTES_ENTRIES, rows);
  const sheets = arg('--sheets');
  if (sheets) writeSheets(sheets, rows, geminiNotesByAuthor(dir), 3);
}

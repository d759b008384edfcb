/**
 * Draws `unseen-notes` (issue 39): the agent's prose of aider histories from public repositories whose
 * authors are in no folder of `../shared/data` (sets/unseen/README.md in eval/heuristic tells how the
 * files were chosen and copied). Same prose filter and sentence splitter as `../strangers-notes/sample.ts`
 * (imported). Each author's sentences in session order are cut into 4 stretches; 8 per author are taken
 * round-robin over them, smallest `fnv1a32('unseen-notes|' + file + '|' + pos)` first. No text is stored:
 * rows carry `sha256`, and `loadUnseenNotes(dir)` re-reads and checks them.
 *
 * The copies are not in the repository (they state no licence): pass their folder, the one holding
 * `aider/<owner>__<name>.md`. Run once to (re)write entries.jsonl:
 * `npx tsx eval/snapshot/sets/unseen-notes/sample.ts --dir <folder>`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  drawMore,
  loadStrangersNotes,
  type NoteRaw,
  type NoteRow,
  notesOf,
  writeDraw,
} from '../strangers-notes/sample';

export const UNSEEN_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const PER_AUTHOR = 8;
const POS_BINS = 4;

/** The author of a copied history: its file name is `<folder>/<owner>__<name>.md`. */
export const authorOfCopy = (file: string): string =>
  file
    .replace(/^(?:aider|specstory)\//, '')
    .replace(/\.md$/, '')
    .replace('__', '/');

/**
 * Every author's prose sentences under `dir/<folder>` (`aider` for this set, `specstory` for
 * `../unseen-specstory-notes/`), in session order.
 */
export function unseenNotesByAuthor(
  dir: string,
  folder: 'aider' | 'specstory' = 'aider',
): Map<string, NoteRaw[]> {
  const byAuthor = new Map<string, NoteRaw[]>();
  for (const name of readdirSync(join(dir, folder))
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const file = `${folder}/${name}`;
    const notes = notesOf(file, authorOfCopy(file), dir);
    if (notes.length > 0) byAuthor.set(authorOfCopy(file), notes);
  }
  return byAuthor;
}

/** The rows with their texts, re-read from the copies under `dir` and checked by SHA-256; throws when a copy is missing. */
export function loadUnseenNotes(
  dir: string,
  path: string = UNSEEN_NOTES_ENTRIES,
  missing?: { count: number },
): (NoteRow & { text: string })[] {
  const rows = loadStrangersNotes(path, dir, missing !== undefined);
  const all = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
  // Copies rebuilt from the index (`missing` given) may lack a sentence: counted, never guessed.
  if (missing) missing.count = all - rows.length;
  else if (rows.length !== all)
    throw new Error(`${all - rows.length} unseen-notes rows have no copy under ${dir}`);
  return rows;
}

/**
 * The draw of an unseen notes set from the copies under `dir/<folder>`: 8 sentences per author
 * round-robin over 4 stretches, smallest `fnv1a32(salt|file|pos)` first, ids `<prefix>NNN`.
 */
export const drawUnseen = (
  dir: string,
  folder: 'aider' | 'specstory',
  salt: string,
  prefix: string,
): NoteRow[] =>
  drawMore(unseenNotesByAuthor(dir, folder), {
    prefix,
    salt,
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    taken: new Set(),
  }).map((r) => ({ ...r, split: 'unseen' as NoteRow['split'] }));

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--dir');
  const dir = at > 0 ? process.argv[at + 1] : undefined;
  if (!dir) throw new Error('usage: sample.ts --dir <folder holding aider/<owner>__<name>.md>');
  writeDraw(UNSEEN_NOTES_ENTRIES, drawUnseen(dir, 'aider', 'unseen-notes', 'unseen-'));
}

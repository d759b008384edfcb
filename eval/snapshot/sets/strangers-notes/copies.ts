/**
 * The draw of a notes set from copies of transcripts kept outside the repository and named by their
 * index id (`fresh-console-notes`, `fresh-gemini-notes`): each author's prose sentences, the author
 * being the one the copies' manifest (`files.jsonl` of the people's-turn set) names, drawn as
 * `../unseen-notes/` is (8 per author over 4 stretches of the author's sentences).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { drawMore, type NoteRaw, type NoteRow, notesOf, writeDraw } from './sample';
import { writeSheets } from './sheets';

/** Where a set's copies are and how its rows are named. */
export interface CopiesDraw {
  /** The folder of `--dir` holding the copies (`console`, `gemini`). */
  folder: string;
  /** The copies' manifest: one `{ file, author }` per line. */
  manifest: string;
  /** Row id prefix (`fresh-cn-`) and hash salt (the set's name). */
  prefix: string;
  salt: string;
}

/**
 * The draw of the notes set of the people's-turn set `turns` (eval/heuristic/sets/<turns>/): its copies
 * under `folder`, their authors from that set's `files.jsonl`, rows named `<prefix>NNN`, salted with the
 * notes set's name (`<turns>-notes`).
 */
export const copiesDraw = (turns: string, folder: string, prefix: string): CopiesDraw => ({
  folder,
  manifest: resolve(import.meta.dirname, `../../../heuristic/sets/${turns}/files.jsonl`),
  prefix,
  salt: `${turns}-notes`,
});

/** Every author's prose sentences under `dir/<folder>`, in file and session order. */
export function copiesNotesByAuthor(dir: string, draw: CopiesDraw): Map<string, NoteRaw[]> {
  const byAuthor = new Map<string, NoteRaw[]>();
  const copies = readFileSync(draw.manifest, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { file: string; author: string })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
  for (const c of copies) {
    const notes = notesOf(`${draw.folder}/${c.file}`, c.author, dir);
    if (notes.length > 0) byAuthor.set(c.author, [...(byAuthor.get(c.author) ?? []), ...notes]);
  }
  return byAuthor;
}

/** The draw: 8 sentences per author over 4 stretches, smallest `fnv1a32(salt + '|' + file + '|' + pos)` first. */
export const drawCopies = (dir: string, draw: CopiesDraw): NoteRow[] =>
  drawMore(copiesNotesByAuthor(dir, draw), {
    prefix: draw.prefix,
    salt: draw.salt,
    perAuthor: 8,
    bins: 4,
    taken: new Set(),
  }).map((r) => ({ ...r, split: 'unseen' as NoteRow['split'] }));

/** `sample.ts --dir <folder> [--sheets <out>]`: writes the set's entries (and the readers' sheets). */
export function runCopiesDraw(entries: string, draw: CopiesDraw): void {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const dir = arg('--dir');
  if (!dir)
    throw new Error(`usage: sample.ts --dir <folder holding ${draw.folder}/<id>.md> [--sheets <out>]`);
  const rows = drawCopies(dir, draw);
  writeDraw(entries, rows);
  const sheets = arg('--sheets');
  if (sheets) writeSheets(sheets, rows, copiesNotesByAuthor(dir, draw), 3);
}

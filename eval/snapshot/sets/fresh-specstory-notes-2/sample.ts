/**
 * Draws `fresh-specstory-notes-2` (issue 39): the second draw of the `fresh-specstory` authors, from the
 * copies extended by the index's second page (README.md tells how), of the sentences the first pages
 * did not hold (so none can be in `../fresh-specstory-notes/`). Drawn as that set is (8 sentences per
 * author round-robin over 4 stretches of what is new, smallest `fnv1a32('fresh-specstory-notes-2|' +
 * file + '|' + pos)` first). No text is stored: rows carry `sha256`, and
 * `loadUnseenNotes(dir, FRESH_SPECSTORY_NOTES_2_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl:
 * `npx tsx eval/snapshot/sets/fresh-specstory-notes-2/sample.ts --dir <extended> --first <first pages>`
 * (each folder holds `specstory/<owner>__<name>.md`).
 */
import { resolve } from 'node:path';
import { drawMore, writeDraw } from '../strangers-notes/sample';
import { unseenNotesByAuthor } from '../unseen-notes/sample';

export const FRESH_SPECSTORY_NOTES_2_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const dir = arg('--dir');
  const first = arg('--first');
  if (!dir || !first) throw new Error('usage: sample.ts --dir <extended copies> --first <first pages>');
  // Every sentence of the first pages is taken: the draw reads only what the second pages added.
  const taken = new Set([...unseenNotesByAuthor(first, 'specstory').values()].flat().map((r) => r.text));
  const added = new Map(
    [...unseenNotesByAuthor(dir, 'specstory')]
      .map(([author, list]) => [author, list.filter((r) => !taken.has(r.text))] as const)
      .filter(([, list]) => list.length > 0),
  );
  const rows = drawMore(added, {
    prefix: 'fresh2-ss-',
    salt: 'fresh-specstory-notes-2',
    perAuthor: 8,
    bins: 4,
    taken: new Set(),
  }).map((r) => ({ ...r, split: 'unseen' as const }));
  writeDraw(FRESH_SPECSTORY_NOTES_2_ENTRIES, rows);
}

/**
 * The later draws of the `strangers-final` authors' agent prose (`strangers-notes-3`, `-4`, `-5`), each
 * kept apart from the rules it was scored against (issue 39): one definition of the draw, a folder per
 * set. Draw `n` takes 16 sentences per author over 4 stretches of their sessions, salt
 * `strangers-notes-<n>`, skipping every text of the sets before it (see {@link drawMore}).
 *
 * Run a set's `sample.ts` to (re)write its entries.jsonl.
 */
import { resolve } from 'node:path';
import { drawMore, loadStrangersNotes, type NoteRow, notesByAuthor, splitOf } from './sample';

const SETS = resolve(import.meta.dirname, '..');

/** The later draws, by number: each set's folder is `strangers-notes-<n>`. */
export const APART_SETS = [3, 4, 5] as const;

/** The entries.jsonl of set `n` (1 is `strangers-notes` itself). */
export const entriesOf = (n: number): string =>
  resolve(SETS, n === 1 ? 'strangers-notes' : `strangers-notes-${n}`, 'entries.jsonl');

/** Draw `n` (3 or later) of the kept-apart authors, none of the texts of sets 1 … n-1. */
export function drawApart(n: number): NoteRow[] {
  const taken = new Set<string>();
  for (let k = 1; k < n; k++) for (const r of loadStrangersNotes(entriesOf(k))) taken.add(r.text);
  const kept = new Map([...notesByAuthor()].filter(([author]) => splitOf(author) === 'strangers-final'));
  return drawMore(kept, {
    prefix: `notes${n}-`,
    salt: `strangers-notes-${n}`,
    perAuthor: 16,
    bins: 4,
    taken,
  });
}

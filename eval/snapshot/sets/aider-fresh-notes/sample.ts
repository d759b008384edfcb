/**
 * Draws `aider-fresh-notes` (issue 39): sentences of the aider agent's replies in the four aider
 * histories of ../shared/data that no notes set (numbered, strangers', ShareGPT, aider-apart, foreign,
 * fresh or unseen) ever drew a sentence from — the held-out set for the question "does labelling a
 * source's notes lift the learned notes reader there?" (`aider-apart-notes` trains, this set scores).
 * Read as today's aider reader reads a history (a reasoning model's thoughts are not reply). Same prose
 * filter, sentence splitter and positional draw as `../aider-apart-notes/sample.ts`, own salt.
 *
 * Deterministic: `npx tsx eval/snapshot/sets/aider-fresh-notes/sample.ts` (re)writes entries.jsonl.
 */
import { resolve } from 'node:path';
import { DATA } from '../../sample';
import {
  drawPositional,
  type NoteRaw,
  type NoteRow,
  noteRow,
  notesOf,
  writeDraw,
} from '../strangers-notes/sample';

export const AIDER_FRESH_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
/** The aider histories no notes set drew from when this set was drawn (the unit test holds every other set to it). */
export const AIDER_FRESH_FILES: readonly string[] = [
  'aider/Ahmedrali+rfp_response_platform.md',
  'aider/BjornNordblom+pocketflow-text2sql-gui.md',
  'aider/BoozeLee+ai-development-framework-1.md',
  'aider/lim6112j+aider_excel.md',
];
const PER_AUTHOR = 60;
const POS_BINS = 4;

export function drawAiderFresh(root: string = DATA): NoteRow[] {
  const byAuthor = new Map<string, NoteRaw[]>();
  for (const file of AIDER_FRESH_FILES) {
    const author = file.slice('aider/'.length).replace(/\.md$/, '');
    const notes = notesOf(file, author, root);
    if (notes.length) byAuthor.set(author, notes);
  }
  const picked = drawPositional(byAuthor, {
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    salt: 'aider-fresh-notes',
    seen: new Set(),
  });
  return picked.map(({ r, bin }, j) => ({
    ...noteRow(`af-${String(j + 1).padStart(3, '0')}`, r, bin),
    split: 'unseen' as const,
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  writeDraw(AIDER_FRESH_ENTRIES, drawAiderFresh());

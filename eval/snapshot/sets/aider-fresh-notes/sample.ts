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
import { drawAiderReplies } from '../aider-apart-notes/sample';
import { type NoteRow, writeDraw } from '../strangers-notes/sample';

export const AIDER_FRESH_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
/** The aider histories no notes set drew from when this set was drawn (the unit test holds every other set to it). */
export const AIDER_FRESH_FILES: readonly string[] = [
  'aider/Ahmedrali+rfp_response_platform.md',
  'aider/BjornNordblom+pocketflow-text2sql-gui.md',
  'aider/BoozeLee+ai-development-framework-1.md',
  'aider/lim6112j+aider_excel.md',
];

/** The draw, read as today's aider reader reads a history. */
export const drawAiderFresh = (root: string = DATA): NoteRow[] =>
  drawAiderReplies(AIDER_FRESH_FILES, { salt: 'aider-fresh-notes', prefix: 'af-' }, root);

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  writeDraw(AIDER_FRESH_ENTRIES, drawAiderFresh());

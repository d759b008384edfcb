/**
 * Draws `sharegpt-notes` (issue 39): sentences of ChatGPT's replies in the 300 ShareGPT conversation
 * segments of ../shared/data/sharegpt, a source no categoriser rule, weight or threshold was written
 * from (the older sets left it out as "not memory-like agent output"; a web chat UI that embeds
 * rearview reads exactly this kind of conversation). Same prose filter and sentence splitter as
 * `../strangers-notes/sample.ts` (imported); the group is the conversation (its id before the segment
 * number: 295 groups in 300 files), the closest thing ShareGPT has to an author.
 *
 * Deterministic, no randomness: one `pos` sentence per group (smallest FNV-1a hash of
 * `sharegpt-notes|file|pos`), groups in name order; then a `cue` stratum of CUE_GROUPS groups (smallest
 * `fnv1a32('sharegpt-notes-cue#' + group)` first among groups with one), each giving its untaken
 * sentence holding a question or hedge cue with the smallest hash: questions and guesses are rare in
 * replies, so they get a chance. Score `pos` alone for a rate a keyword reader cannot be flattered on.
 * No text is stored: rows carry `sha256`; `loadStrangersNotes(SHAREGPT_ENTRIES)` re-reads and checks
 * them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/sharegpt-notes/sample.ts`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fnv1a32 } from '../../../../lib/core/index.js';
import { DATA } from '../../sample';
import {
  drawPositional,
  type NoteRaw,
  type NoteRow,
  noteRow,
  notesOf,
  writeDraw,
} from '../strangers-notes/sample';

export const SHAREGPT_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const FOLDER = 'sharegpt/conversations';
const CUE_GROUPS = 50;
/**
 * The `cue` stratum's chooser: the English part of strangers-notes' `CUE` (ShareGPT's replies are
 * nearly all English). Kept apart because the stored draw was made with it: the full pattern picks
 * other sentences (the draw test says so).
 */
const CUE =
  /[?]\s*$|\b(?:might|may|maybe|perhaps|probably|likely|possibly|seems?|suspect|guess|not sure|unclear|wonder\w*|could be|presumably|appears? to)\b/i;

/** Every reply sentence, keyed by conversation (file name before `_<segment>.json`), each in file order. */
export function sharegptNotes(root: string = DATA): Map<string, NoteRaw[]> {
  const byGroup = new Map<string, NoteRaw[]>();
  const dir = join(root, FOLDER);
  if (!existsSync(dir)) return byGroup;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const group = name.replace(/_\d+\.json$/, '');
    const notes = notesOf(`${FOLDER}/${name}`, group, root);
    byGroup.set(group, [...(byGroup.get(group) ?? []), ...notes]);
  }
  return byGroup;
}

export function drawSharegpt(): NoteRow[] {
  const byGroup = sharegptNotes();
  const seen = new Set<string>();
  const picked = drawPositional(byGroup, { perAuthor: 1, bins: 1, salt: 'sharegpt-notes', seen });
  const cueGroups = [...byGroup.keys()].sort(
    (a, b) => fnv1a32(`sharegpt-notes-cue#${a}`) - fnv1a32(`sharegpt-notes-cue#${b}`) || (a < b ? -1 : 1),
  );
  let taken = 0;
  for (const group of cueGroups) {
    if (taken === CUE_GROUPS) break;
    const c = byGroup
      .get(group)!
      .filter((r) => CUE.test(r.text) && !seen.has(r.text))
      .sort(
        (x, y) =>
          fnv1a32(`sharegpt-notes-cue|${x.file}|${x.pos}`) - fnv1a32(`sharegpt-notes-cue|${y.file}|${y.pos}`),
      )[0];
    if (!c) continue;
    seen.add(c.text);
    picked.push({ r: c, bin: -1 });
    taken++;
  }
  return picked.map(({ r, bin }, j) => ({
    ...noteRow(`sg-${String(j + 1).padStart(3, '0')}`, r, bin),
    stratum: bin < 0 ? 'cue' : 'pos',
    split: 'unseen' as const,
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  writeDraw(SHAREGPT_ENTRIES, drawSharegpt());

/**
 * Draws `strangers-notes-2`: a second, larger draw of agent prose by the same 64 authors as
 * `strangers-notes` (issue 39), labelled blind by the rules of `eval/snapshot/LABELLING.md`, so the
 * notes reader can *train* on strangers' prose (folds grouped by author) while the first set's figures
 * stay as they were. Same files, prose filter and sentence splitter as `../strangers-notes/sample.ts`
 * (imported, not copied); same author split (`splitOf`), so `strangers-final` authors stay apart.
 *
 * Deterministic, no randomness: each author's prose sentences, in session order, are cut into
 * POS_BINS equal stretches; PER_AUTHOR sentences per author are taken round-robin over the stretches,
 * smallest FNV-1a hash of `strangers-notes-2|file|pos` first (a new salt, so not the first set's
 * order), skipping texts taken by the first set or earlier in this one. No `cue` stratum: this set is
 * for training and for a rate no keyword cue chose. No text is stored: rows carry `sha256`;
 * `loadStrangersNotes(NOTES2_ENTRIES)` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/strangers-notes-2/sample.ts`.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fnv1a32 } from '../../../../lib/core/index.js';
import { sha256Hex } from '../../sample-more';
import {
  allNotes,
  loadStrangersNotes,
  NOTES_ENTRIES,
  type NoteRaw,
  type NoteRow,
  splitOf,
} from '../strangers-notes/sample';

export const NOTES2_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const PER_AUTHOR = 12;
const POS_BINS = 6;

export function drawNotes2(taken: ReadonlySet<string>): NoteRow[] {
  const byAuthor = new Map<string, NoteRaw[]>();
  for (const r of allNotes()) {
    const list = byAuthor.get(r.author) ?? [];
    list.push(r);
    byAuthor.set(r.author, list);
  }
  const seen = new Set(taken);
  const picked: { r: NoteRaw; bin: number }[] = [];
  for (const author of [...byAuthor.keys()].sort()) {
    const list = byAuthor.get(author)!;
    const bins: { r: NoteRaw; i: number; h: number }[][] = Array.from({ length: POS_BINS }, () => []);
    list.forEach((r, i) => {
      bins[Math.min(POS_BINS - 1, Math.floor((i * POS_BINS) / list.length))]!.push({
        r,
        i,
        h: fnv1a32(`strangers-notes-2|${r.file}|${r.pos}`),
      });
    });
    for (const b of bins) b.sort((x, y) => x.h - y.h || x.i - y.i);
    const chosen: { r: NoteRaw; i: number; bin: number }[] = [];
    const cursor = bins.map(() => 0);
    for (let round = 0; chosen.length < PER_AUTHOR && round < list.length; round++) {
      for (let b = 0; b < POS_BINS && chosen.length < PER_AUTHOR; b++) {
        while (cursor[b]! < bins[b]!.length) {
          const c = bins[b]![cursor[b]!++]!;
          if (seen.has(c.r.text)) continue;
          seen.add(c.r.text);
          chosen.push({ r: c.r, i: c.i, bin: b });
          break;
        }
      }
    }
    chosen.sort((a, b) => a.i - b.i);
    for (const c of chosen) picked.push({ r: c.r, bin: c.bin });
  }
  return picked.map(({ r, bin }, j) => ({
    id: `notes2-${String(j + 1).padStart(3, '0')}`,
    kind: r.kind,
    stratum: `pos-${bin + 1}`,
    author: r.author,
    split: splitOf(r.author),
    file: r.file,
    pos: r.pos,
    sha256: sha256Hex(r.text),
    textFrom: 'data',
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const taken = new Set(loadStrangersNotes(NOTES_ENTRIES).map((r) => r.text));
  const rows = drawNotes2(taken);
  writeFileSync(NOTES2_ENTRIES, `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${NOTES2_ENTRIES}\n`);
}

/**
 * Set 30: every reply sentence of the three aider histories that no earlier set sampled,
 * `AspireOne+laura-backend`, `BrunoAguiar-A+Poketibiazero` and `rjohnson318+aider-terraform-test-envt`.
 * Their authors' sessions chose no rule: set 2 drew aider replies from the other 16 repositories, so
 * `aider-reply` is a tune kind, but these three are strangers to it. A sentence whose text an earlier
 * set holds (many aider lines recur: "Here are the *SEARCH/REPLACE* blocks:") is left out, as is a
 * repeat within the set. Aider files may not be copied into the project: rows keep `sha256` and
 * `textFrom: "data"` (sample-more.ts re-reads them). Ids `set30-001` … in source order.
 * Run once to (re)write eval/snapshot/sets/30/entries.jsonl: `npx tsx eval/snapshot/sample-aider.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENTRIES, type SampledEntry } from './sample';
import { aiderReplies, loadMoreEntries, type MoreRow, sha256Hex, Taken } from './sample-more';
import { loadReportSet, reportSetPath } from './sample-report';

/** The aider histories no set before 30 drew from. */
export const UNTOUCHED_AIDER = [
  'aider/AspireOne+laura-backend.md',
  'aider/BrunoAguiar-A+Poketibiazero.md',
  'aider/rjohnson318+aider-terraform-test-envt.md',
];

/** The set this draws. */
export const AIDER_SET = 30;

/** Draws all rows of set 30. */
export function drawAiderSet(): MoreRow[] {
  const taken = new Taken();
  for (const l of readFileSync(ENTRIES, 'utf8').split('\n'))
    if (l.trim() !== '') taken.add(JSON.parse(l) as SampledEntry);
  for (const e of loadMoreEntries()) {
    // The three histories must really be untouched: no earlier row comes from them.
    if (UNTOUCHED_AIDER.includes(e.file)) throw new Error(`${e.id} comes from ${e.file}`);
    taken.add(e);
  }
  for (let k = 3; k < AIDER_SET; k++) for (const e of loadReportSet(k)) taken.add(e);
  let n = 0;
  const rows: MoreRow[] = [];
  for (const r of aiderReplies()) {
    if (!UNTOUCHED_AIDER.includes(r.file) || taken.has(r)) continue;
    taken.add(r);
    rows.push({
      id: `set${AIDER_SET}-${String(++n).padStart(3, '0')}`,
      kind: r.kind,
      stratum: 'untouched-authors',
      file: r.file,
      pos: r.pos,
      sha256: sha256Hex(r.text),
      textFrom: 'data',
    });
  }
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = drawAiderSet();
  writeFileSync(reportSetPath(AIDER_SET), `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${reportSetPath(AIDER_SET)}\n`);
}

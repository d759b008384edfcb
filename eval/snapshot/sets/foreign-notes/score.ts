/**
 * `npx tsx eval/snapshot/sets/foreign-notes/score.ts [--apart] [--show]`: the snapshot's categories on
 * the `foreign-notes` sentences (Chinese, Japanese, Russian agent prose, labelled blind; README.md),
 * beside the notes model, the keyword baseline and the frozen old rules, per language. Without
 * `--apart` it reads the authors the language rules may be written from; `--apart` scores the two
 * authors kept apart, once. `--show` lists the misses of today's rules (never with `--apart`).
 */
import { labelledDraw } from '../../notes-reader-data.js';
import { scoreMethods, table } from '../../notes-reader-report.js';
import { snapshotCategorizer } from '../../score.js';
import { FOREIGN_NOTES_ENTRIES, isApart, scriptOf } from './sample.js';

const apart = process.argv.includes('--apart');
const entries = labelledDraw('foreign-notes', FOREIGN_NOTES_ENTRIES).filter(
  (e) => isApart(e.author) === apart,
);

const { summaries, groups } = scoreMethods(entries, (e) => scriptOf(e.text));
console.log(
  `foreign-notes (${apart ? 'kept apart, scored once' : 'authors the rules may be written from'}): ${entries.length} entries of ${new Set(entries.map((e) => e.author)).size} authors\n`,
);
console.log(table(summaries, groups));
if (process.argv.includes('--show') && !apart)
  for (const e of entries) {
    const p = snapshotCategorizer(e.text);
    if (p !== e.label) console.log(`${e.id}\t${e.label} <- ${p}\t${e.text.slice(0, 160)}`);
  }

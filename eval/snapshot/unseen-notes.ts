/**
 * `npx tsx eval/snapshot/unseen-notes.ts --dir <folder>` (issue 39): the deterministic snapshot's
 * categories on `unseen-notes` (sets/unseen-notes/README.md): sentences of aider replies from public
 * repositories whose authors are in no folder of `../shared/data`, so no rule or weight was chosen
 * from them. Scored once with what ships (`snapshotCategorizer`), beside the frozen old rules and the
 * plain keyword reader, in the same run; nothing is fitted here.
 *
 * `<folder>` holds the copied histories as `aider/<owner>__<name>.md` (they are not in the repository);
 * each entry's text is re-read from them and checked by SHA-256.
 */
import { type Row, summarise, table } from './notes-reader-report';
import {
  type Categorizer,
  keywordCategorizer,
  oldCategorizer,
  readLabels,
  snapshotCategorizer,
} from './score';
import { loadUnseenNotes } from './sets/unseen-notes/sample';

const at = process.argv.indexOf('--dir');
const dir = at > 0 ? process.argv[at + 1] : undefined;
if (!dir) throw new Error('usage: unseen-notes.ts --dir <folder holding aider/<owner>__<name>.md>');

const entries = loadUnseenNotes(dir);
const labels = readLabels('sets/unseen-notes/labels.tsv');
const rows = entries.map((e) => {
  const l = labels.get(e.id);
  if (!l) throw new Error(`sets/unseen-notes/labels.tsv: no label for ${e.id}`);
  return { ...e, ...l };
});
/** One source (aider replies); per author the counts are too small to print. */
const group = (_e: { author: string }) => 'aider';
const rowsOf = (cat: Categorizer): Row[] =>
  rows.map((e) => ({ label: e.label, pred: cat(e.text), hard: e.hard, group: group(e) }));
const s = {
  today: summarise(rowsOf(snapshotCategorizer)),
  'old rules': summarise(rowsOf(oldCategorizer)),
  keyword: summarise(rowsOf(keywordCategorizer)),
};
console.log(
  `unseen-notes: ${rows.length} entries, ${new Set(rows.map((e) => e.author)).size} authors, hard ${rows.filter((e) => e.hard).length}\n`,
);
console.log(table(s, ['aider']));

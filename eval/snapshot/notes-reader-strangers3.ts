/**
 * `npx tsx eval/snapshot/notes-reader-strangers3.ts [--json]` (issue 39): the notes readers on
 * `strangers-notes-3`, 339 sentences of the 22 `strangers-final` authors that no rule, weight or
 * threshold was chosen on (the third draw; labelled blind, eval/snapshot/sets/strangers-notes-3/).
 * The English openings table (lib/categorise/english.ts) and the other rule changes of 3 December
 * were written from the misses of the `strangers` pool only; this set was scored once after them.
 *
 * Methods in the same run: today's rules (`snapshotCategorizer`), the notes model
 * (`rearview/categorise-model`, refitted on today's rule features), the keyword baseline, and the
 * frozen older rules (`oldCategorizer`). The rules as they were before 3 December are scored by
 * running this script at commit 9eb7bc3 with this folder copied in (the figure is in the closing note).
 * Figures by source folder, the confusion matrix and precision / recall per category.
 */
import { notesReader } from '../../lib/categorise-model/index.js';
import { type Row, summarise, table } from './notes-reader-report.js';
import { keywordCategorizer, oldCategorizer, readLabels, snapshotCategorizer } from './score.js';
import { loadStrangersNotes } from './sets/strangers-notes/sample.js';
import { NOTES3_ENTRIES } from './sets/strangers-notes-3/sample.js';

const labels = readLabels('sets/strangers-notes-3/labels.tsv');
const entries = loadStrangersNotes(NOTES3_ENTRIES).map((e) => {
  const lab = labels.get(e.id);
  if (!lab) throw new Error(`strangers-notes-3: no label for ${e.id}`);
  return { ...e, ...lab };
});

const methods = {
  today: snapshotCategorizer,
  'model (notes reader)': (text: string) => notesReader(text) ?? 'irrelevant',
  keyword: keywordCategorizer,
  'old rules (frozen)': oldCategorizer,
} as const;

const rows = (cat: (text: string) => string): Row[] =>
  entries.map((e) => ({ label: e.label, pred: cat(e.text) as Row['pred'], hard: e.hard, group: e.kind }));
const summaries = Object.fromEntries(Object.entries(methods).map(([n, cat]) => [n, summarise(rows(cat))]));
const groups = [...new Set(entries.map((e) => e.kind))].sort();
console.log(
  `strangers-notes-3: ${entries.length} entries of ${new Set(entries.map((e) => e.author)).size} authors (scored once)\n`,
);
console.log(table(summaries, groups));
if (process.argv.includes('--json')) console.log(JSON.stringify(summaries));

/**
 * `npx tsx eval/snapshot/unseen-notes.ts --dir <folder> [--set unseen-notes|unseen-specstory-notes|fresh-specstory-notes|fresh-specstory-notes-2|fresh-console-notes|fresh-gemini-notes|fresh-console-2-notes|fresh-console-3-notes|fresh-console-4-notes|fresh-console-5-notes]`
 * (issue 39): the deterministic snapshot's categories on `unseen-notes` (sets/unseen-notes/README.md:
 * sentences of aider replies) or `unseen-specstory-notes` (sets/unseen-specstory-notes/README.md: of
 * SpecStory exports) or `fresh-specstory-notes` (sets/fresh-specstory-notes/README.md: SpecStory
 * exports of still other owners), from public repositories whose authors are in no folder of `../shared/data`, so
 * no rule or weight was chosen from them. Scored once with what ships (`snapshotCategorizer`), beside the frozen old rules and the
 * plain keyword reader, in the same run; nothing is fitted here.
 *
 * `<folder>` holds the copies as `aider/` and `specstory/<owner>__<name>.md` (not in the repository);
 * each entry's text is re-read from them and checked by SHA-256 (`--rebuilt`: a sentence not found
 * is left out and counted instead of stopping the run).
 */
import { notesReader } from '../../lib/categorise-model/index.js';
import { type Row, summarise, table } from './notes-reader-report';
import {
  type Categorizer,
  keywordCategorizer,
  oldCategorizer,
  readExcluded,
  readLabels,
  snapshotCategorizer,
} from './score';
import { FRESH_CONSOLE_2_NOTES_ENTRIES } from './sets/fresh-console-2-notes/sample';
import { FRESH_CONSOLE_3_NOTES_ENTRIES } from './sets/fresh-console-3-notes/sample';
import { FRESH_CONSOLE_4_NOTES_ENTRIES } from './sets/fresh-console-4-notes/sample';
import { FRESH_CONSOLE_5_NOTES_ENTRIES } from './sets/fresh-console-5-notes/sample';
import { FRESH_CONSOLE_NOTES_ENTRIES } from './sets/fresh-console-notes/sample';
import { FRESH_GEMINI_NOTES_ENTRIES } from './sets/fresh-gemini-notes/sample';
import { FRESH_SPECSTORY_NOTES_ENTRIES } from './sets/fresh-specstory-notes/sample';
import { FRESH_SPECSTORY_NOTES_2_ENTRIES } from './sets/fresh-specstory-notes-2/sample';
import { loadUnseenNotes, UNSEEN_NOTES_ENTRIES } from './sets/unseen-notes/sample';
import { UNSEEN_SPECSTORY_NOTES_ENTRIES } from './sets/unseen-specstory-notes/sample';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const dir = arg('--dir');
const set = arg('--set') ?? 'unseen-notes';
/** Each set: the folder of `--dir` its copies are in, and its entries. */
const SETS = {
  'unseen-notes': { source: 'aider', entries: UNSEEN_NOTES_ENTRIES },
  'unseen-specstory-notes': { source: 'specstory', entries: UNSEEN_SPECSTORY_NOTES_ENTRIES },
  'fresh-specstory-notes': { source: 'specstory', entries: FRESH_SPECSTORY_NOTES_ENTRIES },
  'fresh-specstory-notes-2': { source: 'specstory', entries: FRESH_SPECSTORY_NOTES_2_ENTRIES },
  'fresh-console-notes': { source: 'console', entries: FRESH_CONSOLE_NOTES_ENTRIES },
  'fresh-gemini-notes': { source: 'gemini', entries: FRESH_GEMINI_NOTES_ENTRIES },
  'fresh-console-2-notes': { source: 'console', entries: FRESH_CONSOLE_2_NOTES_ENTRIES },
  'fresh-console-3-notes': { source: 'console', entries: FRESH_CONSOLE_3_NOTES_ENTRIES },
  'fresh-console-4-notes': { source: 'console', entries: FRESH_CONSOLE_4_NOTES_ENTRIES },
  'fresh-console-5-notes': { source: 'console', entries: FRESH_CONSOLE_5_NOTES_ENTRIES },
} as const;
if (!dir || !(set in SETS))
  throw new Error(
    `usage: unseen-notes.ts --dir <folder holding aider/, specstory/, console/ or gemini/> [--set ${Object.keys(SETS).join('|')}]`,
  );
const { source, entries: entriesPath } = SETS[set as keyof typeof SETS];

// `--rebuilt`: copies rebuilt from the index after the labelled ones were lost; a sentence whose
// text (SHA-256) is not found in them is left out and counted.
const missing = process.argv.includes('--rebuilt') ? { count: 0 } : undefined;
// A set's `excluded.tsv` names sentences a later reader no longer gives as prose (a console's folded
// calls): those, and only those, may be absent from the copies; they are left out of the score.
const excluded = new Set(readExcluded(set));
const lenient = missing ?? (excluded.size > 0 ? { count: 0 } : undefined);
const loaded = loadUnseenNotes(dir, entriesPath, lenient);
const entries = loaded.filter((e) => !excluded.has(e.id));
if (missing) console.log(`rebuilt copies: ${missing.count} labelled sentences not found, left out`);
else if (excluded.size > 0) {
  if (lenient!.count !== excluded.size || entries.length !== loaded.length)
    throw new Error(
      `sentences not found: ${lenient!.count}; excluded: ${excluded.size}, of them found: ${loaded.length - entries.length}`,
    );
  console.log(`${excluded.size} labelled sentences left out (sets/${set}/excluded.tsv)`);
}
const labels = readLabels(`sets/${set}/labels.tsv`);
const rows = entries.map((e) => {
  const l = labels.get(e.id);
  if (!l) throw new Error(`sets/${set}/labels.tsv: no label for ${e.id}`);
  return { ...e, ...l };
});
/** One source per set; per author the counts are too small to print. */
const group = (_e: { author: string }) => source;
const rowsOf = (cat: Categorizer): Row[] =>
  rows.map((e) => ({ label: e.label, pred: cat(e.text), hard: e.hard, group: group(e) }));
const s = {
  today: summarise(rowsOf(snapshotCategorizer)),
  // The learned categoriser of rearview/categorise-model (not the default), as a user may choose it.
  'notes reader': summarise(rowsOf((text) => notesReader(text) ?? 'irrelevant')),
  'old rules': summarise(rowsOf(oldCategorizer)),
  keyword: summarise(rowsOf(keywordCategorizer)),
};
console.log(
  `${set}: ${rows.length} entries, ${new Set(rows.map((e) => e.author)).size} authors, hard ${rows.filter((e) => e.hard).length}\n`,
);
console.log(table(s, [source]));

/**
 * `npx tsx eval/snapshot/notes-reader-apart.ts [strangers-notes-3|-4|-5|sharegpt-notes|aider-apart-notes] [--json]` (issue
 * 39): the notes readers on one draw of the 22 `strangers-final` authors' sentences that no rule,
 * weight or threshold was chosen on, labelled blind (eval/snapshot/sets/<set>/LABELLING.md), each set
 * scored once after the rules written before it:
 * - `strangers-notes-3` (339): after the English openings table (lib/categorise/english.ts) and the
 *   other rule changes written from the `strangers` pool's misses;
 * - `strangers-notes-4` (332): after the rules written from the misses of the pool and of set 3;
 * - `strangers-notes-5` (320): after the rules written from the misses of the pool and of sets 3-4;
 * - `sharegpt-notes` (342): ChatGPT's replies in the ShareGPT conversations, a source no rule was
 *   written from (sets/sharegpt-notes/LABELLING.md), figures by stratum (`pos`, `cue`);
 * - `aider-apart-notes` (268): the aider agent's replies of six aider authors no notes set drew from
 *   (sets/aider-apart-notes/LABELLING.md), figures by author; `--reply-only` leaves out the 47
 *   sentences of reasoning blocks and the 73 lines of aider's own output the reader no longer reads
 *   as reply.
 *
 * Methods in the same run: today's rules (`snapshotCategorizer`), the notes model
 * (`rearview/categorise-model`, refitted on today's rule features), the keyword baseline, and the
 * frozen older rules (`oldCategorizer`). The rules before a round are scored by running this script at
 * the commit before it with the set's folder copied in (the figures are in each set's LABELLING.md).
 * Figures by source folder, the confusion matrix and precision / recall per category.
 */
import { labelledDraw } from './notes-reader-data.js';
import { scoreMethods, table } from './notes-reader-report.js';
import { AIDER_APART_ENTRIES } from './sets/aider-apart-notes/sample.js';
import { SHAREGPT_ENTRIES } from './sets/sharegpt-notes/sample.js';
import { APART_SETS, entriesOf } from './sets/strangers-notes/apart.js';

const set = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'strangers-notes-3';
const n = APART_SETS.find((k) => set === `strangers-notes-${k}`);
const sharegpt = set === 'sharegpt-notes';
const aider = set === 'aider-apart-notes';
if (n === undefined && !sharegpt && !aider)
  throw new Error(
    `unknown set ${set}: one of ${APART_SETS.map((k) => `strangers-notes-${k}`).join(', ')}, sharegpt-notes, aider-apart-notes`,
  );
const drawn = labelledDraw(set, sharegpt ? SHAREGPT_ENTRIES : aider ? AIDER_APART_ENTRIES : entriesOf(n!));
// `--reply-only`: leave out what was drawn when the reader still read it as reply and no snapshot reads
// now: sentences of aider replies' reasoning blocks, and aider's own output before a session's first prompt.
const entries = process.argv.includes('--reply-only')
  ? drawn.filter((e) => e.readAs !== 'reasoning' && e.readAs !== 'aider-output')
  : drawn;
/** What the figures are split by: ShareGPT's strata, the aider set's authors, the other sets' sources. */
const groupOf = (e: (typeof entries)[number]) => (sharegpt ? e.stratum : aider ? e.author : e.kind);

const { summaries, groups } = scoreMethods(entries, groupOf);
console.log(
  `${set}: ${entries.length} entries of ${new Set(entries.map((e) => e.author)).size} ${sharegpt ? 'conversations' : 'authors'} (scored once)${entries.length < drawn.length ? `; ${drawn.length - entries.length} sentences no reply holds left out (reasoning, aider's output)` : ''}\n`,
);
console.log(table(summaries, groups));
if (process.argv.includes('--json')) console.log(JSON.stringify(summaries));

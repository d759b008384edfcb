/**
 * `npx tsx eval/snapshot/same-place.ts`: do the evidence links the snapshot now lists as one place name
 * one file? Blind readers judged 60 pairs of links that the snapshot of 4 December listed apart and
 * `samePlaces` (lib/snapshot/same-place.ts) groups (`sets/same-place/`: 30 where the shorter path has
 * a directory part, 30 where it is a bare file name; the criterion was written before the labels).
 * This script prints the verdicts by kind and reader, the readers' agreement, and checks in today's
 * snapshot of every labelled session that the two links are one item (one kept, the other folded into
 * it), then counts evidence items and distinct places over every shared session.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  readSnapshotSource,
  type SnapshotInput,
  samePlaces,
} from '../../lib/snapshot/index';
import { CONVERSATION_FOLDERS, METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';

interface Row {
  id: string;
  source: string;
  kind: 'multi' | 'name';
  shorter: string;
  longer: string;
  reader1: string;
  reader2: string;
  reader3?: string;
}

const root = sharedDataDir() ?? '';
if (!root) throw new Error('no shared data beside the repository (../shared/data)');
const rows: Row[] = readFileSync(join(import.meta.dirname, 'sets/same-place/labels.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Row);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const inputOf = (file: string): SnapshotInput =>
  readSnapshotSource(readFileSync(join(root, file), 'utf8')).input;

console.log('verdicts (reader 1 / reader 2 / reader 3 on its sample):');
for (const kind of ['multi', 'name'] as const) {
  const of = rows.filter((r) => r.kind === kind);
  const count = (reader: 'reader1' | 'reader2' | 'reader3') => {
    const c: Record<string, number> = {};
    for (const r of of) if (r[reader]) c[r[reader]!] = (c[r[reader]!] ?? 0) + 1;
    return JSON.stringify(c);
  };
  console.log(`  ${kind} (${of.length}): ${count('reader1')} / ${count('reader2')} / ${count('reader3')}`);
}
const third = rows.filter((r) => r.reader3);
console.log(
  `agreement: readers 1-2 ${rows.filter((r) => r.reader1 === r.reader2).length} of ${rows.length}; ` +
    `1-3 ${third.filter((r) => r.reader1 === r.reader3).length} of ${third.length}; ` +
    `2-3 ${third.filter((r) => r.reader2 === r.reader3).length} of ${third.length}`,
);

// Today's snapshot of each labelled session: the two links are one item.
let one = 0;
const apart: string[] = [];
for (const r of rows) {
  const t = deterministicSnapshotWithTrace(inputOf(r.source));
  const itemOf = new Map<string, string>();
  // Kept, or past the cap (still one item, not listed), and the spellings folded into them.
  for (const k of t.kept) if (k.category === 'requiredEvidenceLinks') itemOf.set(sha(k.text), k.text);
  for (const d of t.dropped)
    if (d.category === 'requiredEvidenceLinks' && d.reason === 'over_cap') itemOf.set(sha(d.text), d.text);
  for (const d of t.dropped)
    if (d.category === 'requiredEvidenceLinks' && d.reason === 'near_duplicate' && d.into !== undefined)
      itemOf.set(sha(d.text), d.into);
  const a = itemOf.get(r.shorter);
  const b = itemOf.get(r.longer);
  if (a !== undefined && a === b) one++;
  else
    apart.push(
      `${r.id} (${a === undefined ? 'shorter not found' : b === undefined ? 'longer not found' : 'apart'})`,
    );
}
console.log(
  `today's snapshots: ${one} of ${rows.length} labelled pairs listed as one item${apart.length ? `; not: ${apart.join(', ')}` : ''}`,
);

// Every shared session: evidence items and the distinct places among them.
let sessions = 0;
let items = 0;
let places = 0;
for (const f of CONVERSATION_FOLDERS.flatMap((d) =>
  walkFiles(join(root, d)).filter((p) => !METADATA_FILE.test(relative(root, p))),
)) {
  let input: SnapshotInput;
  try {
    input = readSnapshotSource(readFileSync(f, 'utf8')).input;
  } catch {
    continue;
  }
  const links = deterministicSnapshot(input).requiredEvidenceLinks;
  sessions++;
  items += links.length;
  places += new Set(samePlaces(links).group).size;
}
console.log(`shared sessions: ${sessions}; evidence items ${items}, distinct places among them ${places}`);

// A folder listed beside a file inside it (`sets/same-place/folders.jsonl`, not shipped): does the
// folder matter beyond the items inside it? Ship criterion (written first): at most 4 of 40 `adds`.
const folders = readFileSync(join(import.meta.dirname, 'sets/same-place/folders.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { label: string; second?: string });
const count = (label: string) => folders.filter((r) => r.label === label).length;
const read2 = folders.filter((r) => r.second !== undefined);
console.log(
  `folders beside a file inside them (${folders.length}): redundant ${count('redundant')}, adds ${count('adds')}, unclear ${count('unclear')}; second reader agrees on ${read2.filter((r) => r.second === r.label).length} of ${read2.length}`,
);

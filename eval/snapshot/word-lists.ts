/**
 * `npx tsx eval/snapshot/word-lists.ts [--sheet <file.jsonl>]` (issue 39, the evidence list): do the
 * links the deterministic snapshot now leaves out name no place? Over every session of `../shared/data`,
 * the trace of today's snapshot gives the links dropped as words joined by slashes (`word_list`,
 * lib/snapshot/word-list.ts) or as paths left to fill in (`placeholder`, placeholder.ts), and two
 * groups kept beside them: every listed link of the same shape (kept because another path of the
 * session goes through its first folder, or because it is written in a code span) and as many other
 * listed links of the same sessions, drawn by a hash.
 *
 * `--sheet` writes the four groups shuffled together, without the group, one row a link with the
 * session file and the first entry that names it (third-party text: written outside the repository,
 * for the readers); `--groups <file>` each row's id, group and link, to join the verdicts once the
 * readers are done. Without either, the script reads the readers' verdicts (`sets/evidence-places/
 * labels.jsonl`: id, group, link, reader1, reader2; `place`, `not-a-place` or `unsure`) and prints
 * per group how many each reader calls a place, and their agreement. The rows must match today's
 * trace (the script says which do not). Then the second round's tallies (`edit-calls.jsonl`: the
 * listed links that went and came when an edit call began to give only the file it changes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a32 } from '../../lib/core/index';
import { deterministicSnapshotWithTrace, readSnapshotSource } from '../../lib/snapshot/index';
import { wordListShape } from '../../lib/snapshot/word-list';
import { METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';

type Group = 'dropped-word-list' | 'dropped-placeholder' | 'kept-shaped' | 'kept-other';
interface Row {
  id: string;
  group: Group;
  source: string;
  link: string;
  context: string;
}
interface Label {
  id: string;
  group: Group;
  link: string;
  reader1: string;
  reader2: string;
}

const root = sharedDataDir();
if (!root) throw new Error('no shared data beside the repository (../shared/data)');
const GROUPS: readonly Group[] = ['dropped-word-list', 'dropped-placeholder', 'kept-shaped', 'kept-other'];
const idOf = (source: string, link: string) =>
  (fnv1a32(`evidence-places#${source}#${link}`) >>> 0).toString(16).padStart(8, '0');

const rows: Row[] = [];
const seen = new Set<string>();
for (const file of walkFiles(root).filter((f) => !METADATA_FILE.test(f))) {
  const source = file.slice(root.length + 1);
  let input: ReturnType<typeof readSnapshotSource>['input'];
  try {
    input = readSnapshotSource(readFileSync(file, 'utf8')).input;
  } catch {
    continue;
  }
  const t = deterministicSnapshotWithTrace(input);
  const contextOf = (link: string) => {
    const e = input.entries.find((x) => String(x.value).includes(link));
    return e === undefined ? '' : String(e.value).slice(0, 400);
  };
  // A link dropped at each of its mentions is one row.
  const add = (group: Group, link: string) => {
    const id = idOf(source, link);
    if (!seen.has(id)) rows.push({ id, group, source, link, context: contextOf(link) });
    seen.add(id);
  };
  const dropped = t.dropped.filter((d) => d.reason === 'word_list' || d.reason === 'placeholder');
  for (const d of dropped)
    add(d.reason === 'word_list' ? 'dropped-word-list' : 'dropped-placeholder', d.text);
  const listed = t.snapshot.requiredEvidenceLinks;
  for (const link of listed) if (wordListShape(link)) add('kept-shaped', link);
  if (dropped.length === 0) continue;
  // As many other listed links of the session as it lost, drawn by a hash of the link.
  const others = listed
    .filter((l) => !wordListShape(l))
    .sort((a, b) => (fnv1a32(`draw#${a}`) >>> 0) - (fnv1a32(`draw#${b}`) >>> 0));
  for (const link of others.slice(0, dropped.length)) add('kept-other', link);
}

const at = process.argv.indexOf('--sheet');
const groupsAt = process.argv.indexOf('--groups');
if (groupsAt > 0) {
  // Each row's group, to join the readers' verdicts once they are done (never beside the sheet).
  writeFileSync(
    process.argv[groupsAt + 1]!,
    `${rows.map(({ id, group, link }) => JSON.stringify({ id, group, link })).join('\n')}\n`,
  );
} else if (at > 0) {
  const out = process.argv[at + 1]!;
  const shuffled = [...rows].sort(
    (a, b) => (fnv1a32(`sheet#${a.id}`) >>> 0) - (fnv1a32(`sheet#${b.id}`) >>> 0),
  );
  writeFileSync(
    out,
    `${shuffled.map(({ id, source, link, context }) => JSON.stringify({ id, source, link, context })).join('\n')}\n`,
  );
  console.log(`${rows.length} rows written to ${out}`);
  for (const g of GROUPS) console.log(`  ${g}: ${rows.filter((r) => r.group === g).length}`);
} else {
  const labels: Label[] = readFileSync(join(import.meta.dirname, 'sets/evidence-places/labels.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Label);
  const today = new Map(rows.map((r) => [r.id, r]));
  const moved = labels.filter((l) => today.get(l.id)?.group !== l.group);
  console.log(`${labels.length} labelled links; ${moved.length} no longer in their group today`);
  for (const l of moved)
    console.log(`  ${l.id} ${l.group} → ${today.get(l.id)?.group ?? 'not listed or dropped'}`);
  for (const g of GROUPS) {
    const of = labels.filter((l) => l.group === g);
    const count = (k: 'reader1' | 'reader2') => {
      const c: Record<string, number> = {};
      for (const l of of) c[l[k]] = (c[l[k]] ?? 0) + 1;
      return JSON.stringify(c);
    };
    console.log(`${g} (${of.length}): reader 1 ${count('reader1')}, reader 2 ${count('reader2')}`);
  }
  const same = labels.filter((l) => l.reader1 === l.reader2).length;
  console.log(`agreement: ${same} of ${labels.length}`);
  // The second round: the listed links an edit call's content no longer gives, and those that took
  // their slots (sets/evidence-places/README.md, "Edit calls").
  const edits = readFileSync(join(import.meta.dirname, 'sets/evidence-places/edit-calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { group: string; reader1: string; reader2: string });
  for (const g of ['gone', 'added']) {
    const of = edits.filter((e) => e.group === g);
    const keep = (k: 'reader1' | 'reader2') => of.filter((e) => e[k] === 'keep').length;
    const both = of.filter((e) => e.reader1 === 'keep' && e.reader2 === 'keep').length;
    console.log(
      `edit calls, ${g} (${of.length}): kept by reader 1 ${keep('reader1')}, reader 2 ${keep('reader2')}, both ${both}`,
    );
  }
  console.log(`agreement: ${edits.filter((e) => e.reader1 === e.reader2).length} of ${edits.length}`);
}

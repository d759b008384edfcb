/**
 * `npx tsx eval/snapshot/infer-root.ts [--list]`: how well `inferRoot` (lib/snapshot/infer-root.ts)
 * finds the folder a session worked in from its paths. Scored on every shared transcript that records
 * its folder (`meta.cwd`), with the record hidden: right (the same folder, drive letter in either
 * case), wrong (another folder) or none. Then, on the transcripts that record none, how many get a
 * folder and how many absolute evidence items the snapshot then lists. `--list` prints each session's
 * inferred folder beside its repository (the shared folder's `owner+repo` name).
 *
 * The rules' two numbers (two voting paths, a margin of three) were chosen on the sessions that record
 * their folder, so the first figure is a tuned one; there is no held-out set of sessions with a known
 * folder.
 */
import { readFileSync } from 'node:fs';
import { findLinks } from '../../lib/categorise/index';
import {
  deterministicSnapshot,
  entriesFromMessages,
  inferRoot,
  type MemoryEntry,
  readSnapshotSource,
} from '../../lib/snapshot/index';
import { METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';

const ABSOLUTE = /^(?:\/|~\/|[A-Za-z]:[\\/])/;
const list = process.argv.includes('--list');
const dir = sharedDataDir();
if (dir === undefined) {
  console.log('no ../shared/data: nothing to score');
  process.exit(0);
}

function links(entries: readonly MemoryEntry[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const v = typeof e.value === 'string' ? e.value : '';
    if (e.scope === 'evidence') out.push(v);
    else out.push(...findLinks(v));
  }
  return out;
}

const norm = (p: string) => p.replaceAll('\\', '/').replace(/\/+$/, '').toLowerCase();
const known = { right: 0, wrong: 0, none: 0 };
const unknown = { sessions: 0, inferred: 0, absoluteBefore: 0, absoluteAfter: 0, items: 0 };
for (const file of walkFiles(dir).filter((f) => !METADATA_FILE.test(f))) {
  let s: ReturnType<typeof readSnapshotSource>;
  try {
    s = readSnapshotSource(readFileSync(file, 'utf8'));
  } catch {
    continue;
  }
  if (s.kind !== 'transcript') continue;
  const name = file.slice(dir.length + 1);
  const cwd = s.transcript?.meta?.cwd;
  if (cwd !== undefined) {
    // The entries as an export without the record gives them: tool calls' paths not read through it.
    const got = inferRoot(links(entriesFromMessages(s.transcript!.messages).entries));
    const verdict = got === undefined ? 'none' : norm(got) === norm(cwd) ? 'right' : 'wrong';
    known[verdict]++;
    if (list && verdict !== 'none') console.log(`known  ${verdict.padEnd(5)} ${name.slice(0, 60)}  ${got}`);
    continue;
  }
  unknown.sessions++;
  const { root, ...rest } = s.input;
  const before = deterministicSnapshot(rest).requiredEvidenceLinks;
  unknown.absoluteBefore += before.filter((e) => ABSOLUTE.test(e)).length;
  unknown.items += before.length;
  if (s.rootFrom === 'paths') {
    unknown.inferred++;
    const after = deterministicSnapshot(s.input).requiredEvidenceLinks;
    unknown.absoluteAfter += after.filter((e) => ABSOLUTE.test(e)).length;
    if (list) console.log(`found  ${name.slice(0, 60)}  ${root}`);
  } else unknown.absoluteAfter += before.filter((e) => ABSOLUTE.test(e)).length;
}
console.log(JSON.stringify({ known, unknown }));

/**
 * `npx tsx eval/snapshot/evidence-audit.ts [<folder> …] [--show]`: what the deterministic snapshot
 * lists under evidence for every session file it reads under the folders (default: `../shared/data`),
 * counted by whether each entry is a link. An entry is a link when `findLinks` finds exactly it; a
 * pointer sentence holding links ("See lib/a.ts:4") is counted apart from one holding none, which a
 * user reads as a sentence in the wrong list (a quoted source, "The PR says: …", is evidence by the
 * labelling rules and is one of them too). `--show` prints the entries with no link.
 *
 * 4 December 2026, over `../shared/data` and the held-out copies (650 files read): before the pointer
 * change of lib/categorise/pointer.ts (a CJK sentence holding a slash, two words joined by one, a
 * markup tag are no pointer), 85 of 3,389 evidence entries held no link; after it, 56 of 3,364; after
 * the `findLinks` changes (a URL ends at CJK prose, dates and `console.log` are no files, two files
 * joined by a slash are two links) and a CJK clause counted as more than one word, 53 of 3,352. The
 * rest are quoted sources, listing lines and paths `findLinks` does not take (`~/x`, `tests/`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findLinks } from '../../lib/categorise/index.js';
import { deterministicSnapshot, readSnapshotSource } from '../../lib/snapshot/index.js';
import { sharedDataDir } from '../../tools/shared/data';

/** Every file under `dir`, but the data's own manifests and notes. */
function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (!/^(?:SOURCES\.jsonl|README\.md|files\.jsonl|EXTENDED\.jsonl)$/.test(name)) yield path;
  }
}

const args = process.argv.slice(2);
const show = args.includes('--show');
const dirs = args.filter((a) => !a.startsWith('--'));
const counts = { files: 0, unread: 0, evidence: 0, links: 0, pointers: 0, noLink: 0 };
const shared = sharedDataDir();
if (dirs.length === 0 && shared === undefined)
  throw new Error('no folder given, and ../shared/data is absent');
for (const dir of dirs.length > 0 ? dirs : [shared!])
  for (const file of walk(dir)) {
    let source: ReturnType<typeof readSnapshotSource>;
    try {
      source = readSnapshotSource(readFileSync(file, 'utf8'));
    } catch {
      counts.unread++;
      continue;
    }
    counts.files++;
    for (const entry of deterministicSnapshot(source.input).requiredEvidenceLinks) {
      counts.evidence++;
      const links = findLinks(entry);
      if (links.length === 1 && links[0] === entry) counts.links++;
      else if (links.length > 0) counts.pointers++;
      else {
        counts.noLink++;
        if (show) console.log(`${file}\t${entry.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }
  }
console.log(JSON.stringify(counts));

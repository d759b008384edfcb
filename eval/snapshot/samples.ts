/**
 * The categoriser on the playground's bundled samples (public/samples, manifest.json): each sample is
 * parsed as the playground parses it, and every entry of its snapshot input is categorised by the
 * deterministic snapshot (`snapshotCategorizer`) and by the older rules frozen as a baseline
 * (`oldCategorizer`), so a blind judge can say which placement reads better where they differ.
 * Entries whose scope forces their category (`evidence`: the links a tool call names) land in the
 * same place under both rules and are not compared.
 *
 *   npx tsx eval/snapshot/samples.ts                 per sample: entries, changed, the changed entries
 *   npx tsx eval/snapshot/samples.ts --blind <dir>   writes <dir>/blind.tsv (A/B in a seeded random
 *                                                    order, no rule named) and <dir>/key.tsv apart;
 *                                                    prints counts only
 *
 * `parseSample` is `parseInput` of playground/src/analyze.ts made of the same library calls: that file
 * imports `rearview/…`, which plain `tsx` resolves to dist/, not to lib/. The unit test
 * (test/unit/snapshot-samples.test.ts) checks that both give the same entries.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scopeCategory, squash } from '../../lib/categorise/index.js';
import { fnv1a32 } from '../../lib/core/index.js';
import { type MemoryEntry, readSnapshotSource } from '../../lib/snapshot/index.js';
import { type Label, oldCategorizer, snapshotCategorizer } from './score.js';

export const SAMPLES_DIR = fileURLToPath(new URL('../../public/samples', import.meta.url));

export interface SampleMeta {
  id: string;
  title: string;
  format: string;
  file: string;
}

/** The manifest's samples, in its order. */
export function loadManifest(): SampleMeta[] {
  return (JSON.parse(readFileSync(join(SAMPLES_DIR, 'manifest.json'), 'utf8')) as { samples: SampleMeta[] })
    .samples;
}

export function readSample(s: SampleMeta): string {
  return readFileSync(join(SAMPLES_DIR, s.file), 'utf8');
}

/**
 * The objective and memory entries the playground and the CLI build for `text`: the library's one
 * reader, `readSnapshotSource`.
 */
export function parseSample(text: string): { objective: string; entries: MemoryEntry[] } {
  const { objective, entries } = readSnapshotSource(text).input;
  return { objective, entries: [...entries] };
}

export interface Change {
  /** `<sample>#<n>`: the entry's position in the sample's snapshot input (1-based). */
  id: string;
  scope: string;
  text: string;
  old: Label;
  now: Label;
}

export interface SampleComparison {
  sample: string;
  entries: number;
  /** Entries whose scope forces their category under both rules. */
  forced: number;
  compared: number;
  /** Every compared entry whose category changed (a repeated text counts each time). */
  changes: Change[];
  /** `changes` with each text once (the first occurrence). */
  distinct: Change[];
  /** Entries per category, today's rules and the old ones. */
  now: Record<Label, number>;
  old: Record<Label, number>;
}

const zero = (): Record<Label, number> => ({
  openHypotheses: 0,
  blockers: 0,
  nextActions: 0,
  unresolvedQuestions: 0,
  requiredEvidenceLinks: 0,
  irrelevant: 0,
});

/** Categorises every entry of a snapshot input with both rules. */
export function compareEntries(sample: string, entries: readonly MemoryEntry[]): SampleComparison {
  const out: SampleComparison = {
    sample,
    entries: entries.length,
    forced: 0,
    compared: 0,
    changes: [],
    distinct: [],
    now: zero(),
    old: zero(),
  };
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (scopeCategory(String(e.scope))) {
      out.forced++;
      return;
    }
    out.compared++;
    const text = squash(String(e.value ?? ''));
    const now = snapshotCategorizer(text);
    const old = oldCategorizer(text);
    out.now[now]++;
    out.old[old]++;
    if (now === old) return;
    const c: Change = { id: `${sample}#${i + 1}`, scope: String(e.scope), text, old, now };
    out.changes.push(c);
    if (!seen.has(text)) {
      seen.add(text);
      out.distinct.push(c);
    }
  });
  return out;
}

/** {@link compareEntries} on every bundled sample, parsed with `parse` (the playground's by default). */
export function compareSamples(
  parse: (text: string) => { entries: readonly MemoryEntry[] } = parseSample,
): SampleComparison[] {
  return loadManifest().map((s) => compareEntries(s.id, parse(readSample(s)).entries));
}

const cut = (t: string, n = 160) => (t.length <= n ? t : `${t.slice(0, n - 1)}…`);

/** Which side is today's rule: a seeded coin per entry, recorded apart from the blind file. */
export const BLIND_SEED = 'issue-18-samples';
export const newIsA = (id: string): boolean => (fnv1a32(`${BLIND_SEED}|${id}`) & 1) === 1;

function writeBlind(dir: string, results: readonly SampleComparison[]): void {
  mkdirSync(dir, { recursive: true });
  const blind = ['id\tA\tB\ttext'];
  const key = ['id\tnew'];
  for (const r of results)
    for (const c of r.distinct) {
      const a = newIsA(c.id);
      blind.push(`${c.id}\t${a ? c.now : c.old}\t${a ? c.old : c.now}\t${c.text.replace(/\t/g, ' ')}`);
      key.push(`${c.id}\t${a ? 'A' : 'B'}`);
    }
  writeFileSync(join(dir, 'blind.tsv'), `${blind.join('\n')}\n`);
  writeFileSync(join(dir, 'key.tsv'), `${key.join('\n')}\n`);
}

function main(argv: string[]): void {
  const results = compareSamples();
  const blindAt = argv.indexOf('--blind');
  if (blindAt >= 0) {
    const dir = argv[blindAt + 1];
    if (!dir) throw new Error('--blind needs a folder');
    writeBlind(resolve(dir), results);
    for (const r of results)
      console.log(
        `${r.sample}: ${r.entries} entries, ${r.changes.length} changed (${r.distinct.length} distinct)`,
      );
    console.log(`blind file: ${join(resolve(dir), 'blind.tsv')} (key apart in key.tsv)`);
    return;
  }
  let entries = 0;
  let changed = 0;
  for (const r of results) {
    entries += r.entries;
    changed += r.changes.length;
    console.log(
      `\n## ${r.sample}: ${r.entries} entries (${r.forced} forced by scope, ${r.compared} compared), ` +
        `${r.changes.length} changed category (${r.distinct.length} distinct texts)`,
    );
    for (const c of r.distinct) console.log(`- [${c.id}] ${cut(c.text)}\n    ${c.old} → ${c.now}`);
  }
  console.log(`\nall samples: ${entries} entries, ${changed} changed category`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));

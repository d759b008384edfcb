/**
 * The people's turns of the spent held-out sets as training rows for the reader (issue 38: "labels,
 * many more of them"). Each of these sets was scored once (its README) and is spent: its labels may
 * now train. Their copies are not in the repository (they state no licence), so a row keeps no text:
 * `sets/<set>/features.jsonl` holds, per distinct labelled turn, its author, language, labels and the
 * reader's hashed feature buckets (`readerBuckets` of what the scorer is told with the eight languages'
 * markers read, as `trainingEvidence` gives for every other row). A bucket only one author of all the
 * training rows has (a name, a path, a key) is left out, so that no row carries what is one person's.
 *
 * The files were written on 7 December 2026 with the console reader of that morning: they hold 4
 * rows (`none`) that a set's `excluded.jsonl` now leaves out (the later consoles' empty input box, no
 * longer read as a prompt) and, in `fresh-console`, two rows of one prompt whose wrapped lines the reader
 * now joins better; writing them again drops or changes those rows (and the shipped reader with them).
 *
 * `npx tsx eval/heuristic/spent-features.ts --write --dir <folder>` (re)writes the files from the copies
 * (`<folder>/<set>/<folder of the set>/<id>.md`, e.g. `/work/fresh-console-3/console/…`: `--dir /work`).
 * The first line of each file is `{"version": …}`: a fingerprint of `readerBuckets` over the synthetic
 * turns. When the reader's features change, the fingerprint does, `spentTraining` throws, and the files
 * must be written again from the copies (rows of copies that are gone are then lost to training).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readerBuckets } from '../../lib/heuristic-model/index';
import type { Category } from './data';
import { type Example, fromStranger } from './reader-data';
import { loadPool, syntheticTraining } from './reader-train';
import { readRows } from './rows';
import { locateRows, type StrangerLabel } from './strangers-data';
import { checkCopies, excludedTurns, UNSEEN_SETS, type UnseenSet } from './unseen';

/** The spent sets whose turns train the reader, in training order. */
export const SPENT_SETS: readonly UnseenSet[] = [
  'fresh-console',
  'fresh-gemini',
  'fresh-console-2',
  'fresh-console-3',
  'fresh-console-4',
];

/** One stored row: no text, the buckets as base-36 gaps (sorted). */
interface FeatureRow {
  n: number;
  author: string;
  lang: string;
  labels: Category[];
  buckets: string;
}

const fileOf = (set: string) => resolve(import.meta.dirname, `sets/${set}/features.jsonl`);

/**
 * A fingerprint of the reader's features: FNV-1a over the buckets `readerBuckets` gives every
 * synthetic turn (1,050 turns of many styles and languages) read with the eight languages' markers,
 * as the stored rows were, as a hex string.
 */
export function featuresVersion(synthetic: readonly Example[]): string {
  let h = 0x811c9dc5;
  for (const e of synthetic) {
    // Read as the stored rows were, with the eight languages' markers: a change of those lists moves it too.
    const evidence = e.evidenceLang ?? e.evidence;
    if (!evidence) continue;
    for (const b of readerBuckets(evidence).sort((x, y) => x - y)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
    h = Math.imul(h ^ 0xff, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

const encodeBuckets = (b: readonly number[]) => {
  let prev = 0;
  return b.map((x) => {
    const d = (x - prev).toString(36);
    prev = x;
    return d;
  });
};
const decodeBuckets = (s: string): number[] => {
  let prev = 0;
  return s === '' ? [] : s.split(' ').map((d) => (prev += Number.parseInt(d, 36)));
};

/**
 * The stored rows of every spent set as training examples (`split` `spent`, `buckets` set, no
 * evidence). Throws when a file's fingerprint is not `version` (the reader's features changed).
 */
export function spentTraining(version: string): Example[] {
  const out: Example[] = [];
  for (const set of SPENT_SETS) {
    const [head, ...lines] = readFileSync(fileOf(set), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const v = (JSON.parse(head!) as { version: string }).version;
    if (v !== version)
      throw new Error(
        `sets/${set}/features.jsonl was written for other reader features (${v}, now ${version}): write it again from the copies (spent-features.ts --write)`,
      );
    for (const line of lines) {
      const r = JSON.parse(line) as FeatureRow;
      out.push({
        id: `s:${r.n}`,
        author: `strangers:${r.author}`,
        source: set,
        lang: r.lang,
        split: 'spent',
        labels: r.labels,
        standing: null,
        instruction: null,
        evidence: undefined,
        markers: undefined,
        markersLang: undefined,
        evidenceLang: undefined,
        duplicate: false,
        buckets: decodeBuckets(r.buckets),
      });
    }
  }
  return out;
}

/** Reads each spent set's copies under `dir` and writes its features file. */
function write(dir: string) {
  const synthetic = syntheticTraining();
  const version = featuresVersion(synthetic);
  const rowsOf = new Map<string, { e: Example; b: number[] }[]>();
  for (const set of SPENT_SETS) {
    const root = join(dir, set, UNSEEN_SETS[set].folder);
    checkCopies(join(dir, set), set);
    const excluded = excludedTurns(set);
    const labels = readRows<StrangerLabel>(`sets/${set}/labels.jsonl`).filter((r) => !excluded.has(r.n));
    const { rows, unmapped } = locateRows(labels, root);
    if (unmapped.length > 0) throw new Error(`${set}: ${unmapped.length} rows did not map`);
    const examples = rows.map(fromStranger).filter((e) => !e.duplicate && e.evidence !== undefined);
    rowsOf.set(
      set,
      examples.map((e) => ({ e, b: readerBuckets((e.evidenceLang ?? e.evidence)!).sort((x, y) => x - y) })),
    );
  }
  // Authors per bucket over every training row: the shared data's, the synthetic turns', the spent sets'.
  const authors = new Map<number, Set<string>>();
  const see = (b: number, a: string) => {
    const s = authors.get(b) ?? new Set();
    if (s.size < 2) s.add(a);
    authors.set(b, s);
  };
  for (const e of [...loadPool().pool, ...synthetic]) {
    const ev = e.evidenceLang ?? e.evidence;
    if (ev) for (const b of readerBuckets(ev)) see(b, e.author);
  }
  for (const list of rowsOf.values()) for (const { e, b } of list) for (const x of b) see(x, e.author);
  for (const [set, list] of rowsOf) {
    const lines = [JSON.stringify({ version })];
    let dropped = 0;
    for (const { e, b } of list) {
      const kept = b.filter((x) => (authors.get(x)?.size ?? 0) >= 2);
      dropped += b.length - kept.length;
      const row: FeatureRow = {
        n: Number(e.id.slice(2)),
        author: e.author.replace(/^strangers:/, ''),
        lang: e.lang,
        labels: e.labels,
        buckets: encodeBuckets(kept).join(' '),
      };
      lines.push(JSON.stringify(row));
    }
    writeFileSync(fileOf(set), `${lines.join('\n')}\n`);
    console.log(`${set}: ${list.length} rows, ${dropped} one-author buckets left out (version ${version})`);
  }
}

if (process.argv[1]?.endsWith('spent-features.ts')) {
  const at = process.argv.indexOf('--dir');
  if (!process.argv.includes('--write') || at < 0)
    throw new Error('usage: spent-features.ts --write --dir <folder>');
  write(process.argv[at + 1]!);
}

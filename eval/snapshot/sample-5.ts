/**
 * Draws the fifth batch of snapshot entries (issue 18) from ../shared/data, deterministically,
 * from the report kinds only (`mini-swe-agent`, `console-agent`, `console-summary`). Nothing in
 * entries.jsonl, entries-more.jsonl, entries-3.jsonl or entries-4.jsonl is repeated (same file+pos
 * or same text), and no two new entries share either. Two strata, drawn in this order:
 *
 * - `uniform`: per kind, `sample.ts`'s ranking (distinct texts, smallest FNV-1a hash of
 *   `file|pos`) continued past everything sets 1, 2, 3 and 4 took: 80 mini-swe-agent,
 *   80 console-agent, 60 console-summary;
 * - `evidence-enriched`: 40 sentences of those kinds holding a URL, a path, a `file:line`, or
 *   backticked spans making up at least half the text (sample-more.ts's test, as exported by
 *   sample-3.ts), smallest hash first.
 *
 * Ids `set5-001` … follow the strata's order (uniform by kind, then evidence), source order within
 * each. These sources may be copied, so every row keeps its text.
 * Run once to (re)write eval/snapshot/entries-5.jsonl: `npx tsx eval/snapshot/sample-5.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fnv1a32 } from '../../lib/core/index.js';
import { ENTRIES, type SampledEntry, SOURCES } from './sample';
import { isEvidence, load3Entries } from './sample-3';
import { load4Entries } from './sample-4';
import { loadMoreEntries } from './sample-more';

export const ENTRIES_5 = resolve(import.meta.dirname, 'entries-5.jsonl');

/** Per kind, how many uniform entries this set takes. */
const UNIFORM: Record<string, number> = { 'mini-swe-agent': 80, 'console-agent': 80, 'console-summary': 60 };
const N_EVIDENCE = 40;

/** One row of entries-5.jsonl. */
export interface Set5Entry {
  id: string;
  kind: string;
  stratum: string;
  file: string;
  pos: string;
  text: string;
}

interface Raw {
  kind: string;
  file: string;
  pos: string;
  text: string;
}

/** Distinct texts (first occurrence), ranked by FNV-1a hash of `file|pos`, ties by source order. */
function ranked(raws: Raw[]): Raw[] {
  const seen = new Set<string>();
  return raws
    .filter((r) => !seen.has(r.text) && seen.add(r.text))
    .map((r, i) => ({ r, i, h: fnv1a32(`${r.file}|${r.pos}`) }))
    .sort((a, b) => a.h - b.h || a.i - b.i)
    .map(({ r }) => r);
}

class Taken {
  private readonly places = new Set<string>();
  private readonly texts = new Set<string>();
  has(r: { file: string; pos: string; text: string }): boolean {
    return this.places.has(`${r.file}|${r.pos}`) || this.texts.has(r.text);
  }
  add(r: { file: string; pos: string; text: string }): void {
    this.places.add(`${r.file}|${r.pos}`);
    this.texts.add(r.text);
  }
}

function take(list: Raw[], n: number, taken: Taken, ok: (r: Raw) => boolean = () => true): Raw[] {
  const out: Raw[] = [];
  for (const r of list) {
    if (out.length >= n) break;
    if (taken.has(r) || !ok(r)) continue;
    taken.add(r);
    out.push(r);
  }
  return out;
}

/** Draws all rows of entries-5.jsonl. */
export function draw5(): Set5Entry[] {
  const taken = new Taken();
  for (const l of readFileSync(ENTRIES, 'utf8').split('\n')) {
    if (l.trim() !== '') taken.add(JSON.parse(l) as SampledEntry);
  }
  // set 2, aider texts included (re-read from the data folder) so a repeated text is caught too
  for (const e of loadMoreEntries()) taken.add(e);
  for (const e of load3Entries()) taken.add(e);
  for (const e of load4Entries()) taken.add(e);

  const perKind = SOURCES.filter((s) => s.kind in UNIFORM).map((s) => ({
    kind: s.kind,
    raws: s.read().map((r): Raw => ({ kind: s.kind, ...r })),
  }));
  const order = new Map<string, number>();
  for (const r of perKind.flatMap((k) => k.raws)) order.set(`${r.file}|${r.pos}`, order.size);
  const bySource = (rs: Raw[]) =>
    [...rs].sort((a, b) => order.get(`${a.file}|${a.pos}`)! - order.get(`${b.file}|${b.pos}`)!);

  const strata: [string, Raw[]][] = [];
  for (const { kind, raws } of perKind)
    strata.push(['uniform', bySource(take(ranked(raws), UNIFORM[kind]!, taken))]);
  const all = ranked(perKind.flatMap((k) => k.raws));
  strata.push(['evidence-enriched', bySource(take(all, N_EVIDENCE, taken, (r) => isEvidence(r.text)))]);

  let n = 0;
  return strata.flatMap(([stratum, rs]) =>
    rs.map((r) => ({
      id: `set5-${String(++n).padStart(3, '0')}`,
      kind: r.kind,
      stratum,
      file: r.file,
      pos: r.pos,
      text: r.text,
    })),
  );
}

/** The rows of entries-5.jsonl. */
export function load5Entries(path: string = ENTRIES_5): Set5Entry[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Set5Entry);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = draw5();
  writeFileSync(ENTRIES_5, `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${ENTRIES_5}\n`);
}

/**
 * Draws the third batch of snapshot entries (issue 18) from ../shared/data, deterministically,
 * from the report kinds only (`mini-swe-agent`, `console-agent`, `console-summary`). Nothing in
 * entries.jsonl or entries-more.jsonl is repeated (same file+pos or same text), and no two new
 * entries share either. Two strata, drawn in this order:
 *
 * - `uniform`: per kind, `sample.ts`'s ranking (distinct texts, smallest FNV-1a hash of
 *   `file|pos`) continued past everything sets 1 and 2 took: 80 mini-swe-agent, 80 console-agent,
 *   60 console-summary;
 * - `evidence-enriched`: 40 sentences of those kinds holding a URL, a path, a `file:line`, or
 *   backticked spans making up at least half the text (sample-more.ts's test), smallest hash first.
 *
 * Ids `set3-001` … follow the strata's order (uniform by kind, then evidence), source order within
 * each. These sources may be copied, so every row keeps its text.
 * Run once to (re)write eval/snapshot/entries-3.jsonl: `npx tsx eval/snapshot/sample-3.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fnv1a32 } from '../../lib/core/index.js';
import { ENTRIES, type SampledEntry, SOURCES } from './sample';
import { loadMoreEntries } from './sample-more';

export const ENTRIES_3 = resolve(import.meta.dirname, 'entries-3.jsonl');

/** Per kind, how many uniform entries this set takes. */
const UNIFORM: Record<string, number> = { 'mini-swe-agent': 80, 'console-agent': 80, 'console-summary': 60 };
const N_EVIDENCE = 40;

/** One row of entries-3.jsonl. */
export interface Set3Entry {
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

// The evidence test of sample-more.ts (not exported there), repeated verbatim.
const URL = /\bhttps?:\/\/\S+/i;
const ABS_PATH = /(?:^|[\s`'"(=])(?:~|\.{1,2})?\/[\w.@-]+\/[\w.@/-]*/;
const REL_PATH = /\b[\w.@-]+[/\\][\w.@/\\-]*\.[A-Za-z][A-Za-z0-9]{0,5}\b/;
const FILE_LINE = /\b[\w./\\-]+\.[A-Za-z][A-Za-z0-9]{0,5}:\d+\b/;

function mostlyBackticked(text: string): boolean {
  const spans = text.match(/`[^`]+`/g) ?? [];
  const inside = spans.reduce((n, s) => n + s.length, 0);
  return inside > 0 && inside >= 0.5 * text.length;
}

export function isEvidence(text: string): boolean {
  return (
    URL.test(text) ||
    ABS_PATH.test(text) ||
    REL_PATH.test(text) ||
    FILE_LINE.test(text) ||
    mostlyBackticked(text)
  );
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

/** Draws all rows of entries-3.jsonl. */
export function draw3(): Set3Entry[] {
  const taken = new Taken();
  for (const l of readFileSync(ENTRIES, 'utf8').split('\n')) {
    if (l.trim() !== '') taken.add(JSON.parse(l) as SampledEntry);
  }
  // set 2, aider texts included (re-read from the data folder) so a repeated text is caught too
  for (const e of loadMoreEntries()) taken.add(e);

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
      id: `set3-${String(++n).padStart(3, '0')}`,
      kind: r.kind,
      stratum,
      file: r.file,
      pos: r.pos,
      text: r.text,
    })),
  );
}

/** The rows of entries-3.jsonl. */
export function load3Entries(path: string = ENTRIES_3): Set3Entry[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Set3Entry);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = draw3();
  writeFileSync(ENTRIES_3, `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${ENTRIES_3}\n`);
}

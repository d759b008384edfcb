/**
 * Draws the report-kind snapshot sets (3, 4, 5 …) from ../shared/data,
 * deterministically, from the report kinds only (`mini-swe-agent`, `console-agent`,
 * `console-summary`). Set n repeats nothing of sets 1 … n-1 (same file+pos or same text), and no two
 * of its entries share either. Two strata, drawn in this order:
 *
 * - `uniform`: per kind, `sample.ts`'s ranking (distinct texts, smallest FNV-1a hash of
 *   `file|pos`) continued past everything the earlier sets took: 80 mini-swe-agent,
 *   80 console-agent, 60 console-summary;
 * - `evidence-enriched`: 40 sentences of those kinds holding a URL, a path, a `file:line`, or
 *   backticked spans making up at least half the text (sample-more.ts's `isEvidence`), smallest
 *   hash first.
 *
 * Ids `set<n>-001` … follow the strata's order (uniform by kind, then evidence), source order
 * within each. These sources may be copied, so every row keeps its text.
 * Run once to (re)write eval/snapshot/sets/<n>/entries.jsonl: `npx tsx eval/snapshot/sample-report.ts <n>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENTRIES, type SampledEntry, SOURCES } from './sample';
import { isEvidence, loadMoreEntries, type MoreEntry, type Raw, ranked, Taken, take } from './sample-more';
import { setPath } from './sets';

/** Per kind, how many uniform entries a set takes. */
const UNIFORM: Record<string, number> = { 'mini-swe-agent': 80, 'console-agent': 80, 'console-summary': 60 };
const N_EVIDENCE = 40;

/** One row of a set's entries.jsonl: set 2's entry shape, always with its text (these sources may be copied). */
export type ReportSetEntry = Omit<MoreEntry, 'sha256'>;

/** The path of set n's entries. */
export const reportSetPath = (n: number): string => setPath(n, 'entries.jsonl');

/**
 * The rows of set n's entries.jsonl. A set drawn from aider histories (set 30) keeps no text: its rows are
 * re-read from ../shared/data and checked by hash (`loadMoreEntries`), and left out without it.
 */
export function loadReportSet(n: number, path: string = reportSetPath(n)): ReportSetEntry[] {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ReportSetEntry & { textFrom?: 'data' });
  if (!rows.some((r) => r.textFrom === 'data')) return rows;
  return loadMoreEntries(path).map(({ sha256: _, ...e }) => e);
}

/** Draws all rows of set n (n ≥ 3), past sets 1 … n-1. */
export function drawReportSet(n: number): ReportSetEntry[] {
  const taken = new Taken();
  for (const l of readFileSync(ENTRIES, 'utf8').split('\n')) {
    if (l.trim() !== '') taken.add(JSON.parse(l) as SampledEntry);
  }
  // set 2, aider texts included (re-read from the data folder) so a repeated text is caught too
  for (const e of loadMoreEntries()) taken.add(e);
  for (let k = 3; k < n; k++) for (const e of loadReportSet(k)) taken.add(e);

  const perKind = SOURCES.filter((s) => s.kind in UNIFORM).map((s) => ({
    kind: s.kind,
    raws: s.read().map((r): Raw => ({ kind: s.kind, ...r })),
  }));
  const order = new Map<string, number>();
  for (const r of perKind.flatMap((k) => k.raws)) order.set(`${r.file}|${r.pos}`, order.size);
  const bySource = (rs: Raw[]) =>
    [...rs].sort((a, b) => order.get(`${a.file}|${a.pos}`)! - order.get(`${b.file}|${b.pos}`)!);

  const strata: [string, Raw[]][] = [];
  for (const { kind, raws } of perKind) {
    const drawn = take(ranked(raws), UNIFORM[kind]!, taken);
    // Say so when a source runs out (set 6 got 50 console-summary entries of 60; set 7 would get none).
    if (drawn.length < UNIFORM[kind]!)
      process.stderr.write(`set ${n}: ${kind} has only ${drawn.length} of ${UNIFORM[kind]} entries left\n`);
    strata.push(['uniform', bySource(drawn)]);
  }
  const all = ranked(perKind.flatMap((k) => k.raws));
  strata.push(['evidence-enriched', bySource(take(all, N_EVIDENCE, taken, (r) => isEvidence(r.text)))]);

  let id = 0;
  return strata.flatMap(([stratum, rs]) =>
    rs.map((r) => ({
      id: `set${n}-${String(++id).padStart(3, '0')}`,
      kind: r.kind,
      stratum,
      file: r.file,
      pos: r.pos,
      text: r.text,
    })),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const n = Number(process.argv[2]);
  if (!Number.isInteger(n) || n < 3) throw new Error('usage: sample-report.ts <set number, 3 or more>');
  const rows = drawReportSet(n);
  writeFileSync(reportSetPath(n), `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${reportSetPath(n)}\n`);
}

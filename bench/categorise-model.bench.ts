/**
 * The notes reader's cost (issue 39): a first reading of 10,000 distinct agent-note entries by the
 * deterministic snapshot with `categorise: notesReader` beside the same snapshot with its built-in
 * rules, the reader alone per entry, a naive keyword categoriser as the floor, and the same entries read again through a memo (the 16 ms frame). Timed alternately in
 * one run (median of rounds). Texts: the labelled entries of eval/snapshot (distinct texts, with a
 * counter appended past their number: snapshot.bench.ts's `realEntries`), so the mix is real agent prose.
 *
 * Standalone: `npx tsx bench/categorise-model.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { words } from '../lib/categorise/index';
import { notesReader } from '../lib/categorise-model/index';
import { createSnapshotMemo, deterministicSnapshot, type SnapshotInput } from '../lib/snapshot/index';
import { bundle } from '../tools/shared/heuristic-size';
import { type BenchResult, type BenchSuite, round } from './harness';
import { realEntries } from './snapshot.bench';

const N = 10_000;
const family = (list: string) => new Set(list.split(' '));
const HEDGE = family('maybe might perhaps probably likely possibly seems suspect hypothesis');
const PROBLEM = family(
  'error errors fail fails failed failing failure broken blocked exception crash timeout cannot',
);
const PLAN = family('todo next need should will let add fix run check update implement create remove');
/** The naive floor: the first keyword family found decides (eval/snapshot/score.ts's keyword baseline). */
function keywordCategory(text: string): string | undefined {
  if (text.trimEnd().endsWith('?')) return 'unresolvedQuestions';
  const ws = words(text);
  if (ws.some((w) => HEDGE.has(w))) return 'openHypotheses';
  if (ws.some((w) => PROBLEM.has(w))) return 'blockers';
  if (ws.some((w) => PLAN.has(w))) return 'nextActions';
  return undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const suite: BenchSuite = {
  name: 'categorise-model',
  async run() {
    const input: SnapshotInput = { objective: 'Fix the failing tests', entries: realEntries(N) };
    const texts = input.entries.map((e) => String(e.value));
    if (texts.length < N) {
      console.warn('categorise-model bench: the labelled entries are absent, nothing to measure');
      return [];
    }
    // Each run reads every text for the first time: a fresh memo-less snapshot, or the reader over fresh strings.
    const runs: [string, () => unknown][] = [
      ['snapshot-rules', () => deterministicSnapshot(input)],
      ['snapshot-reader', () => deterministicSnapshot(input, { categorise: notesReader })],
      ['reader-alone', () => texts.map((t) => notesReader(t))],
      ['keyword-naive', () => texts.map(keywordCategory)],
    ];
    const times: number[][] = runs.map(() => []);
    let sink: unknown;
    for (const [, fn] of runs) sink = fn();
    const rounds = 5;
    for (let r = 0; r < rounds; r++)
      runs.forEach(([, fn], k) => {
        const t0 = performance.now();
        sink = fn();
        times[k]!.push(performance.now() - t0);
      });
    // Seen before: a memo warmed by one reading, then the same entries again.
    const memo = createSnapshotMemo();
    deterministicSnapshot(input, { memo, categorise: notesReader });
    const again: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      sink = deterministicSnapshot(input, { memo, categorise: notesReader });
      again.push(performance.now() - t0);
    }
    void sink;
    const rules = median(times[0]!);
    const out: BenchResult[] = runs.map(([name], k) => {
      const ms = median(times[k]!);
      return {
        name: `${N}-entries/${name}`,
        medianMs: round(ms),
        runs: rounds,
        usPerEntry: round((ms * 1000) / N, 2),
        vsRules: round(rules / ms, 2),
      };
    });
    out.push({
      name: `${N}-entries/snapshot-reader-memo-again`,
      medianMs: round(median(again)),
      runs: rounds,
    });
    const size = await bundle(
      `export * from ${JSON.stringify(new URL('../lib/categorise-model/index.ts', import.meta.url).pathname)};`,
    );
    out.push({ name: 'entry-size', medianMs: 0, runs: 0, minified: size.minified, gzipped: size.gzipped });
    return out;
  },
};
export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.log(JSON.stringify(await suite.run(), null, 2));

/**
 * The learned scorers' cost: `heuristicReflect` with `scorer: correctionModel` and with the four-way
 * `readerModel` (`timesMarkers`: its time over markers-only, budget 2) beside the same call without
 * either (markers only) and the naive port of seed 004, timed alternately in the same
 * run, on the whole shared conversations (console days, ShareGPT, aider: user and assistant messages,
 * since the scorer reads the reply each turn answers) and on those conversations repeated to 1, 4 and
 * 16 and 50 MB. MB/s counts UTF-8 bytes of user-turn text. `vsMarkers` is the markers-only time over the
 * scorer's (below 1: the scorer costs that much), `vsNaive` the naive port's time over the scorer's;
 * `timeVs1MB` shows scaling (16 at 16 MB means linear). Also the size of the entry as an application
 * bundles it (Vite, minified, gzip -9: tools/shared/heuristic-size.ts).
 *
 * Standalone: `npx tsx bench/heuristic-model.bench.ts`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { heuristicReflect, type MessageLike } from '../lib/heuristic/index';
import { correctionModel, READER_MIN_SCORE, readerModel } from '../lib/heuristic-model/index';
import { bundle } from '../tools/shared/heuristic-size';
import { naiveSeedReflect } from '../tools/shared/seed-naive';
import { type BenchResult, type BenchSuite, round, sharedDataDir } from './harness';
import { sharedConversations } from './heuristic.bench';

function conversations(dir: string): MessageLike[][] {
  return sharedConversations(dir, [
    ['claude-code-console', '.md'],
    ['sharegpt/conversations', '.json'],
    ['aider', '.md'],
  ]) as MessageLike[][];
}

const enc = new TextEncoder();
const userBytes = (cs: readonly MessageLike[][]) =>
  cs.reduce(
    (n, c) =>
      n +
      c.reduce(
        (m, x) => m + (x.role === 'user' && typeof x.content === 'string' ? enc.encode(x.content).length : 0),
        0,
      ),
    0,
  );

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Times the three alternately (one run of each per round) so they see the same machine load. */
function race(name: string, cs: MessageLike[][], rounds: number): BenchResult[] {
  const bytes = userBytes(cs);
  const runs: [string, () => unknown][] = [
    ['scorer', () => cs.map((c) => heuristicReflect(c, { scorer: correctionModel }))],
    ['reader', () => cs.map((c) => heuristicReflect(c, { scorer: readerModel, minScore: READER_MIN_SCORE }))],
    ['markers', () => cs.map((c) => heuristicReflect(c))],
    ['naive', () => cs.map((c) => naiveSeedReflect(c as { role: string; content: string }[]))],
  ];
  const times: number[][] = runs.map(() => []);
  let sink: unknown;
  for (const [, fn] of runs) sink = fn();
  for (let r = 0; r < rounds; r++)
    runs.forEach(([, fn], k) => {
      const t0 = performance.now();
      sink = fn();
      times[k]!.push(performance.now() - t0);
    });
  void sink;
  const [s, rd, m, n] = times.map(median) as [number, number, number, number];
  return [
    {
      name: `${name}/scorer`,
      medianMs: round(s),
      runs: rounds,
      mbPerSec: round(bytes / 1e3 / s),
      vsMarkers: round(m / s, 2),
      vsNaive: round(n / s, 2),
    },
    {
      name: `${name}/reader`,
      medianMs: round(rd),
      runs: rounds,
      mbPerSec: round(bytes / 1e3 / rd),
      // The budget: reading with the reader at most twice the markers-only time.
      timesMarkers: round(rd / m, 2),
    },
    { name: `${name}/markers`, medianMs: round(m), runs: rounds, mbPerSec: round(bytes / 1e3 / m) },
    { name: `${name}/naive`, medianMs: round(n), runs: rounds, mbPerSec: round(bytes / 1e3 / n) },
  ];
}

const suite: BenchSuite = {
  name: 'heuristic-model',
  async run() {
    const dir = sharedDataDir();
    if (!dir) {
      console.warn('heuristic-model bench: ../shared/data is absent, nothing to measure');
      return [];
    }
    const base = conversations(dir);
    const out = race('shared-conversations', base, 7);
    const baseBytes = userBytes(base);
    let first: number | undefined;
    for (const mb of [1, 4, 16, 50]) {
      const cs: MessageLike[][] = [];
      for (let b = 0; b < mb * 1e6; b += baseBytes) cs.push(...base);
      const r = race(`synthetic-${mb}MB`, cs, mb >= 50 ? 1 : mb >= 16 ? 3 : 5);
      const scorer = r[0]!;
      first ??= scorer.medianMs / mb;
      scorer.timeVs1MB = round(scorer.medianMs / first, 1);
      out.push(...r);
    }
    // What an application that imports the scorer loads: the entry, minified and gzipped.
    const size = await bundle(
      `export * from ${JSON.stringify(join(import.meta.dirname, '../lib/heuristic-model/index.ts'))};`,
    );
    out.push({ name: 'entry-size', medianMs: 0, runs: 0, minified: size.minified, gzipped: size.gzipped });
    return out;
  },
};
export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.log(JSON.stringify(await suite.run(), null, 2));

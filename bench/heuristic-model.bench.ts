/**
 * The learned correction scorer's cost: `heuristicReflect` with `scorer: correctionModel` beside the
 * same call without it (markers only) and the naive port of seed 004, timed alternately in the same
 * run, on the whole shared conversations (console days, ShareGPT, aider: user and assistant messages,
 * since the scorer reads the reply each turn answers) and on those conversations repeated to 1, 4 and
 * 16 MB. MB/s counts UTF-8 bytes of user-turn text. `vsMarkers` is the markers-only time over the
 * scorer's (below 1: the scorer costs that much), `vsNaive` the naive port's time over the scorer's;
 * `timeVs1MB` shows scaling (16 at 16 MB means linear). Also the gzipped size of the entry's
 * TypeScript sources, comments included (the built entry is smaller: lib/heuristic/README.md).
 *
 * Standalone: `npx tsx bench/heuristic-model.bench.ts`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { naiveSeedReflect } from '../eval/heuristic/seed-naive';
import { heuristicReflect, type MessageLike } from '../lib/heuristic/index';
import { correctionModel } from '../lib/heuristic-model/index';
import { parseTranscript } from '../lib/transcript/index';
import { type BenchResult, type BenchSuite, readText, round, sharedDataDir } from './harness';

function conversations(dir: string): MessageLike[][] {
  const out: MessageLike[][] = [];
  const add = (text: string, format?: 'claude-code-console') => {
    const { messages } = parseTranscript(text, { lenient: true, ...(format ? { format } : {}) });
    out.push(messages as MessageLike[]);
  };
  const files = (sub: string, ext: string) =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith(ext))
      .sort()
      .map((f) => join(dir, sub, f));
  for (const f of files('claude-code-console', '.md')) add(readText(f), 'claude-code-console');
  for (const f of files('sharegpt/conversations', '.json')) add(readText(f));
  for (const f of files('aider', '.md')) add(readText(f));
  return out;
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
  const [s, m, n] = times.map(median) as [number, number, number];
  return [
    {
      name: `${name}/scorer`,
      medianMs: round(s),
      runs: rounds,
      mbPerSec: round(bytes / 1e3 / s),
      vsMarkers: round(m / s, 2),
      vsNaive: round(n / s, 2),
    },
    { name: `${name}/markers`, medianMs: round(m), runs: rounds, mbPerSec: round(bytes / 1e3 / m) },
    { name: `${name}/naive`, medianMs: round(n), runs: rounds, mbPerSec: round(bytes / 1e3 / n) },
  ];
}

const suite: BenchSuite = {
  name: 'heuristic-model',
  run() {
    const dir = sharedDataDir();
    if (!dir) {
      console.warn('heuristic-model bench: ../shared/data is absent, nothing to measure');
      return [];
    }
    const base = conversations(dir);
    const out = race('shared-conversations', base, 7);
    const baseBytes = userBytes(base);
    let first: number | undefined;
    for (const mb of [1, 4, 16]) {
      const cs: MessageLike[][] = [];
      for (let b = 0; b < mb * 1e6; b += baseBytes) cs.push(...base);
      const r = race(`synthetic-${mb}MB`, cs, mb >= 16 ? 3 : 5);
      const scorer = r[0]!;
      first ??= scorer.medianMs / mb;
      scorer.timeVs1MB = round(scorer.medianMs / first, 1);
      out.push(...r);
    }
    const files = ['weights', 'features', 'index'].map((f) =>
      readText(join(import.meta.dirname, `../lib/heuristic-model/${f}.ts`)),
    );
    out.push({
      name: 'entry-source-size',
      medianMs: 0,
      runs: 0,
      bytes: files.reduce((n, t) => n + t.length, 0),
      gzipped: files.reduce((n, t) => n + gzipSync(t, { level: 9 }).length, 0),
    });
    return out;
  },
};
export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.log(JSON.stringify(suite.run(), null, 2));

/**
 * rearview/heuristic throughput: heuristicReflect over the user turns of the shared data (console
 * transcripts, Claude Code sessions, ShareGPT) and over a synthetic transcript of real user turns
 * repeated to 1, 4, 16 and 64 MB, each beside a naive port of seed 004 (lower-case, then `includes` for
 * every marker) in the same run; MB/s counts UTF-8 bytes of user-turn text. Also the minified+gzipped
 * size of the entry.
 *
 * Standalone: `npx tsx bench/heuristic.bench.ts`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { naiveSeedReflect } from '../eval/heuristic/seed-naive';
import { heuristicSizes } from '../eval/heuristic/size';
import { heuristicReflect } from '../lib/heuristic/index';
import { parseTranscript } from '../lib/transcript/index';
import { type BenchResult, type BenchSuite, measure, readText, round, sharedDataDir } from './harness';

interface Turn {
  role: string;
  content: string;
  id: string;
}

function bytesOf(turns: readonly Turn[]): number {
  const enc = new TextEncoder();
  let n = 0;
  for (const t of turns) n += enc.encode(t.content).length;
  return n;
}

function userTurns(dir: string): Turn[] {
  const out: Turn[] = [];
  const add = (text: string, format?: 'claude-code-console') => {
    const { messages } = parseTranscript(text, { lenient: true, ...(format ? { format } : {}) });
    for (const m of messages) if (m.role === 'user') out.push({ role: 'user', content: m.content, id: m.id });
  };
  const files = (sub: string, ext: string) =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith(ext))
      .sort()
      .map((f) => join(dir, sub, f));
  for (const f of files('claude-code-console', '.md')) add(readText(f), 'claude-code-console');
  for (const f of files('claude-code-jsonl', '.jsonl')) add(readText(f));
  for (const f of files('sharegpt/conversations', '.json')) add(readText(f));
  return out;
}

/** Real user turns cycled until `target` bytes (ids made unique). */
function synthetic(base: readonly Turn[], target: number): { turns: Turn[]; bytes: number } {
  const enc = new TextEncoder();
  const sizes = base.map((t) => enc.encode(t.content).length);
  const turns: Turn[] = [];
  let bytes = 0;
  for (let i = 0; bytes < target; i++) {
    const k = i % base.length;
    turns.push({ role: 'user', content: base[k]!.content, id: `s${i}` });
    bytes += sizes[k]!;
  }
  return { turns, bytes };
}

const suite = {
  name: 'heuristic',
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = [];
    const dir = sharedDataDir();
    if (!dir) {
      console.warn('heuristic bench: ../shared/data is absent, nothing to measure');
      return results;
    }
    const turns = userTurns(dir);
    const size = bytesOf(turns);
    const ours = await measure('heuristicReflect/shared-user-turns', () => heuristicReflect(turns), {
      bytes: size,
    });
    const naive = await measure('naive-seed/shared-user-turns', () => naiveSeedReflect(turns), {
      bytes: size,
    });
    ours.turns = turns.length;
    ours.inputMB = round(size / 1e6, 2);
    ours.vsNaive = round(ours.mbPerSec! / naive.mbPerSec!, 2);
    results.push(ours, naive);

    const scaling: BenchResult[] = [];
    for (const mb of [1, 4, 16, 64]) {
      const syn = synthetic(turns, mb * 1e6);
      const r = await measure(`heuristicReflect/synthetic-${mb}MB`, () => heuristicReflect(syn.turns), {
        bytes: syn.bytes,
        minRuns: mb >= 16 ? 3 : 5,
        budgetMs: mb >= 16 ? 1 : 1500,
      });
      const inputMB = round(syn.bytes / 1e6, 1);
      r.inputMB = inputMB;
      if (scaling.length > 0) {
        // Time per MB relative to the 1 MB run: 1.0 means perfectly linear.
        const base = scaling[0]!;
        r.timePerMBvs1MB = round(r.medianMs / inputMB / (base.medianMs / (base.inputMB as number)), 2);
      }
      if (mb === 64) {
        const n = await measure('naive-seed/synthetic-64MB', () => naiveSeedReflect(syn.turns), {
          bytes: syn.bytes,
          minRuns: 3,
          budgetMs: 1,
        });
        r.vsNaive = round(r.mbPerSec! / n.mbPerSec!, 2);
        scaling.push(r);
        results.push(...scaling, n);
      } else scaling.push(r);
    }

    const sizes = await heuristicSizes();
    results.push({
      name: 'size/heuristic-entry',
      medianMs: 0,
      runs: 1,
      heuristicReflectMinified: sizes.heuristicReflect.minified,
      heuristicReflectGzipped: sizes.heuristicReflect.gzipped,
      wholeEntryMinified: sizes.wholeEntry.minified,
      wholeEntryGzipped: sizes.wholeEntry.gzipped,
    });
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

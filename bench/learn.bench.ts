/**
 * `learn` in Node over a folder on disk: the shared conversations repeated with varied ids up to a size
 * (bench/learn-folder.ts, written into a temporary folder; default 100 MB, `LEARN_BENCH_MB=1000` for
 * 1 GB), read three ways in the same run: the library's streamed path (the folder walked in name
 * order, one read stream per file, opened when learn asks for it); the CLI's path (`rearview learn`'s
 * own generator, cli/learn-sources.ts: the same order, each file read whole as bytes when learn asks
 * for it); and the naive baseline: every file read into memory first, then the same pipeline. MB/s
 * of wall and of CPU time, sessions, rules, peak RSS and heap (sampled), and whether all three found
 * the same rules. The CLI's row is the one `rearview learn` is judged by (issue 40: ≥ 50 MB/s). A
 * fourth row reads the CLI's way with the reader deciding people's turns (`--detector reader`), with
 * its CPU time over the markers' (issue 38: at most 2), and a fifth with the dictionary the CLI
 * repairs typos in rules with (its load timed apart).
 *
 * Standalone: `npx tsx bench/learn.bench.ts` (add `--expose-gc` through NODE_OPTIONS for steadier
 * memory figures).
 */
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionSources } from '../cli/learn-sources';
import { loadDictionary } from '../cli/spelling';
import { READER_MIN_SCORE, readerModel } from '../lib/heuristic-model/index';
import { type LearnSource, learn } from '../lib/learn/index';
import { type BenchResult, type BenchSuite, round } from './harness';
import { writeLearnFolder } from './learn-folder';

const gc = (globalThis as { gc?: () => void }).gc;

/** Peak RSS and heap while `fn` runs, sampled every 20 ms and at each progress call. */
async function peakMemory<T>(
  fn: (sample: () => void) => Promise<T>,
): Promise<{ value: T; rssMB: number; heapMB: number }> {
  gc?.();
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  try {
    const value = await fn(sample);
    sample();
    return { value, rssMB: round(rss / 1e6, 1), heapMB: round(heap / 1e6, 1) };
  } finally {
    clearInterval(timer);
  }
}

/** The folder's files in the CLI's order: each folder's entries sorted by name, depth first. */
function filesOf(dir: string): { path: string; mtime: Date }[] {
  const out: { path: string; mtime: Date }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...filesOf(p));
    else out.push({ path: p, mtime: st.mtime });
  }
  return out;
}

async function timed<T>(fn: (sample: () => void) => Promise<T>) {
  gc?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const run = await peakMemory(fn);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ...run, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const suite = {
  name: 'learn',
  async run(): Promise<BenchResult[]> {
    const size = Number(process.env.LEARN_BENCH_MB ?? 100);
    const folder = writeLearnFolder(size);
    if (!folder) {
      console.warn('learn bench: ../shared/data is absent, nothing to measure');
      return [];
    }
    try {
      const files = filesOf(folder.dir);
      const name = (p: string) => relative(folder.dir, p);
      // The streamed path: one read stream per file, opened when learn asks for it.
      async function* streamed(): AsyncGenerator<LearnSource> {
        for (const f of files)
          yield { name: name(f.path), stream: createReadStream(f.path), modified: f.mtime };
      }
      // Warm the JIT on a slice, so that neither timed run pays for it.
      await learn(files.slice(0, 60).map((f) => ({ name: f.path, text: readFileSync(f.path, 'utf8') })));

      const ours = await timed((sample) => learn(streamed(), { onProgress: sample }));
      const mb = ours.value.stats.bytes / 1e6;
      // The CLI's path: the CLI's own source generator (whole files as bytes, read on demand).
      const cli = await timed((sample) => learn(sessionSources(files, folder.dir), { onProgress: sample }));
      const reader = await timed((sample) =>
        learn(sessionSources(files, folder.dir), {
          onProgress: sample,
          scorer: readerModel,
          minScore: READER_MIN_SCORE,
        }),
      );
      // `rearview learn` as it runs by default: typos in rules repaired with its dictionary, whose
      // one-off load (two Hunspell dictionaries and cspell's software terms) is timed apart.
      const loadStart = performance.now();
      const isWord = await loadDictionary();
      const dictionaryLoadMs = performance.now() - loadStart;
      const spelt = isWord
        ? await timed((sample) => learn(sessionSources(files, folder.dir), { onProgress: sample, isWord }))
        : undefined;
      const naive = await timed(async (sample) => {
        const all: LearnSource[] = files.map((f) => ({
          name: name(f.path),
          text: readFileSync(f.path, 'utf8'),
          modified: f.mtime,
        }));
        sample();
        return learn(all, { onProgress: sample });
      });
      const label = `${Math.round(mb)}MB`;
      // One row of a timed run: wall and CPU throughput over the same input.
      const row = (kind: string, t: { ms: number; cpuMs: number }, rest: Record<string, unknown>) => ({
        name: `learn/${kind}-${label}`,
        medianMs: round(t.ms, 0),
        runs: 1,
        mbPerSec: round(mb / (t.ms / 1000), 1),
        // CPU time beside wall time: on a shared machine the wall clock also counts other processes.
        cpuMbPerSec: round(mb / (t.cpuMs / 1000), 1),
        ...rest,
      });
      return [
        row('streamed', ours, {
          inputMB: round(mb, 1),
          files: ours.value.stats.files,
          sessions: ours.value.stats.sessions,
          humanTurns: ours.value.stats.humanTurns,
          rules: ours.value.rules.length,
          oneOffs: ours.value.oneOffCount,
          skipped: ours.value.skipped.length,
          peakRssMB: ours.rssMB,
          peakHeapMB: ours.heapMB,
          gcExposed: gc !== undefined,
        }),
        row('cli-whole-files', cli, {
          peakRssMB: cli.rssMB,
          peakHeapMB: cli.heapMB,
          sameRules: JSON.stringify(cli.value.rules) === JSON.stringify(ours.value.rules),
          cliCpuOverNaiveCpu: round(cli.cpuMs / naive.cpuMs, 2),
        }),
        row('cli-reader', reader, {
          rules: reader.value.rules.length,
          readerCpuOverMarkersCpu: round(reader.cpuMs / cli.cpuMs, 2),
        }),
        ...(spelt
          ? [
              row('cli-spelling', spelt, {
                dictionaryLoadMs: round(dictionaryLoadMs, 0),
                repairedWords: spelt.value.stats.repairedWords,
                peakRssMB: spelt.rssMB,
                spellingCpuOverMarkersCpu: round(spelt.cpuMs / cli.cpuMs, 2),
              }),
            ]
          : []),
        row('naive-read-all-first', naive, {
          peakRssMB: naive.rssMB,
          peakHeapMB: naive.heapMB,
          sameRules: JSON.stringify(naive.value.rules) === JSON.stringify(ours.value.rules),
          streamedCpuOverNaiveCpu: round(ours.cpuMs / naive.cpuMs, 2),
        }),
      ];
    } finally {
      folder.remove();
    }
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

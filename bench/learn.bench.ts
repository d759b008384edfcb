/**
 * `learn` throughput and memory over the shared conversations repeated with varied ids up to a size
 * (default 100 MB; `LEARN_BENCH_MB=1000` for 1 GB): streamed one file at a time, as the CLI reads a
 * folder, beside the naive baseline that reads every file into memory first and then runs the same
 * pipeline. MB/s, sessions, rules, peak RSS and heap (sampled), and what 1 GB would take at the
 * measured rate. Also the share of the time spent in parseTranscript alone.
 *
 * Standalone: `npx tsx bench/learn.bench.ts` (add `--expose-gc` through NODE_OPTIONS for steadier
 * memory figures).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LearnSource, learn } from '../lib/learn/index';
import { safeParseTranscript } from '../lib/transcript/index';
import { type BenchResult, type BenchSuite, round, sharedDataDir, walkFiles } from './harness';

/** Conversation folders (trajectory folders hold no person's turns). */
const FOLDERS = [
  'aider',
  'claude-code-console',
  'claude-code-jsonl',
  'claude-code-jsonl-more',
  'codex',
  'cline',
  'other-agents',
  'specstory',
  'sharegpt',
];
const METADATA = /(?:^|\/)(?:SOURCES?\.(?:jsonl|txt)|LICENSE|README\.md)$/;

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

/** Copy `k` of a file: every id-like JSON field and the aider session header made distinct. */
function vary(text: string, k: number): string {
  if (k === 0) return text;
  return text
    .replace(/"(uuid|parentUuid|id|sessionId|tool_use_id)":"/g, `"$1":"c${k}-`)
    .replace(/^# aider chat started at (\d{4})/gm, (_m, y: string) => `# aider chat started at ${y}`);
}

const suite = {
  name: 'learn',
  async run(): Promise<BenchResult[]> {
    const dir = sharedDataDir();
    if (!dir) {
      console.warn('learn bench: ../shared/data is absent, nothing to measure');
      return [];
    }
    const target = Number(process.env.LEARN_BENCH_MB ?? 100) * 1e6;
    const files = FOLDERS.flatMap((f) => walkFiles(`${dir}/${f}`)).filter((p) => !METADATA.test(p));
    // The files a reader exists for today (the others would be skipped in a few microseconds each).
    const readable = files.filter((p) => safeParseTranscript(readFileSync(p, 'utf8'), { lenient: true }).ok);
    const sizes = new Map(readable.map((p) => [p, Buffer.byteLength(readFileSync(p, 'utf8'))]));
    const corpus = [...sizes.values()].reduce((a, b) => a + b, 0);
    const copies = Math.max(1, Math.ceil(target / corpus));

    /** The folder, one file read at a time (as the CLI streams it). */
    function* streamed(): Generator<LearnSource> {
      let bytes = 0;
      for (let k = 0; k < copies; k++) {
        for (const p of readable) {
          if (bytes >= target) return;
          bytes += sizes.get(p)!;
          yield { name: `copy-${k}/${relative(dir!, p)}`, text: vary(readFileSync(p, 'utf8'), k) };
        }
      }
    }

    const results: BenchResult[] = [];
    // Warm the JIT on a slice, so that neither timed run pays for it.
    await learn(readable.slice(0, 40).map((p) => ({ name: p, text: readFileSync(p, 'utf8') })));
    // CPU time beside wall time: on a shared machine the wall clock also counts other processes.
    let cpu0 = process.cpuUsage();
    let t0 = performance.now();
    const ours = await peakMemory((sample) => learn(streamed(), { onProgress: sample }));
    const oursMs = performance.now() - t0;
    const oursCpu = process.cpuUsage(cpu0);
    const mb = ours.value.stats.bytes / 1e6;
    const mbPerSec = round(mb / (oursMs / 1000), 1);
    results.push({
      name: `learn/streamed-${Math.round(mb)}MB`,
      medianMs: round(oursMs, 0),
      runs: 1,
      mbPerSec,
      cpuMbPerSec: round(mb / ((oursCpu.user + oursCpu.system) / 1e6), 1),
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
      // Scaled from this run's rate: the pipeline is linear and holds one file at a time.
      oneGigabyteSeconds: round(1000 / mbPerSec, 0),
    });

    cpu0 = process.cpuUsage();
    t0 = performance.now();
    const naive = await peakMemory(async (sample) => {
      const all = [...streamed()];
      sample();
      return learn(all, { onProgress: sample });
    });
    const naiveMs = performance.now() - t0;
    const naiveCpu = process.cpuUsage(cpu0);
    results.push({
      name: `learn/naive-read-all-first-${Math.round(mb)}MB`,
      medianMs: round(naiveMs, 0),
      runs: 1,
      mbPerSec: round(mb / (naiveMs / 1000), 1),
      cpuMbPerSec: round(mb / ((naiveCpu.user + naiveCpu.system) / 1e6), 1),
      peakRssMB: naive.rssMB,
      peakHeapMB: naive.heapMB,
      sameRules: JSON.stringify(naive.value.rules) === JSON.stringify(ours.value.rules),
    });

    // Where the time goes: parseTranscript alone over one copy of the corpus.
    let parseMs = 0;
    for (const p of readable) {
      const text = readFileSync(p, 'utf8');
      const t = performance.now();
      safeParseTranscript(text, { lenient: true });
      parseMs += performance.now() - t;
    }
    const corpusMB = corpus / 1e6;
    results.push({
      name: `learn/parseTranscript-only-${Math.round(corpusMB)}MB`,
      medianMs: round(parseMs, 0),
      runs: 1,
      mbPerSec: round(corpusMB / (parseMs / 1000), 1),
      // learn's wall rate over parseTranscript's alone: how much of learn's time parsing takes.
      learnRateOverParseRate: round(parseMs > 0 ? mbPerSec / (corpusMB / (parseMs / 1000)) : 0, 2),
    });
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

/**
 * Tiny benchmark harness shared by every `bench/*.bench.ts` file.
 *
 * Each bench file default-exports a `BenchSuite`; `scripts/bench.mjs` runs them all and prints one JSON
 * document. Timings are wall-clock medians over repeated runs after a warm-up, so a single GC pause
 * does not decide a figure.
 */
import { readFileSync } from 'node:fs';

export interface BenchResult {
  /** Stable identifier, e.g. `extractJson/adversarial-10MB`. */
  name: string;
  /** Median wall time of one run, in milliseconds. */
  medianMs: number;
  /** Number of timed runs the median was taken over. */
  runs: number;
  /** Throughput in MB/s (10^6 bytes) when the case declares its input size. */
  mbPerSec?: number;
  /** Any extra figures: ratios, sizes, counts. */
  [extra: string]: unknown;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchResult[]> | BenchResult[];
}

export interface MeasureOptions {
  /** Input size in bytes, to report MB/s. */
  bytes?: number;
  /** Minimum timed runs (default 5). */
  minRuns?: number;
  /** Stop adding runs once this much time has been spent, in ms (default 1500). */
  budgetMs?: number;
  /** Untimed warm-up runs (default 1). */
  warmup?: number;
}

/** Times `fn` and returns its median; `fn`'s return value is kept alive so it cannot be optimised away. */
export async function measure(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<BenchResult> {
  const { bytes, minRuns = 5, budgetMs = 1500, warmup = 1 } = options;
  let sink: unknown;
  for (let i = 0; i < warmup; i++) sink = await fn();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < minRuns || (performance.now() - started < budgetMs && times.length < 1000)) {
    const t0 = performance.now();
    sink = await fn();
    times.push(performance.now() - t0);
  }
  keep(sink);
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)]!;
  const result: BenchResult = { name, medianMs: round(medianMs), runs: times.length };
  if (bytes !== undefined) result.mbPerSec = round(bytes / 1e6 / (medianMs / 1000));
  return result;
}

let kept: unknown;
function keep(value: unknown): void {
  kept = value;
}
/** @internal */
export function lastKept(): unknown {
  return kept;
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export { sharedDataDir, walkFiles } from '../tools/shared/data';

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

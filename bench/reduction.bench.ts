/**
 * pruneTrajectory: throughput (MB/s) on the shared trajectories for each mode (rules only, window
 * M=5, cache-friendly M=5) beside compactTrajectory (the previous reducer) in the same run, and growth on synthetic runs of 1k / 10k / 50k steps (target: linear,
 * growth ratio near the size ratio of 10 and 5).
 *
 * Standalone: `npx tsx bench/reduction.bench.ts` prints the results as JSON.
 */
import { compactTrajectory, type PruneOptions, pruneTrajectory } from '../lib/compress/index.js';
import type { Step } from '../lib/transcript/index.js';
import { type BenchResult, type BenchSuite, measure, round } from './harness.js';
import { SHARED_SETS, sharedTrajectories } from './shared-trajectories.js';

const MODES: [string, PruneOptions][] = [
  ['rules', {}],
  ['window5', { window: 5 }],
  ['cache5', { window: 5, cacheFriendly: true }],
];

/** A synthetic run cycling through views, edits, test runs, listings and installs. */
export function syntheticRun(n: number): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < n; i++) {
    const file = `src/mod_${i % 97}.py`;
    const kind = i % 5;
    const lines = Array.from(
      { length: 30 },
      (_, k) => `${String(k + 1).padStart(6)}\tvalue_${i % 13}_${k} = f(${k})`,
    );
    const observation =
      kind === 0
        ? lines.join('\n')
        : kind === 1
          ? ''
          : kind === 2
            ? `${`tests/t.py::test_${i % 7} PASSED\n`.repeat(20)}E   AssertionError: case ${i % 11}`
            : kind === 3
              ? Array.from({ length: 40 }, (_, k) => `mod_${(i + k) % 97}.py`).join('\n')
              : `Collecting pkg${i % 5}\n  Downloading pkg.whl (1 MB)\nSuccessfully installed pkg${i % 5}`;
    const action =
      kind === 0
        ? `nl -ba ${file}`
        : kind === 1
          ? `sed -i 's/f(1)/g(1)/' ${file}`
          : kind === 2
            ? `pytest tests/t.py -k test_${i % 7}`
            : kind === 3
              ? 'ls src'
              : 'pip install -e .';
    steps.push({ index: i, action, observation, thought: `look at value_${i % 13}_3`, source: { index: i } });
  }
  return steps;
}

const suite: BenchSuite = {
  name: 'reduction',
  async run() {
    const results: BenchResult[] = [];
    let previous: BenchResult | undefined;
    for (const n of [1_000, 10_000, 50_000]) {
      const steps = syntheticRun(n);
      const r = await measure(`pruneTrajectory/synthetic-${n}`, () => pruneTrajectory(steps, { window: 5 }), {
        minRuns: 3,
        budgetMs: 2000,
      });
      r.steps = n;
      if (previous) r.growthVsPrevious = round(r.medianMs / previous.medianMs, 2);
      results.push(r);
      previous = r;
    }
    for (const { set, trajectories, bytes } of sharedTrajectories(SHARED_SETS)) {
      // Baseline in the same run: compactTrajectory, the reducer the project had before (one pass of
      // line rules per step), on the same trajectories.
      const baseline = await measure(
        `compactTrajectory/${set}`,
        () => trajectories.map((t) => compactTrajectory(t.steps)),
        { bytes, minRuns: 3, budgetMs: 2000 },
      );
      results.push(baseline);
      for (const [mode, options] of MODES) {
        const r = await measure(
          `pruneTrajectory/${set}/${mode}`,
          () =>
            trajectories.map((t) =>
              pruneTrajectory(t.steps, {
                ...options,
                ...(t.outcome?.submission ? { submission: t.outcome.submission } : {}),
              }),
            ),
          { bytes, minRuns: 3, budgetMs: 2000 },
        );
        r.trajectories = trajectories.length;
        r.megabytes = round(bytes / 1e6, 2);
        r.timeVsCompact = round(r.medianMs / baseline.medianMs, 2);
        results.push(r);
      }
    }
    return results;
  },
};
export default suite;

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

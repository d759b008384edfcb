/**
 * Shared playbooks at the edge: applyTags throughput and latency on one PlaybookObject (SQLite-backed
 * Durable Object storage on local disk, in workerd) for 1, 8 and 32 concurrent clients, and the same
 * through a playbookStore on Workers KV (workerd's KV binding on a local backend) in the same run.
 * Every call is a real HTTP request into workerd; counters are checked exact afterwards.
 *
 * Standalone: `npx tsx bench/durable.bench.ts` prints the results as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playbookClient } from '../lib/durable/index.js';
import type { PlaybookStore } from '../lib/store/index.js';
import { buildDurableWorker, startDurableWorkerd } from '../test/runtime/workers/durable-server.js';
import { type BenchResult, type BenchSuite, round } from './harness.js';

const OPS = 400;
const WARMUP = 20;
const CONCURRENCY = [1, 8, 32];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** `OPS` applyTags calls from `clients` concurrent callers on playbook `id`. */
async function measure(backend: string, stores: PlaybookStore[], id: string): Promise<BenchResult> {
  const seeded = await stores[0]!.applyDelta(id, [
    { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'a' },
    { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'b' },
  ]);
  const names = seeded.applied.map((op) => (op as { name: string }).name);
  for (let i = 0; i < WARMUP; i++) await stores[0]!.applyTags(id, [{ name: names[0]!, tag: 'helpful' }]);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    stores.map(async (store) => {
      while (next < OPS) {
        const i = next++;
        const t0 = performance.now();
        await store.applyTags(id, [{ name: names[i % 2]!, tag: 'helpful' }]);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const ms = performance.now() - started;
  const pb = await stores[0]!.load(id);
  const total = Object.values(pb.sections)
    .flat()
    .reduce((n, k) => n + k.helpful, 0);
  latencies.sort((a, b) => a - b);
  return {
    name: `durable/${backend}/applyTags-c${stores.length}`,
    medianMs: round(percentile(latencies, 50)),
    runs: OPS,
    clients: stores.length,
    opsPerSec: Math.round(OPS / (ms / 1000)),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    exactCounters: total === OPS + WARMUP,
    lostIncrements: OPS + WARMUP - total,
  };
}

const suite: BenchSuite = {
  name: 'durable',
  async run() {
    const dir = await buildDurableWorker();
    const storage = mkdtempSync(join(tmpdir(), 'rearview-do-bench-'));
    const server = await startDurableWorkerd(dir, storage);
    const results: BenchResult[] = [];
    try {
      for (const backend of ['durable-object', 'workers-kv'] as const) {
        for (const clients of CONCURRENCY) {
          const stores = Array.from({ length: clients }, () =>
            playbookClient(
              { fetch: (input, init) => fetch(input, init) },
              backend === 'durable-object'
                ? { baseUrl: `${server.url}/playbook/`, headers: { authorization: 'Bearer alice' } }
                : { baseUrl: `${server.url}/kv/` },
            ),
          );
          results.push(await measure(backend, stores, `bench-${clients}`));
        }
      }
    } finally {
      await server.stop();
      rmSync(storage, { recursive: true, force: true });
    }
    return results;
  },
};

export default suite;

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

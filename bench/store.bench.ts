/**
 * Storage: load and save a 10,000-key-point playbook; 1,000 applyTags calls one transaction each
 * versus all 1,000 tags batched into one applyTags call (one transaction). Run on memoryStore and on
 * IndexedDB — fake-indexeddb in Node, and the real thing in Chromium (driven with playwright-core
 * against a bundle built from dist/, like the multi-tab test).
 *
 * Standalone: `npx tsx bench/store.bench.ts` prints the results as JSON.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { idbStore, type KeyValueStore, memoryStore } from '../lib/kv/index.js';
import { emptyPlaybook } from '../lib/playbook/index.js';
import { playbookStore } from '../lib/store/index.js';
import { runStoreProcedure, type StoreFigures } from '../tools/shared/store-procedure.js';
import { type BenchResult, type BenchSuite, round } from './harness.js';

const SIZE = 10_000;
const CALLS = 1_000;
const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** The procedure shared with the Chromium side (bench/store-procedure.ts). */
function measureStore(kv: KeyValueStore): Promise<StoreFigures> {
  return runStoreProcedure({ playbookStore, emptyPlaybook }, kv, SIZE, CALLS);
}

function report(backend: string, f: StoreFigures): BenchResult[] {
  if (f.total !== 2 * CALLS) throw new Error(`${backend}: expected ${2 * CALLS} increments, got ${f.total}`);
  const calls = (name: string, ms: number, batched: boolean): BenchResult => ({
    name: `store/${backend}/${name}`,
    medianMs: round(ms),
    runs: 1,
    calls: CALLS,
    transactions: batched ? 1 : CALLS,
    opsPerSec: Math.round(CALLS / (ms / 1000)),
    usPerCall: round((ms * 1000) / CALLS, 1),
  });
  return [
    { name: `store/${backend}/save-${SIZE}`, medianMs: round(f.saveMs), runs: 3, keyPoints: SIZE },
    { name: `store/${backend}/load-${SIZE}`, medianMs: round(f.loadMs), runs: 3, keyPoints: SIZE },
    calls(`applyTags-${CALLS}x1-one-tx-each`, f.oneByOneMs, false),
    calls(`applyTags-1x${CALLS}-batched-one-tx`, f.batchedMs, true),
    {
      ...calls(`applyTags-${CALLS}x1-on-${SIZE}-playbook`, f.bigOneByOneMs, false),
      sampledCalls: f.sampledCalls,
    },
    calls(`applyTags-1x${CALLS}-batched-on-${SIZE}-playbook`, f.bigBatchedMs, true),
  ];
}

async function chromium(): Promise<BenchResult[]> {
  if (!existsSync(join(root, 'dist/lib/store/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  const { bundleAgainstDist, conformanceDir } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(root, 'test/browser/store-bench.entry.ts'),
    fileName: 'store-browser.mjs',
    format: 'es',
  });
  const { serveDir } = await import('../test/runtime/runtimes.js');
  const { chromiumLaunchOptions } = await import('../test/chromium.js');
  const { chromium: launcher } = await import('playwright-core');
  const { url, server } = await serveDir(conformanceDir as string);
  const browser = await launcher.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    const f = await page.evaluate<StoreFigures>(
      `import(${JSON.stringify(`${url}/store-browser.mjs`)}).then((m) => m.runStoreBench('indexeddb', ${SIZE}, ${CALLS}))`,
    );
    return report('chromium-indexeddb', f);
  } finally {
    await browser.close();
    server.close();
  }
}

const suite: BenchSuite = {
  name: 'store',
  async run() {
    const out: BenchResult[] = [];
    out.push(...report('node-memory', await measureStore(memoryStore())));
    out.push(
      ...report(
        'node-fake-indexeddb',
        await measureStore(idbStore('bench', 'kv', { indexedDB: new IDBFactory() })),
      ),
    );
    try {
      out.push(...(await chromium()));
    } catch (err) {
      out.push({ name: 'store/chromium-indexeddb/skipped', medianMs: 0, runs: 0, reason: String(err) });
    }
    return out;
  },
};

export default suite;

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

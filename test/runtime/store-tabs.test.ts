/**
 * No lost updates across tabs: two real Chromium pages on one origin (one browser context) each
 * apply 500 bullet tags to the same playbook in IndexedDB at the same time; the counter ends at
 * exactly 1000, and the second page hears about the first page's changes through BroadcastChannel.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../chromium';
import { ensureBuilt } from './build';
import { root, serveDir } from './runtimes';

let browser: Browser;
let close: () => void;
let base: string;

beforeAll(async () => {
  const dir = await ensureBuilt();
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(root, 'test/browser/store-bench.entry.ts'),
    fileName: 'store-browser.mjs',
    format: 'es',
  });
  const served = await serveDir(dir);
  base = served.url;
  close = () => served.server.close();
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch(chromiumLaunchOptions);
});

afterAll(async () => {
  await browser?.close();
  close?.();
});

describe('IndexedDB across two tabs', () => {
  it('500 + 500 concurrent applyTags end at exactly 1000, and the other tab is notified', async () => {
    const context = await browser.newContext();
    const [a, b] = [await context.newPage(), await context.newPage()];
    await Promise.all([a.goto(`${base}/`), b.goto(`${base}/`)]);
    // Strings, not functions: vitest rewrites import() inside test code for Node.
    const mod = `import(${JSON.stringify(`${base}/store-browser.mjs`)})`;
    await a.evaluate(`${mod}.then((m) => m.seed('tabs'))`);
    await b.evaluate(`${mod}.then((m) => m.listen('tabs'))`);
    const [na, nb] = await Promise.all([
      a.evaluate<number>(`${mod}.then((m) => m.tagLoop('tabs', 500, 'pat-001'))`),
      b.evaluate<number>(`${mod}.then((m) => m.tagLoop('tabs', 500, 'pat-001'))`),
    ]);
    expect(na + nb).toBe(1000);
    const fromA = await a.evaluate<{ helpful: number; replica: string }>(
      `${mod}.then((m) => m.counts('tabs'))`,
    );
    const fromB = await b.evaluate<{ helpful: number; replica: string }>(
      `${mod}.then((m) => m.counts('tabs'))`,
    );
    expect(fromA.helpful).toBe(1000);
    expect(fromB.helpful).toBe(1000);
    expect(fromA.replica).toBe(fromB.replica); // one persistent slot per browser profile
    // BroadcastChannel delivery is asynchronous. B's listener is its own PlaybookStore object, so it
    // hears page A's 500 changes and the 500 made by page B's tagging object: 1000 remote, 0 local.
    await expect
      .poll(() => b.evaluate<{ remote: number }>(`${mod}.then((m) => m.changes())`), { timeout: 10_000 })
      .toMatchObject({ remote: 1000, local: 0 });
    // A content change made only in page A reaches page B's subscriber.
    await a.evaluate(`${mod}.then((m) => m.addKeyPoint('tabs', 'from tab A'))`);
    await expect
      .poll(() => b.evaluate<{ remote: number; kinds: string[] }>(`${mod}.then((m) => m.changes())`), {
        timeout: 10_000,
      })
      .toMatchObject({ remote: 1001, kinds: ['delta', 'tags'] });
    await context.close();
  });
});

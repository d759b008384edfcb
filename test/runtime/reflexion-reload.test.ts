/**
 * Reflexion memory survives a real page reload in Chromium: a bundle built from dist/ stores a lesson
 * in IndexedDB, the page is reloaded (all JavaScript state gone), and a fresh ReflexionMemory over
 * the same database retrieves it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../chromium';
import { root, serveDir } from './runtimes';

const dir = join(root, '.cache/reflexion-reload');
let served: { url: string; server: Server };

const ENTRY = `import { ReflexionMemory } from 'rearview/loop';
import { idbStore } from 'rearview/kv';

export async function remember(db) {
  const memory = await ReflexionMemory.open({ store: idbStore(db), namespace: 'reload', now: () => 1234 });
  await memory.store({ prompt: 'Count users per country in SQL', mistake: 'Forgot GROUP BY', correction: 'GROUP BY country' });
  await memory.store({ prompt: 'Bake bread', mistake: 'Too little water', correction: '70% hydration' });
  return memory.count();
}

export async function recall(db, query) {
  const memory = await ReflexionMemory.open({ store: idbStore(db), namespace: 'reload' });
  return { count: memory.count(), report: memory.lastLoad, hits: await memory.retrieveSimilar(query) };
}
`;

beforeAll(async () => {
  if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/loop/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'entry.mjs'), ENTRY);
  const { bundleAgainstDist } = await import(join(root, 'scripts/build-conformance.mjs'));
  await bundleAgainstDist({
    entry: join(dir, 'entry.mjs'),
    fileName: 'reflexion.mjs',
    format: 'es',
    outDir: dir,
  });
  served = await serveDir(dir);
});

afterAll(() => served?.server.close());

describe('ReflexionMemory across a real page reload (Chromium, bundle of dist/)', () => {
  it('retrieves after page.reload() what was stored before it', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      const page = await browser.newPage();
      await page.goto(`${served.url}/`);
      const bundle = JSON.stringify(`${served.url}/reflexion.mjs`);
      // Strings, not functions: vitest rewrites import() inside test code for Node, which the page lacks.
      const stored = await page.evaluate<number>(
        `window.__before = true; import(${bundle}).then((m) => m.remember('rv-reload'))`,
      );
      expect(stored).toBe(2);

      await page.reload();
      expect(await page.evaluate<boolean>('window.__before === undefined')).toBe(true);
      const recalled = await page.evaluate<string>(
        `import(${bundle}).then((m) => m.recall('rv-reload', 'count the users per country in SQL')).then((r) => JSON.stringify(r))`,
      );
      const result = JSON.parse(recalled);
      expect(result.count).toBe(2);
      expect(result.report).toEqual({ loaded: 2, skipped: [], evicted: 0 });
      expect(result.hits).toHaveLength(1);
      expect(result.hits[0]).toMatchObject({
        prompt: 'Count users per country in SQL',
        mistake: 'Forgot GROUP BY',
        correction: 'GROUP BY country',
        timestamp: 1234,
        similarity: 1,
      });
      expect(result.hits[0].promptHash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await browser.close();
    }
  });
});

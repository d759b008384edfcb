import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { repeatedSession } from '../e2e/helpers';
import { CLIPBOARD_READ } from '../playground/src/paste';
import { chromiumLaunchOptions } from '../test/chromium';
import { type BenchResult, type BenchSuite, round } from './harness';
import { servePlayground } from './serve-playground';

const root = join(import.meta.dirname, '..');
const BUDGET_MS = 200;

/** Starts recording the main thread's long tasks (> 50 ms) in window.__long, and clears the measures. */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __long: [number, number][]; __observer?: PerformanceObserver };
    // One observer at a time: a second one would report every task twice.
    w.__observer?.disconnect();
    w.__long = [];
    performance.clearMeasures();
    w.__observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__long.push([entry.startTime, entry.duration]);
    });
    w.__observer.observe({ type: 'longtask', buffered: false });
  });

/**
 * The long tasks since watchLongTasks. The paste handler measures the browser's clipboard read
 * (`getData`, CLIPBOARD_READ of playground/src/paste.ts); the page's own part of a task is its
 * duration less the clipboard reads inside it. `overBudget` counts the tasks whose own part is above
 * the budget; `overBudgetWithRead` counts them with the read.
 */
async function longTasks(
  page: Page,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<BenchResult> {
  const { long, reads } = await page.evaluate((measure) => {
    const reads = performance
      .getEntriesByName(measure, 'measure')
      .map((m) => [m.startTime, m.duration] as [number, number]);
    return { long: (window as unknown as { __long: [number, number][] }).__long, reads };
  }, CLIPBOARD_READ);
  const own = long.map(([start, duration]) => {
    const read = reads
      .filter(([at, d]) => at >= start - 1 && at + d <= start + duration + 1)
      .reduce((n, [, d]) => n + d, 0);
    return duration - read;
  });
  const longest = Math.max(0, ...own);
  const overBudget = own.filter((d) => d > BUDGET_MS).length;
  return {
    name,
    medianMs: round(longest),
    runs: 1,
    longestTaskMs: round(longest),
    longTasks: long.length,
    overBudget,
    budgetMs: BUDGET_MS,
    withinBudget: overBudget === 0,
    longestWithReadMs: round(Math.max(0, ...long.map(([, d]) => d))),
    overBudgetWithRead: long.filter(([, d]) => d > BUDGET_MS).length,
    clipboardReadMs: round(reads.reduce((n, [, d]) => n + d, 0)),
    /** The machine's load when the case ended (other processes stretch every task). */
    loadAverage1m: round(loadavg()[0]!),
    /** The five longest tasks as [start, duration, own part], for reading a trace beside them. */
    top: long
      .map(([start, d], i) => [round(start), round(d), round(own[i]!)])
      .sort((a, b) => b[1]! - a[1]!)
      .slice(0, 5),
    ...extra,
  };
}

async function open(page: Page, url: string, sample: string) {
  await page.goto(`${url}/?sample=${sample}`);
  await page.getByTestId('detected-format').waitFor();
}

async function sliderToDom(page: Page, url: string): Promise<BenchResult> {
  await open(page, url, 'console');
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByTestId('deterministic-snapshot').locator('li').first().waitFor();
  const times = await page.evaluate(() => {
    const range = document.getElementById('set-maxCategoryItems') as HTMLInputElement;
    const out: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t0 = performance.now();
      range.value = String(2 + (i % 5));
      range.dispatchEvent(new Event('input', { bubbles: true }));
      document.querySelectorAll('[data-testid="deterministic-snapshot"] li').length;
      out.push(performance.now() - t0);
    }
    return out.sort((a, b) => a - b);
  });
  return {
    name: 'slider-to-dom',
    medianMs: round(times[10]!),
    runs: times.length,
    maxMs: round(times.at(-1)!),
  };
}

async function file3Mb(page: Page, url: string): Promise<BenchResult> {
  await open(page, url, 'plain');
  await page.evaluate(() => {
    const w = window as unknown as { __lat: number[] };
    w.__lat = [];
    document.addEventListener('keydown', (e) => {
      const at = e.timeStamp;
      requestAnimationFrame(() => w.__lat.push(performance.now() - at));
    });
  });
  const probe = page.getByLabel('Near-duplicate similarity value');
  await probe.focus();
  await page.getByTestId('file-input').setInputFiles({
    name: 'big-session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(repeatedSession(3_000_000)),
  });
  await watchLongTasks(page);
  const progress = page.getByTestId('progress');
  for (let typed = 0; typed < 200; typed++) {
    await probe.press(typed % 2 ? 'ArrowUp' : 'ArrowDown');
    if (typed >= 20 && (await progress.getAttribute('data-state')) === 'done') break;
  }
  await progress.and(page.locator('[data-state="done"]')).waitFor({ timeout: 60_000 });
  const lat = (await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat)).sort(
    (a, b) => a - b,
  );
  return longTasks(page, 'file-3MB', {
    keypresses: lat.length,
    inputLatencyP95Ms: round(lat[Math.floor(lat.length * 0.95)] ?? 0),
    inputLatencyMaxMs: round(lat.at(-1) ?? 0),
  });
}

async function pasteOrDrop(page: Page, url: string, text: string): Promise<BenchResult[]> {
  await page.route('**/__bench.jsonl', (route) => route.fulfill({ body: text, contentType: 'text/plain' }));
  await open(page, url, 'plain');
  await page.evaluate(async () => {
    (window as unknown as { __blob: Blob }).__blob = await (await fetch('/__bench.jsonl')).blob();
  });
  const progress = page.getByTestId('progress');
  const done = () => progress.and(page.locator('[data-state="done"]')).waitFor({ timeout: 180_000 });
  const out: BenchResult[] = [];
  for (const mb of [5, 10]) {
    await page.evaluate(async (n) => {
      const blob = (window as unknown as { __blob: Blob }).__blob;
      const text = await blob.slice(0, n).text();
      // Whole lines: a transcript someone copies, analysed to the end (not a parse error).
      await navigator.clipboard.writeText(text.slice(0, text.lastIndexOf('\n') + 1));
    }, mb * 1e6);
    const target = (await page.getByTestId('large-preview').count())
      ? page.getByTestId('large-preview')
      : page.getByLabel('Transcript text');
    await target.click();
    if (!(await page.getByTestId('large-preview').count())) await page.keyboard.press('ControlOrMeta+A');
    await watchLongTasks(page);
    await page.keyboard.press('ControlOrMeta+V');
    await page.getByTestId('source').and(page.getByText('Pasted text')).waitFor();
    await done();
    out.push(await longTasks(page, `paste-${mb}MB`));
  }
  await watchLongTasks(page);
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([(window as unknown as { __blob: Blob }).__blob], 'bench.jsonl'));
    document
      .querySelector('.dropzone')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true }));
  });
  await page
    .getByTestId('source')
    .and(page.getByText(/^File: bench\.jsonl/))
    .waitFor();
  await done();
  out.push(await longTasks(page, `drop-${Math.round(text.length / 1e6)}MB`));
  return out;
}

const suite: BenchSuite = {
  name: 'playground',
  async run() {
    if (!existsSync(join(root, 'dist/playground/index.html'))) {
      const { build } = await import('vite');
      await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
    }
    const { url, child } = await servePlayground();
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      const context = await browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
      const page = await context.newPage();
      return [
        await sliderToDom(page, url),
        await file3Mb(page, url),
        ...(await pasteOrDrop(page, url, repeatedSession(50_000_000))),
      ];
    } finally {
      await browser.close();
      child.kill('SIGTERM');
    }
  },
};

export default suite;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    JSON.stringify({ node: process.version, suite: suite.name, results: await suite.run() }, null, 2),
  );
}

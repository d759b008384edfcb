import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../test/chromium';
import { type BenchResult, type BenchSuite, round } from './harness';
import { writeLearnFolder } from './learn-folder';
import { servePlayground } from './serve-playground';

const _root = join(import.meta.dirname, '..');
const BUDGET_MS = 200;
const RUN_TIMEOUT_MS = 20 * 60_000;

/** Every process below `pid` (Chromium's browser, renderers, GPU, utility processes). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/**
 * True for a Chromium process: by its program's name, not its whole command line (a checkout whose
 * path holds "chrom" would count tsx's esbuild service too).
 */
function isChromium(cmdline: string): boolean {
  const argv0 = cmdline.split('\0')[0] ?? '';
  return /chrom|headless_shell/i.test(argv0.slice(argv0.lastIndexOf('/') + 1));
}

/**
 * Summed PSS (kB → MB) of Chromium's processes, the node server and this process left out; `byType`
 * splits it by Chromium's `--type=` (browser when absent), renderers summed.
 */
function chromiumPss(exclude: Set<number>): { total: number; byType: Record<string, number> } {
  let kb = 0;
  const byType: Record<string, number> = {};
  for (const pid of descendants(process.pid)) {
    if (exclude.has(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!isChromium(cmd)) continue;
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
      kb += Number(m?.[1] ?? 0);
      byType[type] = round((byType[type] ?? 0) + Number(m?.[1] ?? 0) / 1000, 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return { total: kb / 1000, byType };
}
const chromiumPssMB = (exclude: Set<number>) => chromiumPss(exclude).total;

/** CPU seconds (user + system) used so far by Chromium's live processes. */
function chromiumCpuSeconds(exclude: Set<number>): number {
  const tick = 100; // USER_HZ on Linux
  let t = 0;
  for (const pid of descendants(process.pid)) {
    if (exclude.has(pid)) continue;
    try {
      if (!isChromium(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      t += (Number(f[11]) + Number(f[12])) / tick;
    } catch {
      // The process ended meanwhile.
    }
  }
  return t;
}

/** Runs `go` (which starts a learn run in the tab) and waits for its result, sampling memory. */
async function measureRun(page: Page, exclude: Set<number>, go: () => Promise<void>) {
  await page.evaluate(() => {
    const w = window as unknown as { __long: number[]; __over: string[]; __t0: number };
    w.__long = [];
    w.__over = [];
    w.__t0 = performance.now();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.__long.push(entry.duration);
        if (entry.duration > 200)
          w.__over.push(`${Math.round(entry.startTime - w.__t0)}+${Math.round(entry.duration)}`);
      }
    }).observe({ type: 'longtask', buffered: false });
  });
  let peakPss = chromiumPssMB(exclude);
  let peakPssByType: Record<string, number> = {};
  let peakPssAt = 0;
  const started = Date.now();
  let peakHeap = 0;
  const sampleHeap = async () => {
    const used = await page
      .evaluate(
        () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
      )
      .catch(() => 0);
    peakHeap = Math.max(peakHeap, used / 1e6);
  };
  const timer = setInterval(() => {
    const pss = chromiumPss(exclude);
    if (pss.total > peakPss) {
      peakPssByType = pss.byType;
      peakPssAt = Math.round((Date.now() - started) / 1000);
    }
    peakPss = Math.max(peakPss, pss.total);
    void sampleHeap();
  }, 1000);
  const cpu0 = chromiumCpuSeconds(exclude);
  const t0 = performance.now();
  try {
    await go();
    await page.getByTestId('learn-summary').waitFor({ timeout: RUN_TIMEOUT_MS });
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = chromiumCpuSeconds(exclude) - cpu0;
  peakPss = Math.max(peakPss, chromiumPssMB(exclude));
  const { long, over } = await page.evaluate(() => {
    const w = window as unknown as { __long: number[]; __over: string[] };
    return { long: w.__long, over: w.__over };
  });
  const summary = (await page.getByTestId('learn-summary').textContent()) ?? '';
  return {
    seconds,
    cpuSeconds: round(cpuSeconds, 1),
    longestTaskMs: round(Math.max(0, ...long)),
    longTasks: long.length,
    overBudget: long.filter((d) => d > BUDGET_MS).length,
    /** Each task over the budget: start (ms after the folder was chosen) + duration. */
    overBudgetAt: over,
    peakPssMB: round(peakPss, 0),
    /** The split of the peak sample by process type. */
    peakPssByType,
    /** Seconds after the folder was chosen that the peak was sampled. */
    peakPssAt,
    peakPageHeapMB: round(peakHeap, 0),
    summary: summary.replace(/\s+/g, ' ').trim(),
  };
}

/** The tab's folder input, inside its own frame (playground/src/learn/folder-frame.ts). */
const folderInput = (page: Page) =>
  page.frameLocator('[data-testid="learn-folder-frame"]').getByTestId('learn-folder-input');

async function openLearn(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('tab', { name: 'Learn' }).click();
  await folderInput(page).waitFor();
}

const suite = {
  name: 'learn-chromium',
  async run(): Promise<BenchResult[]> {
    const size = Number(process.env.LEARN_BENCH_MB ?? 100);
    const folder = writeLearnFolder(size);
    if (!folder) {
      console.warn('learn-chromium bench: ../shared/data is absent, nothing to measure');
      return [];
    }
    const { url, child } = await servePlayground();
    const exclude = new Set([child.pid ?? -1, ...descendants(child.pid ?? -1)]);
    const browser = await chromium.launch(chromiumLaunchOptions);
    try {
      const mb = folder.bytes / 1e6;
      const label = `${Math.round(mb)}MB`;
      const result = (name: string, r: Awaited<ReturnType<typeof measureRun>>, extra = {}) => ({
        name,
        medianMs: round(r.seconds * 1000, 0),
        runs: 1,
        mbPerSec: round(mb / r.seconds, 1),
        // Every Chromium process's CPU time: on a shared machine the wall clock counts others' work too.
        cpuMbPerSec: round(mb / r.cpuSeconds, 1),
        inputMB: round(mb, 1),
        files: folder.files,
        ...r,
        budgetMs: BUDGET_MS,
        withinBudget: r.overBudget === 0,
        ...extra,
      });

      // Streamed: the tab's folder input, as a person picks a folder.
      let page = await browser.newPage();
      await openLearn(page, url);
      const ours = await measureRun(page, exclude, () => folderInput(page).setInputFiles(folder.dir));
      await page.close();
      process.stderr.write(`learn-chromium: streamed ${JSON.stringify(ours)}\n`);

      // Naive: every file read into the page's memory first, then the in-memory files to the same tab.
      // LEARN_CHROMIUM_NAIVE=0 leaves it out (it takes about three times as long).
      if (process.env.LEARN_CHROMIUM_NAIVE === '0') return [result(`learn-chromium/streamed-${label}`, ours)];
      page = await browser.newPage();
      await openLearn(page, url);
      // The in-memory files are handed to the tab's input, in its frame.
      const frame = await (await page.getByTestId('learn-folder-frame').elementHandle())!.contentFrame();
      if (!frame) throw new Error('the folder input frame is missing');
      await frame.evaluate(() => {
        const input = document.createElement('input');
        input.type = 'file';
        input.multiple = true;
        input.setAttribute('webkitdirectory', '');
        input.id = 'naive-input';
        input.style.display = 'none';
        document.body.append(input);
      });
      const naive = await measureRun(page, exclude, async () => {
        await frame.locator('#naive-input').setInputFiles(folder.dir);
        await frame.evaluate(async () => {
          const picked = [...(document.getElementById('naive-input') as HTMLInputElement).files!];
          const inMemory: File[] = [];
          for (const f of picked) {
            const bytes = new Uint8Array(await f.arrayBuffer());
            inMemory.push(
              new File([bytes], f.webkitRelativePath || f.name, { lastModified: f.lastModified }),
            );
          }
          const dt = new DataTransfer();
          for (const f of inMemory) dt.items.add(f);
          const target = document.querySelector('[data-testid="learn-folder-input"]') as HTMLInputElement;
          target.files = dt.files;
          target.dispatchEvent(new Event('change', { bubbles: true }));
        });
      });
      await page.close();
      return [
        result(`learn-chromium/streamed-${label}`, ours),
        result(`learn-chromium/naive-read-all-first-${label}`, naive, {
          sameSummary: naive.summary === ours.summary,
        }),
      ];
    } finally {
      await browser.close();
      child.kill();
      folder.remove();
    }
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}

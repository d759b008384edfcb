/**
 * What the Learn tab's e2e suites share (learn.spec.ts, learn-drop.spec.ts): the real shared folders
 * they read, the folder input in its frame, and the worker's result kept on the page.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';

// Real shared sessions, read from ../shared/data (never copied into the project).
export const DATA = resolve(import.meta.dirname, '../../shared/data');
export const SESSIONS = resolve(DATA, 'claude-code-jsonl');
/** One real Cline task: one session holding several standing instructions (candidates at minSessions 1). */
export const ONE_TASK = resolve(DATA, 'cline/mike4567+MRA04242026');

/** The folder input lives in a sandboxed frame of its own (playground/src/learn/folder-frame.ts). */
export const folderInput = (page: Page) =>
  page.frameLocator('[data-testid="learn-folder-frame"]').getByTestId('learn-folder-input');

/** Every file under `dir` as [path relative to dir's parent, text]. */
export function filesUnder(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push([relative(resolve(dir, '..'), p), readFileSync(p, 'utf8')]);
    }
  };
  walk(dir);
  return out;
}

/** The worker's whole result of each run, kept on the page (read it with {@link lastResult}). */
export async function keepResults(page: Page) {
  await page.addInitScript(() => {
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.addEventListener('message', (e: MessageEvent) => {
          if (e.data?.type === 'done')
            (window as unknown as { __learned: unknown }).__learned = e.data.result;
        });
      }
    };
  });
}

/** The result {@link keepResults} kept of the last run. */
export const lastResult = (page: Page) =>
  page.evaluate(() => (window as unknown as { __learned: unknown }).__learned);

/**
 * Opens the Learn tab (min sessions 1, people's turns read by `detector`), chooses `dir` in the folder
 * input, and gives the worker's result.
 */
export async function learnChosen(page: Page, dir: string, detector = 'reader-recall'): Promise<unknown> {
  await keepResults(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  await page.getByTestId('learn-detector').selectOption(detector);
  await folderInput(page).setInputFiles(dir);
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  return lastResult(page);
}

/** What a run found, without the dates (a copied file has a new modification time). */
export const found = (r: {
  rules: { text: string; sessions: number; evidence: { session: string; message: string }[] }[];
  stats: { files: number; sessions: number };
  skipped: { name: string }[];
}) => ({
  rules: r.rules.map((x) => [x.text, x.sessions, x.evidence.map((e) => `${e.session}#${e.message}`)]),
  files: r.stats.files,
  sessions: r.stats.sessions,
  skipped: r.skipped.map((x) => x.name),
});

/** The built CLI (npm run build:cli; `npm test` builds it before these tests). */
export const CLI = resolve(import.meta.dirname, '../dist/cli/rearview.js');

/**
 * `folders` of the shared data copied side by side into a temporary folder (never into the project)
 * for `fn`; removed after. Fresh copies have sub-millisecond modification times.
 */
export async function withCopies<T>(folders: string[], fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'rearview-learn-copies-'));
  try {
    for (const f of folders) cpSync(resolve(DATA, f), join(dir, f), { recursive: true });
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `rearview learn <dir> --json --min-sessions 1 --detector <detector>` and the Learn tab's whole
 * result on the same folder ({@link learnChosen}), the tab's names made relative to `dir` as the
 * CLI's are (the tab names a file from the picked folder down, `<folder>/a/b.jsonl`).
 */
export async function learnBoth(page: Page, dir: string, detector = 'reader-recall') {
  const run = spawnSync(
    process.execPath,
    [CLI, 'learn', dir, '--json', '--min-sessions', '1', '--detector', detector],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  expect(run.status, run.stderr).toBe(0);
  const fromTab = await learnChosen(page, dir, detector);
  const prefix = `${basename(dir)}/`;
  const tab = JSON.parse(JSON.stringify(fromTab), (k, v) =>
    (k === 'name' || k === 'session') && typeof v === 'string' && v.startsWith(prefix)
      ? v.slice(prefix.length)
      : v,
  );
  return { cli: JSON.parse(run.stdout), tab };
}

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { SHOTS, trackErrors } from './helpers';

// Real shared sessions, read from ../shared/data (never copied into the project).
const DATA = resolve(import.meta.dirname, '../../shared/data');
const SESSIONS = resolve(DATA, 'claude-code-jsonl');
/** One real Cline task: one session holding several standing instructions (candidates at minSessions 1). */
const ONE_TASK = resolve(DATA, 'cline/mike4567+MRA04242026');

test.skip(!existsSync(SESSIONS), `${SESSIONS} is absent`);

/** The folder input lives in a sandboxed frame of its own (playground/src/learn/folder-frame.ts). */
const folderInput = (page: Page) =>
  page.frameLocator('[data-testid="learn-folder-frame"]').getByTestId('learn-folder-input');

/** Every file under `dir` as [path relative to dir's parent, text]. */
function filesUnder(dir: string): [string, string][] {
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
async function keepResults(page: Page) {
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
const lastResult = (page: Page) =>
  page.evaluate(() => (window as unknown as { __learned: unknown }).__learned);

/** Opens the Learn tab (min sessions 1), chooses `dir` in the folder input, and gives the worker's result. */
async function learnChosen(page: Page, dir: string): Promise<unknown> {
  await keepResults(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  await folderInput(page).setInputFiles(dir);
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  return lastResult(page);
}

/** What a run found, without the dates (a copied file has a new modification time). */
const found = (r: {
  rules: { text: string; sessions: number; evidence: { session: string; message: string }[] }[];
  stats: { files: number; sessions: number };
  skipped: { name: string }[];
}) => ({
  rules: r.rules.map((x) => [x.text, x.sessions, x.evidence.map((e) => `${e.session}#${e.message}`)]),
  files: r.stats.files,
  sessions: r.stats.sessions,
  skipped: r.skipped.map((x) => x.name),
});

test('Learn: a folder of real sessions, reviewed and exported as markdown and as a diff', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await expect(page.getByTestId('learn-pick')).toBeVisible(); // Chromium has showDirectoryPicker
  await page
    .getByTestId('learn-against')
    .evaluate((el) => ((el as HTMLDetailsElement).closest('details')!.open = true));
  await page.getByTestId('learn-against').fill('# Agents\n\n- Keep commits small.\n');
  await folderInput(page).setInputFiles(SESSIONS);
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  await expect(page.getByTestId('learn-progress')).toContainText('rules');
  const rules = page.getByTestId('learn-rule');
  await expect(rules.first()).toBeVisible();
  const first = rules.first();
  await expect(first.locator('.learn-text')).toHaveValue(/--set-upstream/);
  await first.locator('summary').click();
  await expect(first.locator('details li').first()).toContainText('.jsonl');
  await first
    .locator('.learn-text')
    .fill('Push a new branch with `git push --set-upstream origin <branch>`.');
  await first.getByRole('button', { name: 'Accept' }).click();
  await page.getByTestId('learn-export-md').click();
  await expect(page.getByTestId('learn-export')).toContainText('## Learned from sessions');
  await expect(page.getByTestId('learn-export')).toContainText(
    'Push a new branch with `git push --set-upstream',
  );
  await page.getByTestId('learn-export-diff').click();
  await expect(page.getByTestId('learn-export')).toContainText('--- a/AGENTS.md');
  await expect(page.getByTestId('learn-export')).toContainText('+- Push a new branch');
  await page.screenshot({ path: `${SHOTS}/learn.png`, fullPage: true });
  // A rejected rule is not exported.
  await first.getByRole('button', { name: 'Reject' }).click();
  await page.getByTestId('learn-export-md').click();
  await expect(page.getByTestId('learn-export')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("Learn: on one person's folder, what was said in one session can be moved into the review and exported", async ({
  page,
}) => {
  // One session, so no rule reaches two sessions, but standing instructions were said once
  // (`rearview learn` lists them as candidates too).
  const one = ONE_TASK;
  test.skip(!existsSync(one), `${one} is absent`);
  const errors = trackErrors(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await folderInput(page).setInputFiles(one);
  await expect(page.getByTestId('learn-summary')).toContainText('→ 0 rules');
  await expect(page.getByTestId('learn-rule')).toHaveCount(0);
  const oneOffs = page.getByTestId('learn-one-offs');
  await oneOffs.locator('summary').click();
  const candidate = page.getByTestId('learn-one-off').first();
  const text = (await candidate.locator('span').first().textContent()) ?? '';
  expect(text.length).toBeGreaterThan(10);
  await candidate.getByRole('button', { name: 'Review' }).click();
  await expect(candidate.getByRole('button', { name: 'In review' })).toBeDisabled();
  const rule = page.getByTestId('learn-rule');
  await expect(rule).toHaveCount(1);
  await expect(rule.locator('.learn-text')).toHaveValue(text);
  await rule.getByRole('button', { name: 'Accept' }).click();
  await page.getByTestId('learn-export-md').click();
  await expect(page.getByTestId('learn-export')).toContainText(text.slice(0, 40));
  expect(errors).toEqual([]);
});

test('Learn: cancel stops the worker and keeps what was read', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  await folderInput(page).setInputFiles(DATA);
  await expect(page.getByTestId('learn-cancel')).toBeVisible();
  await page.getByTestId('learn-cancel').click();
  await expect(page.getByTestId('learn-summary')).toContainText('Cancelled:');
  await expect(page.getByTestId('learn-cancel')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Learn: two accepted rules saved into the playbook are there after a reload, once', async ({ page }) => {
  // A folder whose one session holds at least two rules at minSessions 1.
  test.skip(!existsSync(ONE_TASK), `${ONE_TASK} is absent`);
  const errors = trackErrors(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  await folderInput(page).setInputFiles(ONE_TASK);
  const rules = page.getByTestId('learn-rule');
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  expect(await rules.count()).toBeGreaterThanOrEqual(2);
  const texts: string[] = [];
  for (const i of [0, 1]) {
    texts.push(await rules.nth(i).locator('.learn-text').inputValue());
    await rules.nth(i).getByRole('button', { name: 'Accept' }).click();
  }
  await page.getByTestId('learn-save').click();
  await expect(page.getByTestId('learn-saved')).toContainText("Saved 2 key points to the browser's playbook");

  await page.reload();
  await page.getByRole('tab', { name: 'Playbook' }).click();
  const playbook = page.getByTestId('playbook');
  for (const t of texts) await expect(playbook).toContainText(t);
  await expect(playbook).toContainText('2 key points');

  // Saving the same rules again adds nothing: the playbook's own dedup finds them there.
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  await folderInput(page).setInputFiles(ONE_TASK);
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  for (const i of [0, 1]) await rules.nth(i).getByRole('button', { name: 'Accept' }).click();
  await page.getByTestId('learn-save').click();
  await expect(page.getByTestId('learn-saved')).toContainText('Saved 0 key points');
  await expect(page.getByTestId('learn-saved')).toContainText('2 already there');
  expect(errors).toEqual([]);
});

test('Learn: the tab and `rearview learn --json` give the same result on the same real folder', async ({
  page,
}) => {
  // The built CLI (npm run build:cli; `npm test` builds it before these tests).
  const cli = resolve(import.meta.dirname, '../dist/cli/rearview.js');
  test.skip(!existsSync(cli), `${cli} is absent: run npm run build:cli`);
  const errors = trackErrors(page);
  // Two real folders side by side, copied into a temporary folder (never into the project). Their
  // names make a whole-path sort and a folder-by-folder walk disagree ('-' and '.' sort before '/':
  // `claude-code-jsonl-more/…` against `claude-code-jsonl/…`, `<id>.jsonl` against `<id>/subagents/…`),
  // and fresh copies have sub-millisecond modification times.
  const dir = mkdtempSync(join(tmpdir(), 'rearview-learn-parity-'));
  try {
    for (const f of ['claude-code-console', 'claude-code-jsonl', 'claude-code-jsonl-more'])
      cpSync(resolve(DATA, f), join(dir, f), { recursive: true });
    const run = spawnSync(process.execPath, [cli, 'learn', dir, '--json', '--min-sessions', '1'], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(run.status, run.stderr).toBe(0);
    const fromCli = JSON.parse(run.stdout);

    // The worker's whole result, as the tab receives it.
    const fromTab = await learnChosen(page, dir);
    // The tab names a file from the picked folder down (`<folder>/a/b.jsonl`), the CLI from inside it.
    const prefix = `${basename(dir)}/`;
    const renamed = JSON.parse(JSON.stringify(fromTab), (k, v) =>
      (k === 'name' || k === 'session') && typeof v === 'string' && v.startsWith(prefix)
        ? v.slice(prefix.length)
        : v,
    );
    expect(fromCli.stats.files).toBeGreaterThan(10);
    expect(fromCli.rules.length + fromCli.skipped.length).toBeGreaterThan(1);
    expect(renamed).toEqual(fromCli);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(errors).toEqual([]);
});

test('Learn: a folder dropped on the tab is walked by the worker and read as the chosen folder is', async ({
  page,
}) => {
  const errors = trackErrors(page);
  type Result = Parameters<typeof found>[0];
  const chosen = found((await learnChosen(page, SESSIONS)) as Result);
  expect(chosen.files).toBeGreaterThan(3);

  // The same files in the origin's private file system (a real FileSystemDirectoryHandle, as a drop of
  // a folder gives in Chromium), with a node_modules folder that must not be read. Playwright cannot
  // drag a folder from the desktop, so the drop's item hands out that handle.
  const files = filesUnder(SESSIONS);
  await page.evaluate(async (files) => {
    const root = await navigator.storage.getDirectory();
    const put = async (path: string, text: string) => {
      const parts = path.split('/');
      let dir = root;
      for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
      const w = await (await dir.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
      await w.write(text);
      await w.close();
    };
    for (const [path, text] of files) await put(path, text);
    await put(`${files[0]![0].split('/')[0]}/node_modules/pkg/session.jsonl`, files.at(-1)![1]);
  }, files);
  const folder = basename(SESSIONS);
  await page.evaluate(async (folder) => {
    const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
    const proto = DataTransferItem.prototype as unknown as { getAsFileSystemHandle: () => Promise<unknown> };
    proto.getAsFileSystemHandle = () => Promise.resolve(handle);
    const dt = new DataTransfer();
    dt.items.add(new File([''], folder));
    document
      .querySelector('[data-testid="learn-panel"]')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, folder);
  await expect(page.getByTestId('learn-progress')).toContainText(`${chosen.files}/${chosen.files} files`);
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  const dropped = found((await lastResult(page)) as Result);
  expect(dropped).toEqual(chosen);
  expect(errors).toEqual([]);
});

test('Learn: session files dropped on the tab are read whatever their names end with', async ({ page }) => {
  const errors = trackErrors(page);
  await keepResults(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  const [short, subagent] = ['short.jsonl', 'subagent.jsonl'].map((n) =>
    readFileSync(join(SESSIONS, n), 'utf8'),
  );
  // Files made in the page carry no handle and no entry: the drop falls back to the items' files.
  await page.evaluate(
    ({ short, subagent }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([subagent], 'subagent.jsonl'));
      dt.items.add(new File([short], 'short.session'));
      document
        .querySelector('[data-testid="learn-panel"]')!
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { short, subagent },
  );
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  await expect(page.getByTestId('learn-progress')).toContainText('2/2 files');
  const r = (await lastResult(page)) as {
    stats: { files: number };
    skipped: unknown[];
    rules: { evidence: { session: string }[] }[];
  };
  expect(r.stats.files).toBe(2);
  expect(r.skipped).toEqual([]);
  expect(errors).toEqual([]);
});

test('Learn: a rule the pasted AGENTS.md already says is not proposed; that line and a contradicted one are shown with their evidence', async ({
  page,
}) => {
  test.skip(!existsSync(ONE_TASK), `${ONE_TASK} is absent`);
  const errors = trackErrors(page);
  await learnChosen(page, ONE_TASK);
  const first = await page.getByTestId('learn-rule').first().locator('.learn-text').inputValue();
  await page
    .getByTestId('learn-against')
    .evaluate((el) => ((el as HTMLTextAreaElement).closest('details')!.open = true));
  await page
    .getByTestId('learn-against')
    .fill(`# Agents\n\n- ${first}\n- Make drastic, sweeping changes all at once.\n`);
  await folderInput(page).setInputFiles(ONE_TASK);
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  const already = page.getByTestId('learn-already');
  await expect(already).toHaveCount(1);
  const proposed = await page
    .getByTestId('learn-rule')
    .locator('.learn-text')
    .evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
  expect(proposed).not.toContain(first);
  // A line the sessions contradict, with when they last did.
  await expect(page.getByTestId('learn-contradiction')).toContainText(
    /Line 4 \("- Make drastic, sweeping changes all at once\."\) is contradicted by 1 session, last on \d{4}-\d\d-\d\d: Avoid drastic/,
  );
  await expect(already).toContainText(
    `Line 3 ("- ${first}") already says it, yet it was said again in 1 session`,
  );
  expect(errors).toEqual([]);
});

test('a folder dropped on the transcript opens the Learn tab, which reads it; an unreadable file dropped there is said so', async ({
  page,
}) => {
  test.skip(!existsSync(ONE_TASK), `${ONE_TASK} is absent`);
  const errors = trackErrors(page);
  await page.goto('/');
  const [[path, text]] = filesUnder(ONE_TASK) as [[string, string]];
  // The folder in the origin's private file system; the drop's item hands out its real handle and says
  // it is a folder, as a folder dragged from the desktop does in Chromium (Playwright cannot drag one).
  await page.evaluate(
    async ({ path, text }) => {
      const [folder, name] = path.split('/') as [string, string];
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
      const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
      await w.write(text);
      await w.close();
      const proto = DataTransferItem.prototype as unknown as Record<string, unknown>;
      proto.getAsFileSystemHandle = () => Promise.resolve(dir);
      proto.webkitGetAsEntry = () => ({ isDirectory: true, isFile: false, name: folder });
      const dt = new DataTransfer();
      dt.items.add(new File([''], folder));
      document
        .querySelector('section[aria-labelledby="input-title"] .dropzone')!
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { path, text },
  );
  await expect(page.getByRole('tab', { name: 'Learn' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('learn-summary')).toContainText('1 sessions');

  // A file gone since it was chosen (here: deleted from the private file system) cannot be read.
  await page.evaluate(async () => {
    const proto = DataTransferItem.prototype as unknown as Record<string, unknown>;
    delete proto.getAsFileSystemHandle;
    delete proto.webkitGetAsEntry;
    const root = await navigator.storage.getDirectory();
    const w = await (await root.getFileHandle('gone.jsonl', { create: true })).createWritable();
    await w.write('{"role":"user","content":"hi"}');
    await w.close();
    const file = await (await root.getFileHandle('gone.jsonl')).getFile();
    await root.removeEntry('gone.jsonl');
    const dt = new DataTransfer();
    dt.items.add(file);
    document
      .querySelector('section[aria-labelledby="input-title"] .dropzone')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await expect(page.locator('section[aria-labelledby="input-title"]')).toContainText(
    'Could not read gone.jsonl',
  );
  expect(errors).toEqual([]);
});

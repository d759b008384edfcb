/**
 * Dropping on the playground: a folder or files on the Learn tab, and a folder on the transcript,
 * which opens the Learn tab. Playwright cannot drag from the desktop, so a drop is dispatched with a
 * DataTransfer made in the page; a folder's handle is a real one, from the origin's private file system.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { trackErrors } from './helpers';
import { filesUnder, found, keepResults, lastResult, learnChosen, ONE_TASK, SESSIONS } from './learn-helpers';

test.skip(!existsSync(SESSIONS), `${SESSIONS} is absent`);

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

import { expect, test } from '@playwright/test';
import { repeatedSession, SHOTS, trackErrors } from './helpers';

test('a 3 MB transcript is processed in a worker with progress while the page keeps answering keys', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.goto('/?sample=plain');
  await page.getByTestId('detected-format').waitFor();
  const text = repeatedSession(3_000_000);

  // Keys the page handled (keydown → the next frame painted) while the worker worked: a count, not a
  // latency; input latency and long tasks under load are bench/playground.bench.ts's.
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number };
    w.__frames = 0;
    document.addEventListener('keydown', () => {
      requestAnimationFrame(() => {
        w.__frames++;
      });
    });
  });

  const probe = page.getByLabel('Near-duplicate similarity value');
  await probe.focus();
  await page.getByTestId('file-input').setInputFiles({
    name: 'big-session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  // Type while the worker works, until it is done (and a few keys more).
  const progress = page.getByTestId('progress');
  let typed = 0;
  for (; typed < 200; typed++) {
    await probe.press(typed % 2 ? 'ArrowUp' : 'ArrowDown');
    if (typed >= 20 && (await progress.getAttribute('data-state')) === 'done') break;
  }
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(progress.locator('progress')).toHaveAttribute('value', '100');
  const phases = (await progress.getAttribute('data-phases')) ?? '';
  expect(phases).toContain('Parsing');
  expect(phases).toContain('Building the snapshot');
  await expect(progress).toContainText('MB processed in a Web Worker');
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  await expect(page.getByTestId('source')).toContainText('big-session.jsonl');
  // A large file never enters a textarea: a read-only preview with its size, and Edit / Clear.
  await expect(page.locator('#transcript-input')).toHaveCount(0);
  await expect(page.getByTestId('large-preview')).toBeVisible();
  await expect(page.getByTestId('edit-large')).toBeVisible();
  await expect(page.getByTestId('clear-input')).toBeVisible();

  const frames = await page.evaluate(() => (window as unknown as { __frames: number }).__frames);
  expect(frames).toBeGreaterThanOrEqual(20);
  await page.screenshot({ path: `${SHOTS}/large-input.png` });

  // The analysis of the large input reached the page: its turns are listed. (The sample it repeats
  // holds no correction a person wrote, so the insight list is the empty note, not a list.)
  await expect(page.getByTestId('turns').locator('li').first()).toBeVisible();
  await expect(page.getByTestId('no-insights')).toBeVisible();
  expect(errors).toEqual([]);
});

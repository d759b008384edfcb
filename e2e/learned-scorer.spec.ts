/**
 * Issue 16: the Tune panel's "Learned correction scorer" switch. The model (rearview/heuristic-model)
 * is its own chunk, fetched only when the switch is turned on; with it on, the plain sample's repeated
 * instruction ("As I mentioned, run the migrations…"), which no marker flags, shows as a correction with
 * the model's score; off again, it is gone. Also: the URL, a slow import (the previous insights stay),
 * a failed import (a message, the markers' insights) and a large input analysed in the worker.
 */

import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { openSample, SHOTS, trackErrors } from './helpers';

const MODEL_CHUNK = /\/assets\/heuristic-model-[\w-]+\.js$/;
const MODEL_ONLY = 'As I mentioned, run the migrations';

const scorerSwitch = (page: Page) => page.getByRole('switch', { name: 'Learned correction scorer' });
/** The correction only the model finds, as an insight of the list. */
const modelCorrection = (page: Page) =>
  page.getByTestId('insights').locator('li.cat-correction', { hasText: MODEL_ONLY });
/** The correction the markers find too ("No, not GraphQL…"). */
const markerCorrection = (page: Page) =>
  page.getByTestId('insights').locator('li.cat-correction', { hasText: 'No, not GraphQL' });

/** Every request for the model's chunk. */
function watchModel(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (MODEL_CHUNK.test(new URL(r.url()).pathname)) seen.push(r.url());
  });
  return seen;
}

test('the switch loads the model once, shows the correction only it finds with its score, and removes it again', async ({
  page,
}) => {
  const errors = trackErrors(page);
  const model = watchModel(page);
  await openSample(page, 'plain');
  await expect(markerCorrection(page)).toBeVisible();
  await expect(scorerSwitch(page)).not.toBeChecked();
  // Everything the first visit loads has loaded: no model chunk among it.
  await page.waitForLoadState('networkidle');
  expect(model).toEqual([]);
  await expect(modelCorrection(page)).toHaveCount(0);
  await expect(page.getByTestId('scorer-status')).toHaveCount(0);

  await scorerSwitch(page).check();
  await expect(modelCorrection(page)).toBeVisible();
  // At or above the default threshold (0.75), whatever the retrained weights give exactly.
  await expect(modelCorrection(page).getByTestId('insight-score')).toHaveText(
    /^(high|medium) confidence, score 0\.(7[5-9]|[89]\d) \(learned scorer\)$/,
  );
  await expect(page.getByTestId('scorer-status')).toContainText('On:');
  expect(model).toHaveLength(1);
  await expect(page).toHaveURL(/[?&]scorer=learned(&|$)/);
  await modelCorrection(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/learned-scorer-on.png` });

  await scorerSwitch(page).uncheck();
  await expect(modelCorrection(page)).toHaveCount(0);
  await expect(markerCorrection(page)).toBeVisible();
  await expect(markerCorrection(page).getByTestId('insight-score')).toHaveText('high confidence, score 0.84');
  await expect(page).not.toHaveURL(/scorer=/);

  // On again: no second download.
  await scorerSwitch(page).check();
  await expect(modelCorrection(page)).toBeVisible();
  expect(model).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('a shared link with scorer=learned opens with the switch on', async ({ page }) => {
  const errors = trackErrors(page);
  await openSample(page, 'plain', '&scorer=learned');
  await expect(scorerSwitch(page)).toBeChecked();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page).toHaveURL(/[?&]scorer=learned(&|$)/);
  // Reset to defaults turns it off.
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(scorerSwitch(page)).not.toBeChecked();
  await expect(modelCorrection(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('while the model loads, the previous insights stay on screen', async ({ page }) => {
  const errors = trackErrors(page);
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(MODEL_CHUNK, async (route) => {
    await held;
    await route.continue();
  });
  await openSample(page, 'plain');
  await scorerSwitch(page).check();
  await expect(page.getByTestId('scorer-status')).toContainText('Loading');
  await expect(markerCorrection(page)).toBeVisible();
  await expect(page.getByTestId('insights').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('no-insights')).toHaveCount(0);
  release();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page.getByTestId('scorer-status')).toContainText('On:');
  expect(errors).toEqual([]);
});

test('a failed import says so and keeps the markers’ insights', async ({ page }) => {
  await page.route(MODEL_CHUNK, (route) => route.abort());
  await openSample(page, 'plain');
  await scorerSwitch(page).check();
  const status = page.getByTestId('scorer-status');
  await expect(status).toContainText('could not be loaded');
  await expect(status).toHaveAttribute('role', 'alert');
  await expect(page.getByTestId('insights-scorer-error')).toContainText('could not be loaded');
  await expect(markerCorrection(page)).toBeVisible();
  await expect(page.getByTestId('insights').locator('li')).toHaveCount(2);
  await expect(modelCorrection(page)).toHaveCount(0);
  await status.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/learned-scorer-failed.png` });
  // Once the network is back, switching off and on again tries again.
  await page.unroute(MODEL_CHUNK);
  await scorerSwitch(page).uncheck();
  await expect(page.getByTestId('scorer-status')).toHaveCount(0);
  await scorerSwitch(page).check();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page.getByTestId('insights-scorer-error')).toHaveCount(0);
});

test('a large input analysed in the worker follows the switch too', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('/');
  await page.getByTestId('detected-format').waitFor();
  // The plain sample, then neutral turns up to 250 KB: above the worker threshold (200 000 characters).
  const parts = [
    readFileSync(new URL('../public/samples/plain-chat.txt', import.meta.url), 'utf8').trimEnd(),
  ];
  for (let i = 0; parts.join('\n').length < 250_000; i++)
    parts.push(
      `User: Add the unit test for parser case ${i}.\nAssistant: Added test/parser-${i}.test.ts; it passes.`,
    );
  await page.getByTestId('file-input').setInputFiles({
    name: 'big-plain.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(parts.join('\n')),
  });
  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(progress).toContainText('Web Worker');
  await expect(markerCorrection(page)).toBeVisible();
  await expect(modelCorrection(page)).toHaveCount(0);

  await scorerSwitch(page).check();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(modelCorrection(page).getByTestId('insight-score')).toHaveText(
    /score 0\.(7[5-9]|[89]\d) \(learned/,
  );
  await expect(page.getByTestId('scorer-status')).toContainText('On:');
  await scorerSwitch(page).uncheck();
  await expect(modelCorrection(page)).toHaveCount(0);
  await expect(markerCorrection(page)).toBeVisible();
  expect(errors).toEqual([]);
});

/**
 * The Tune panel's choice of what reads people's turns: the reader at its lower thresholds (the
 * default), the reader at its own, the markers or the learned correction scorer. Each learned scorer
 * (rearview/heuristic-model) is a chunk of its own, fetched when it is first needed (the reader's on the
 * first visit, since it is the default); with one on, the plain sample's repeated instruction ("As I
 * mentioned, run the migrations…"), which no marker flags, shows as a correction with the model's score;
 * with the markers, it is gone. Also: the URL, a slow import (the previous insights stay), a failed
 * import (a message, the markers' insights) and a large input analysed in the worker.
 */

import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { openSample, openWithText, SHOTS, trackErrors } from './helpers';

const MODEL_CHUNK = /\/assets\/heuristic-model-[\w-]+\.js$/;
const READER_CHUNK = /\/assets\/reader-model-[\w-]+\.js$/;
const MODEL_ONLY = 'As I mentioned, run the migrations';

/** The choice of what reads people's turns. */
const choice = (
  page: Page,
  name: 'Markers' | 'Learned correction scorer' | 'Reader (default)' | 'Reader, higher thresholds',
) => page.getByRole('radio', { name, exact: true });
const scorerSwitch = (page: Page) => choice(page, 'Learned correction scorer');
const markersChoice = (page: Page) => choice(page, 'Markers');
/** The correction only the model finds, as an insight of the list. */
const modelCorrection = (page: Page) =>
  page.getByTestId('insights').locator('li.cat-correction', { hasText: MODEL_ONLY });
/** The correction the markers find too ("No, not GraphQL…"). */
const markerCorrection = (page: Page) =>
  page.getByTestId('insights').locator('li.cat-correction', { hasText: 'No, not GraphQL' });

/** Holds every request for `chunk` until the returned function is called (a slow network). */
async function holdChunk(page: Page, chunk: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(chunk, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Every request for a chunk (the correction scorer's by default). */
function watchModel(page: Page, chunk = MODEL_CHUNK): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (chunk.test(new URL(r.url()).pathname)) seen.push(r.url());
  });
  return seen;
}

test('the learned correction scorer loads the model once, shows the correction only it finds with its score, and the markers remove it again', async ({
  page,
}) => {
  const errors = trackErrors(page);
  const model = watchModel(page);
  await openSample(page, 'plain', '&scorer=markers');
  await expect(markerCorrection(page)).toBeVisible();
  await expect(scorerSwitch(page)).not.toBeChecked();
  await expect(markersChoice(page)).toBeChecked();
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

  await markersChoice(page).check();
  await expect(modelCorrection(page)).toHaveCount(0);
  await expect(markerCorrection(page)).toBeVisible();
  await expect(markerCorrection(page).getByTestId('insight-score')).toHaveText('high confidence, score 0.83');
  await expect(page).toHaveURL(/[?&]scorer=markers(&|$)/);

  // On again: no second download.
  await scorerSwitch(page).check();
  await expect(modelCorrection(page)).toBeVisible();
  expect(model).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('a shared link with scorer=learned opens with the learned correction scorer chosen', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await openSample(page, 'plain', '&scorer=learned');
  await expect(scorerSwitch(page)).toBeChecked();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page).toHaveURL(/[?&]scorer=learned(&|$)/);
  // Reset to defaults goes back to the reader at its lower thresholds, which finds that correction too.
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(scorerSwitch(page)).not.toBeChecked();
  await expect(choice(page, 'Reader (default)')).toBeChecked();
  await expect(modelCorrection(page).getByTestId('insight-score')).toContainText('(reader)');
  await expect(page).not.toHaveURL(/scorer=/);
  expect(errors).toEqual([]);
});

test("by default the reader reads people's turns: its chunk on the first visit, every category scored, a clean URL", async ({
  page,
}) => {
  const errors = trackErrors(page);
  const model = watchModel(page);
  const readerChunk = watchModel(page, READER_CHUNK);
  await openSample(page, 'plain');
  await expect(choice(page, 'Reader (default)')).toBeChecked();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page.getByTestId('scorer-status')).toContainText('reader');
  await expect(page).not.toHaveURL(/scorer=/);
  // Every insight of a person's turn carries the reader's score, the approval too.
  const people = page.getByTestId('insights').locator('li.cat-correction, li.cat-approval');
  await expect(people).toHaveCount(3);
  for (const score of await people.getByTestId('insight-score').allTextContents())
    expect(score).toMatch(/, score 0\.\d\d \(reader\)$/);
  await modelCorrection(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/reader-on.png` });
  await page.waitForLoadState('networkidle');
  expect(readerChunk).toHaveLength(1);
  expect(model).toEqual([]);
  expect(errors).toEqual([]);
});

test('the reader at its higher thresholds and the correction scorer: their own labels and links, each chunk fetched once', async ({
  page,
}) => {
  const errors = trackErrors(page);
  const model = watchModel(page);
  const readerChunk = watchModel(page, READER_CHUNK);
  await openSample(page, 'plain', '&scorer=markers');
  await expect(markerCorrection(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(readerChunk).toEqual([]);
  await choice(page, 'Reader, higher thresholds').check();
  // "No, not GraphQL…" is a correction at both of the reader's thresholds (the repeated instruction,
  // 0.79, is one at its lower thresholds only: at the higher ones the list is fewer and surer).
  await expect(markerCorrection(page).getByTestId('insight-score')).toContainText(
    '(reader, higher thresholds)',
  );
  await expect(page).toHaveURL(/[?&]scorer=reader(&|$)/);
  expect(readerChunk).toHaveLength(1);
  expect(model).toEqual([]);
  // The correction scorer loads its own chunk; back to the reader, nothing is fetched again.
  await scorerSwitch(page).check();
  await expect(page.getByTestId('scorer-status')).toContainText('model’s');
  await expect(modelCorrection(page).getByTestId('insight-score')).toContainText('(learned scorer)');
  await expect(page).toHaveURL(/[?&]scorer=learned(&|$)/);
  await choice(page, 'Reader, higher thresholds').check();
  // "No, not GraphQL…" is a correction at both of the reader's thresholds (the repeated instruction,
  // 0.79, is one at its lower thresholds only: at the higher ones the list is fewer and surer).
  await expect(markerCorrection(page).getByTestId('insight-score')).toContainText(
    '(reader, higher thresholds)',
  );
  expect(model).toHaveLength(1);
  expect(readerChunk).toHaveLength(1);
  // The default: the same chunk, its own label, no key in the link.
  await choice(page, 'Reader (default)').check();
  await expect(modelCorrection(page).getByTestId('insight-score')).toContainText('(reader)');
  await expect(page).not.toHaveURL(/scorer=/);
  expect(readerChunk).toHaveLength(1);
  // A shared link opens with the reader at its higher thresholds chosen.
  await openSample(page, 'plain', '&scorer=reader');
  await expect(choice(page, 'Reader, higher thresholds')).toBeChecked();
  await expect(markerCorrection(page).getByTestId('insight-score')).toContainText(
    '(reader, higher thresholds)',
  );
  expect(errors).toEqual([]);
});

test('while the model loads, the previous insights stay on screen', async ({ page }) => {
  const errors = trackErrors(page);
  const release = await holdChunk(page, MODEL_CHUNK);
  await openSample(page, 'plain', '&scorer=markers');
  await scorerSwitch(page).check();
  await expect(page.getByTestId('scorer-status')).toContainText('Loading');
  await expect(page.getByTestId('insights-scorer-loading')).toBeVisible();
  await expect(markerCorrection(page)).toBeVisible();
  // The markers' five: a correction, two preferences that state rules, friction ("As I mentioned"),
  // an approval.
  await expect(page.getByTestId('insights').locator('li')).toHaveCount(5);
  await expect(page.getByTestId('no-insights')).toHaveCount(0);
  release();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page.getByTestId('scorer-status')).toContainText('On:');
  await expect(page.getByTestId('insights-scorer-loading')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('on a first visit the markers’ insights show, said to be so, until the default reader has loaded', async ({
  page,
}) => {
  const errors = trackErrors(page);
  const release = await holdChunk(page, READER_CHUNK);
  await openSample(page, 'plain');
  await expect(choice(page, 'Reader (default)')).toBeChecked();
  await expect(page.getByTestId('insights-scorer-loading')).toBeVisible();
  await expect(markerCorrection(page)).toBeVisible();
  await expect(modelCorrection(page)).toHaveCount(0);
  release();
  await expect(modelCorrection(page).getByTestId('insight-score')).toContainText('(reader)');
  await expect(page.getByTestId('insights-scorer-loading')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a failed import says so and keeps the markers’ insights', async ({ page }) => {
  await page.route(MODEL_CHUNK, (route) => route.abort());
  await openSample(page, 'plain', '&scorer=markers');
  await scorerSwitch(page).check();
  const status = page.getByTestId('scorer-status');
  await expect(status).toContainText('could not be loaded');
  await expect(status).toHaveAttribute('role', 'alert');
  await expect(page.getByTestId('insights-scorer-error')).toContainText('could not be loaded');
  await expect(markerCorrection(page)).toBeVisible();
  // The markers' five: a correction, two preferences that state rules, friction ("As I mentioned"),
  // an approval.
  await expect(page.getByTestId('insights').locator('li')).toHaveCount(5);
  await expect(modelCorrection(page)).toHaveCount(0);
  await status.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/learned-scorer-failed.png` });
  // Once the network is back, choosing the markers and the scorer again tries again.
  await page.unroute(MODEL_CHUNK);
  await markersChoice(page).check();
  await expect(page.getByTestId('scorer-status')).toHaveCount(0);
  await scorerSwitch(page).check();
  await expect(modelCorrection(page)).toBeVisible();
  await expect(page.getByTestId('insights-scorer-error')).toHaveCount(0);
});

test('a large input analysed in the worker follows the choice too', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('/?scorer=markers');
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
  // The reader, imported by the worker too.
  await choice(page, 'Reader, higher thresholds').check();
  await expect(markerCorrection(page).getByTestId('insight-score')).toContainText(
    '(reader, higher thresholds)',
  );
  await expect(page.getByTestId('scorer-status')).toContainText('reader');
  await markersChoice(page).check();
  await expect(modelCorrection(page)).toHaveCount(0);
  await expect(markerCorrection(page)).toBeVisible();
  expect(errors).toEqual([]);
});

test('the markers of eight more languages are added to the lists with one click, and read Spanish and Chinese corrections', async ({
  page,
}) => {
  const errors = trackErrors(page);
  const chunks: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/languages-[\w-]+\.js$/.test(new URL(r.url()).pathname)) chunks.push(r.url());
  });
  await openWithText(
    page,
    JSON.stringify([
      { role: 'user', content: 'Agrega un botón de guardar.' },
      { role: 'assistant', content: 'Listo, agregué el botón en la barra y ya funciona.' },
      { role: 'user', content: 'El botón sigue sin guardar los datos.' },
      { role: 'assistant', content: 'Lo reviso.' },
      { role: 'user', content: '保存按钮还是不对，点了没有反应' },
      { role: 'assistant', content: '我再检查一下。' },
    ]),
  );
  // The markers alone: the reader finds the Chinese one without the lists.
  await markersChoice(page).check();
  const spanish = page
    .getByTestId('insights')
    .locator('li.cat-correction', { hasText: 'correction: El botón sigue sin guardar' });
  const chinese = page.getByTestId('insights').locator('li.cat-correction', { hasText: '还是不对' });
  await expect(page.getByTestId('detected-format')).toBeVisible();
  await expect(spanish).toHaveCount(0);
  await expect(chinese).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(chunks).toEqual([]);
  await page.getByText('Heuristic markers (change the Insights and Learn tabs)').click();
  const add = page.getByTestId('language-markers').getByRole('button');
  await expect(add).toHaveText('Add eight more languages');
  await add.click();
  await expect(add).toHaveText('Eight more languages added');
  await expect(add).toBeDisabled();
  await expect(page.getByLabel('Correction markers')).toHaveValue(/\nsigue sin\n/);
  await expect(spanish).toHaveCount(1);
  await expect(chinese).toHaveCount(1);
  // The lists came in a chunk of their own, fetched on the click.
  expect(chunks).toHaveLength(1);
  // Reset to defaults: English only again.
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(spanish).toHaveCount(0);
  await expect(add).toBeEnabled();
  expect(errors).toEqual([]);
});

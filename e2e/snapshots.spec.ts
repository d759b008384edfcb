import { expect, test } from '@playwright/test';
import { PARAM_NAMES, PARAM_SPECS } from '../lib/snapshot/index.ts';
import { claudeSession } from '../test/fixtures/claude-session.ts';
import { openSample, openWithText, REFLECT_GATE, SHOTS, trackErrors } from './helpers';

test('a slider changes the deterministic snapshot at once, and the URL carries it', async ({ page }) => {
  const errors = trackErrors(page);
  await openSample(page, 'console');
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  const det = page.getByTestId('deterministic-snapshot');
  await expect(det.locator('li').first()).toBeVisible();
  const before = await det.locator('li').count();

  // The DOM is updated within the slider's own input event (Solid updates synchronously): read in
  // the same task, with no frame in between. How long that task takes is bench/playground.bench.ts's.
  const items = await page.evaluate(() => {
    const range = document.getElementById('set-maxCategoryItems') as HTMLInputElement;
    range.value = '2';
    range.dispatchEvent(new Event('input', { bubbles: true }));
    return document.querySelectorAll('[data-testid="deterministic-snapshot"] li').length;
  });
  expect(items).toBeLessThan(before);
  await expect(page).toHaveURL(/items=2/);
  await expect(page).toHaveURL(/sample=console/);

  // The shared URL restores the threshold and the sample.
  await page.goto(page.url());
  await expect(page.getByLabel('Items per category (cap) value')).toHaveValue('2');
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code console');
  expect(errors).toEqual([]);
});

test("every slider carries the library's range, step and default (PARAM_SPECS)", async ({ page }) => {
  const errors = trackErrors(page);
  await openSample(page, 'console');
  for (const name of PARAM_NAMES) {
    const { min, max, step, label } = PARAM_SPECS[name];
    const range = page.locator(`#set-${name}`);
    await expect(range, name).toHaveAttribute('min', String(min));
    await expect(range, name).toHaveAttribute('max', String(max));
    await expect(range, name).toHaveAttribute('step', String(step));
    await expect(page.getByLabel(`${label} value`)).toHaveValue(String(PARAM_SPECS[name].default));
  }
  expect(errors).toEqual([]);
});

test('with the default gate, the console sample keeps its deterministic snapshot and says how to reflect', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await openSample(page, 'console');
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('diagnostics')).toContainText('skipped (below_threshold)');
  await expect(page.getByText('under minSnapshotTokens. Lower it in Tune to reflect anyway.')).toBeVisible();
  // Lowered in Tune, the same click reflects.
  await page.getByLabel(`${PARAM_SPECS.minSnapshotTokens.label} value`).fill('200');
  await page.getByLabel(`${PARAM_SPECS.minSnapshotTokens.label} value`).press('Enter');
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('diagnostics')).toContainText('used');
  expect(errors).toEqual([]);
});

test('the offline reflection shows the diff, the diagnostics and the token savings', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await openSample(page, 'console', REFLECT_GATE);
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  // The samples were redacted before bundling: nothing left to replace.
  await expect(page.getByTestId('redaction-preview')).toContainText('0 values replaced');
  await page.getByTestId('run-reflection').click();
  const diag = page.getByTestId('diagnostics');
  await expect(diag).toBeVisible();
  await expect(diag).toContainText('used');
  await expect(diag).toContainText('recorded answer');
  await expect(diag).toContainText('tokens in / out');
  await expect(diag).toContainText('latency');
  const refl = page.getByTestId('reflected-snapshot');
  await expect(refl.locator('[data-mark="consolidated"]').first()).toBeVisible();
  await expect(
    page.getByTestId('deterministic-snapshot').locator('[data-mark="dropped"]').first(),
  ).toBeVisible();
  await expect(page.getByTestId('token-chart')).toContainText('saves');
  await expect(page.getByTestId('retired').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/snapshots-light.png`, fullPage: true });

  // Raising minSavingsTokens past the savings keeps the deterministic snapshot, and says why.
  await page.getByLabel('Adopt from savings value').fill('1000');
  await page.getByLabel('Adopt from savings value').press('Enter');
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('skipped-reason')).toContainText('insufficient_savings');

  // Pasted text has no recording: offline mode says so in plain words.
  await page
    .getByLabel('Transcript text')
    .fill('User: Fix the login bug reported by jane.doe@corp.io.\nAssistant: Looking at auth.ts now.');
  const redaction = page.getByTestId('redaction-preview');
  await expect(redaction).toContainText('1 value replaced');
  await redaction.locator('summary').click();
  await expect(redaction).toContainText('[email-1]');
  await expect(redaction).toContainText('jane.doe@corp.io');
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('skipped-reason')).toContainText('below_threshold');
  await page.getByLabel('Reflect from snapshot size value').fill('0');
  await page.getByLabel('Reflect from snapshot size value').press('Enter');
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('llm-error')).toContainText('No recording for this input');
  await expect(page.getByTestId('llm-error')).toContainText('Anthropic mode');
  expect(errors).toEqual([]);
});

test('a session that records its folder lists evidence relative to it, and says so', async ({ page }) => {
  const errors = trackErrors(page);
  const session = claudeSession('/Users/ana/shop', [
    'Fix the cart total test',
    'The total is computed in /Users/ana/shop/src/cart/total.ts and tested in /Users/ana/shop/test/total.test.ts.',
    'It runs in /Users/ana/shop, go on.',
  ]);
  await openWithText(page, session);
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  const det = page.getByTestId('deterministic-snapshot');
  await expect(det).toContainText('src/cart/total.ts');
  await expect(det).not.toContainText('/Users/ana/shop');
  await page.getByText('How the snapshot input is built from a transcript').click();
  await expect(page.getByTestId('snapshot-root')).toHaveText('/Users/ana/shop');
  await expect(page.getByText('the folder the transcript records')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a session that records no folder has it read from its paths, and says so', async ({ page }) => {
  const errors = trackErrors(page);
  const session = JSON.stringify([
    { role: 'user', content: 'Fix the cart total' },
    {
      role: 'assistant',
      content:
        'I have read /Users/ana/shop/src/cart.ts and /Users/ana/shop/lib/tax.ts. The bug is in src/cart.ts: it adds lib/tax.ts twice.',
    },
  ]);
  await openWithText(page, session);
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  const det = page.getByTestId('deterministic-snapshot');
  await expect(det).toContainText('src/cart.ts');
  await expect(det).not.toContainText('/Users/ana/shop');
  await page.getByText('How the snapshot input is built from a transcript').click();
  await expect(page.getByTestId('snapshot-root')).toHaveText('/Users/ana/shop');
  await expect(page.getByText('read from its paths', { exact: false })).toBeVisible();
  expect(errors).toEqual([]);
});

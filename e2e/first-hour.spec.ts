/**
 * A new user's first hour in the playground, in real Chromium: the reflected column marked stale on
 * any settings change, moved items shown as moved, readable slider labels, a paste replacing the
 * auto-loaded sample, pastes above 10 MB refused with an offer to open the file, the provider named
 * in Local mode, a skip link, accessible tab names, and no sideways scroll at 390 px with every tab
 * in view.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { lessons, lessonsInputOf } from '../lib/session/index.ts';
import { PARAM_NAMES, PARAM_SPECS, readSnapshotSource } from '../lib/snapshot/index.ts';
import { type MockAnthropic, startMockAnthropic } from '../test/llm/mock-anthropic.ts';
import { openSample, REFLECT_GATE, recordedAnswer, SHOTS, trackErrors } from './helpers';

let mock: MockAnthropic;
test.beforeAll(async () => {
  mock = await startMockAnthropic();
});
test.afterAll(async () => {
  await mock.close();
});

async function reflectThroughMock(page: Page) {
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByLabel('Anthropic API').check();
  await page.getByLabel('Proxy URL (optional)').fill(mock.url);
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('diagnostics')).toContainText('yes (Anthropic)');
}

test('the reflected column is marked stale after any settings change, and fresh after a new run', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await openSample(page, 'console', REFLECT_GATE);
  mock.script([{ kind: 'json', text: recordedAnswer('console') }]);
  await reflectThroughMock(page);
  const stale = page.getByTestId('stale');
  await expect(stale).toHaveCount(0);

  // A snapshot cap, a reduction number and a marker list: each makes the run stale.
  await page.getByLabel('Items per category (cap) value').fill('3');
  await page.getByLabel('Items per category (cap) value').press('Enter');
  await expect(stale).toContainText('Stale: the settings changed since this run');
  await expect(page.getByTestId('reflected-snapshot')).toHaveClass(/stale/);

  await page.getByTestId('run-reflection').click();
  await expect(stale).toHaveCount(0);
  await page.getByLabel('AgentDiet θ (tokens) value').fill('700');
  await page.getByLabel('AgentDiet θ (tokens) value').press('Enter');
  await expect(stale).toContainText('the settings changed');

  await page.getByTestId('run-reflection').click();
  await expect(stale).toHaveCount(0);
  // The model changes too: the run was Anthropic's.
  await page.getByLabel('Local model').check();
  await expect(stale).toContainText('the model changed (this run used Anthropic)');
  expect(errors).toEqual([]);
});

test('an item the reflection moved to another category shows as moved (from → to) on both sides', async ({
  page,
}) => {
  await openSample(page, 'console', REFLECT_GATE);
  const item = 'Import errors and setup issues ARE legitimate reasons for tests to fail in the RED phase!';
  const det = page.getByTestId('deterministic-snapshot');
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await expect(det.getByText(item, { exact: true })).toBeVisible();
  // The recorded answer with that next action filed under blockers instead.
  const recorded = recordedAnswer('console');
  const answer = recorded.replace(`"next_actions": [\n    "${item}"\n  ]`, '"next_actions": []');
  expect(answer).not.toBe(recorded);
  const moved = answer.replace('"blockers": [', `"blockers": [\n    "${item}",`);
  expect(moved).not.toBe(answer);
  mock.script([{ kind: 'json', text: moved }]);
  await reflectThroughMock(page);
  const refl = page.getByTestId('reflected-snapshot');
  const inRefl = refl.locator('li', { hasText: item });
  await expect(inRefl).toHaveAttribute('data-mark', 'moved');
  await expect(inRefl).toContainText('Next actions → Blockers');
  const inDet = det.locator('li', { hasText: item });
  await expect(inDet).toHaveAttribute('data-mark', 'moved');
  await expect(inDet).toContainText('Next actions → Blockers');
  await expect(page.locator('[data-mark="dropped"]', { hasText: item })).toHaveCount(0);
  await expect(page.locator('[data-mark="added"]', { hasText: item })).toHaveCount(0);
});

test('every slider is labelled with its PARAM_SPECS label, never an identifier', async ({ page }) => {
  await openSample(page, 'console');
  for (const name of PARAM_NAMES) {
    const spec = PARAM_SPECS[name];
    await expect(page.locator(`label[for="set-${name}"]`)).toHaveText(spec.label);
    await expect(page.getByLabel(`${spec.label} value`)).toBeVisible();
  }
  await expect(page.getByText('minSnapshotTokens', { exact: true })).toHaveCount(0);
  await expect(page.getByText('minSavingsTokens', { exact: true })).toHaveCount(0);
});

test('pasting a whole transcript into the auto-loaded sample replaces it, with a way back', async ({
  page,
  context,
}) => {
  const errors = trackErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await expect(page.getByTestId('source')).toContainText('Sample:');
  const jsonl = readFileSync(new URL('../public/samples/claude-code-short.jsonl', import.meta.url), 'utf8');
  await page.evaluate((t) => navigator.clipboard.writeText(t), jsonl);
  const editor = page.getByLabel('Transcript text');
  // A click in the middle of the sample, no select-all: the caret is inside the sample's text.
  await editor.click();
  await editor.press('ArrowDown');
  await page.keyboard.press('ControlOrMeta+V');
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  await expect(page.getByTestId('source')).toHaveText('Pasted text');
  expect(await editor.inputValue()).toBe(jsonl);
  await expect(page.getByTestId('paste-replaced')).toContainText('The paste replaced the sample');
  await page.getByTestId('paste-replaced').getByRole('button', { name: 'Put the sample back' }).click();
  await expect(page.getByTestId('source')).toContainText('Sample:');
  // A one-line snippet in an edited input is inserted as usual.
  await editor.click();
  await editor.press('End');
  await editor.type(' ');
  await page.evaluate(() => navigator.clipboard.writeText('snippet'));
  await page.keyboard.press('ControlOrMeta+V');
  expect(await editor.inputValue()).toContain(' snippet');
  expect(errors).toEqual([]);
});

test('a paste above 10 MB is not read: the page offers to open or drop the file instead', async ({
  page,
  context,
}) => {
  const errors = trackErrors(page);
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  await context.grantPermissions(['clipboard-write']);
  await openSample(page, 'plain');
  await page.evaluate(() => navigator.clipboard.writeText('x'.repeat(12_000_000)));
  await page.getByLabel('Transcript text').focus();
  await page.keyboard.press('ControlOrMeta+V');
  const offer = page.getByTestId('paste-too-large');
  await expect(offer).toContainText('This paste is 12.0 MB: pastes above 10.0 MB are not read');
  await expect(offer.getByRole('button', { name: 'Open file…' })).toBeVisible();
  // Nothing was taken: the sample is still the input.
  await expect(page.getByTestId('source')).toContainText('Sample:');
  await expect(page.getByTestId('detected-format')).toHaveText('Plain text');
  await offer.getByRole('button', { name: 'Dismiss' }).click();
  await expect(offer).toHaveCount(0);
  expect(crashed).toBe(false);
  expect(errors).toEqual([]);
});

test('Local mode names the local model on every button; Anthropic mode names Anthropic', async ({ page }) => {
  await openSample(page, 'swe-agent');
  await page.getByRole('tab', { name: 'Trajectory reduction' }).click();
  const diet = page.getByTestId('run-diet');
  await page.getByLabel('Local model').check();
  await expect(diet).toContainText('AgentDiet with the local model');
  await expect(diet).not.toContainText('Anthropic');
  await page.getByLabel('Anthropic API').check();
  await expect(diet).toContainText('AgentDiet with Anthropic');
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByLabel('Local model').check();
  await expect(page.getByTestId('run-reflection')).toHaveText('Reflect with the local model');
});

test('a skip link leads from the top to the results; the Insights tab is named "Insights (N)"', async ({
  page,
}) => {
  await openSample(page, 'console');
  const n = await page.getByTestId('insights').locator('> li').count();
  await expect(page.getByRole('tab', { name: `Insights (${n})`, exact: true })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#results')).toBeFocused();
  // The next Tab is inside the results: the selected tab.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { selected: true })).toBeFocused();
});

test('at 390 px: no sideways scroll with the steps and licences tables, and every tab in view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await openSample(page, 'swe-agent');
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  // Every tab lies inside the strip and the window, none scrolled out of sight.
  const tabs = await page.evaluate(() => {
    const strip = document.querySelector('[role="tablist"]')!;
    return {
      clipped: strip.scrollWidth - strip.clientWidth,
      outside: [...strip.querySelectorAll('[role="tab"]')]
        .map((t) => t.getBoundingClientRect())
        .filter((r) => r.left < 0 || r.right > window.innerWidth || r.width === 0).length,
      count: strip.querySelectorAll('[role="tab"]').length,
    };
  });
  // Five tabs: the four result views and Learn.
  expect(tabs).toEqual({ clipped: 0, outside: 0, count: 5 });
  await page.getByRole('tab', { name: 'Trajectory reduction' }).click();
  await expect(page.getByTestId('reduction-steps').locator('tbody tr').first()).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'About & licences' }).click();
  await expect(page.locator('table.licences tbody tr').first()).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.locator('table.licences').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/first-hour-390-licences.png` });
  await page.getByRole('tablist').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/first-hour-390-steps.png` });
});

test("the Insights tab lists the file's key points: the CLI's list (lessons of rearview/session)", async ({
  page,
}) => {
  await openSample(page, 'plain');
  const text = readFileSync(new URL('../public/samples/plain-chat.txt', import.meta.url), 'utf8');
  const expected = lessons(lessonsInputOf(readSnapshotSource(text))).proposed;
  expect(expected.length).toBeGreaterThan(0);
  const list = page.getByTestId('key-points');
  await list.locator('summary').click();
  await expect(list.locator('summary')).toContainText(`Key points (${expected.length})`);
  await expect(list.locator('li')).toHaveText(
    expected.map((k) => `[${k.section}] ${k.text}${k.context ? ` — corrected: ${k.context}` : ''}`),
  );
});

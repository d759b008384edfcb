import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, test } from '@playwright/test';
import { SHOTS, trackErrors } from './helpers';
import {
  CLI,
  DATA,
  folderInput,
  lastResult,
  learnBoth,
  learnChosen,
  ONE_TASK,
  SESSIONS,
  withCopies,
} from './learn-helpers';

test.skip(!existsSync(SESSIONS), `${SESSIONS} is absent`);

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
  test.skip(!existsSync(CLI), `${CLI} is absent: run npm run build:cli`);
  const errors = trackErrors(page);
  // Two real folders side by side. Their names make a whole-path sort and a folder-by-folder walk
  // disagree ('-' and '.' sort before '/': `claude-code-jsonl-more/…` against `claude-code-jsonl/…`,
  // `<id>.jsonl` against `<id>/subagents/…`).
  await withCopies(['claude-code-console', 'claude-code-jsonl', 'claude-code-jsonl-more'], async (dir) => {
    const { cli, tab } = await learnBoth(page, dir);
    expect(cli.stats.files).toBeGreaterThan(10);
    expect(cli.rules.length + cli.skipped.length).toBeGreaterThan(1);
    expect(tab).toEqual(cli);
  });
  expect(errors).toEqual([]);
});

test('Learn: with a learned scorer chosen, the tab gives what `rearview learn --detector` gives', async ({
  page,
}) => {
  test.skip(!existsSync(CLI), `${CLI} is absent: run npm run build:cli`);
  const errors = trackErrors(page);
  const chunks: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/(?:reader|heuristic)-model-[\w-]+\.js$/.test(r.url())) chunks.push(basename(r.url()));
  });
  const fetched: string[][] = [];
  await withCopies(['claude-code-console', 'claude-code-jsonl'], async (dir) => {
    const results: unknown[] = [];
    for (const detector of ['markers', 'reader']) {
      chunks.length = 0;
      const { cli, tab } = await learnBoth(page, dir, detector);
      expect(tab, detector).toEqual(cli);
      results.push(tab);
      fetched.push([...chunks]);
    }
    // The reader's rules are not the markers': the choice reached the worker.
    expect(results[0]).not.toEqual(results[1]);
  });
  // The page reads people's turns with the reader by default, so each visit fetches its chunk; the
  // worker fetches its own only for a run that reads with it: one chunk with the markers, two with the reader.
  for (const c of fetched.flat()) expect(c).toMatch(/^reader-model-/);
  expect(fetched[0]).toHaveLength(1);
  expect(fetched[1]).toHaveLength(2);
  expect(new Set(fetched[1]).size).toBe(2);
  expect(fetched[1]).toContain(fetched[0]![0]);
  expect(errors).toEqual([]);
});

test("Learn: the tab's choice of reader is the Tune panel's, kept in the link", async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Learn' }).click();
  // The reader at its lower thresholds by default, as `rearview learn`; a default link stays clean.
  await expect(page.getByTestId('learn-detector')).toHaveValue('reader-recall');
  await page.getByTestId('learn-detector').selectOption('reader');
  await expect(page).toHaveURL(/[?&]scorer=reader\b/);
  await expect(page.getByRole('radio', { name: 'Reader, higher thresholds', exact: true })).toBeChecked();
  // Opened from the link, both the tab and the Tune panel have it.
  await page.goto('/?scorer=learned');
  await page.getByRole('tab', { name: 'Learn' }).click();
  await expect(page.getByTestId('learn-detector')).toHaveValue('correction-model');
  await expect(page.getByRole('radio', { name: 'Learned correction scorer', exact: true })).toBeChecked();
  await page.getByTestId('learn-detector').selectOption('markers');
  await expect(page).toHaveURL(/[?&]scorer=markers\b/);
  await expect(page.getByRole('radio', { name: 'Markers', exact: true })).toBeChecked();
  await page.getByTestId('learn-detector').selectOption('reader-recall');
  await expect(page).not.toHaveURL(/scorer=/);
  await expect(page.getByRole('radio', { name: 'Reader (default)', exact: true })).toBeChecked();
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

test('Learn: a date in "since" counts only the evidence from that day on', async ({ page }) => {
  test.skip(!existsSync(ONE_TASK), `${ONE_TASK} is absent`);
  const errors = trackErrors(page);
  const all = (await learnChosen(page, ONE_TASK)) as {
    rules: { lastDate: string }[];
    filtered: Record<string, number>;
  };
  expect(all.rules.length).toBeGreaterThan(1);
  expect(all.filtered['before since']).toBeUndefined();
  // Two days after the task's last evidence (the tab reads the day in local time): nothing is left.
  const last = all.rules
    .map((r) => r.lastDate)
    .sort()
    .at(-1)!;
  const next = new Date(Date.parse(last.slice(0, 10)) + 2 * 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('learn-since').fill(next);
  await folderInput(page).setInputFiles(ONE_TASK);
  await expect(page.getByTestId('learn-summary')).toContainText('→ 0 rules');
  await expect(page.getByTestId('learn-summary')).toContainText(
    new RegExp(`\\d+ findings dated before ${next} left out\\.`),
  );
  const late = (await lastResult(page)) as { rules: unknown[]; filtered: Record<string, number> };
  expect(late.rules).toEqual([]);
  expect(late.filtered['before since']).toBeGreaterThan(1);
  expect(errors).toEqual([]);
});

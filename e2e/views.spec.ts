import { expect, test } from '@playwright/test';
import { failureSession } from '../test/fixtures/failure-session';
import { TURN_CASES, turnMessages } from '../test/fixtures/turn-cases';
import { openMessages, openSample, openWithText, SHOTS, trackErrors } from './helpers';

test('trajectory reduction step by step: deterministic compaction and offline AgentDiet', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await openSample(page, 'mini-swe-agent', '&theta=100');
  await expect(page.getByTestId('detected-format')).toHaveText('mini-swe-agent trajectory (.traj.json)');
  await page.getByRole('tab', { name: 'Trajectory reduction' }).click();
  await expect(page.getByTestId('compaction-summary')).toContainText('tokens');
  const rows = page.getByTestId('reduction-steps').locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await page.getByTestId('run-diet').click();
  await expect(page.getByTestId('diet-summary')).toContainText('step(s) accepted');
  await expect(page.getByTestId('diet-summary')).not.toContainText(' 0 step(s) accepted');
  await expect(page.getByTestId('reduction-steps')).toContainText('accepted');
  await page.getByTestId('reduction-steps').locator('details summary').first().click();
  await page.screenshot({ path: `${SHOTS}/reduction-light.png`, fullPage: true });
  expect(errors).toEqual([]);
});

test('dark mode, a narrow screen and keyboard navigation', async ({ page }) => {
  const errors = trackErrors(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSample(page, 'console');
  await page.screenshot({ path: `${SHOTS}/insights-dark.png` });
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('diagnostics')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/snapshots-dark.png`, fullPage: true });

  // Keyboard: arrow keys move between tabs.
  await page.getByRole('tab', { name: 'Snapshots' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Trajectory reduction' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('tab', { name: 'Trajectory reduction' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Playbook' })).toBeFocused();

  await page.getByRole('button', { name: 'About & licences' }).click();
  await expect(page.getByTestId('about')).toContainText('MIT License');
  await expect(page.getByTestId('about')).toContainText('palimondo/BookMinder');
  await expect(page.getByTestId('about')).toContainText('rearview/redact');
  await page.screenshot({ path: `${SHOTS}/about-dark.png` });

  // Narrow screen: one column, nothing wider than the viewport.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('tab', { name: 'Insights' }).click();
  await page.screenshot({ path: `${SHOTS}/narrow-light.png`, fullPage: true });
  // No horizontal scrolling of the page (the tab strip scrolls on its own).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
});

test('a failure lesson whose fix worked once, for that task, says so and proposes no key point', async ({
  page,
}) => {
  const errors = await openMessages(page, failureSession(true));
  const insights = page.getByTestId('insights').locator('> li');
  await expect(insights).toHaveCount(2);
  const oneOff = insights.filter({ hasText: 'change `test:e2e` to `test:e2e:ci`' });
  await expect(oneOff.getByTestId('one-off')).toContainText('not proposed as a key point');
  await expect(oneOff.getByTestId('proposal')).toHaveCount(0);
  // The setup step is a rule: a key point, and no one-off note.
  const rule = insights.filter({ hasText: 'first run `source .venv/bin/activate`' });
  await expect(rule.getByTestId('proposal')).toContainText('Key point (MISTAKES TO AVOID)');
  await expect(rule.getByTestId('one-off')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a correction shows the key point written from it, or that it is evidence only; never the detector's placeholder", async ({
  page,
}) => {
  const errors = await openMessages(page, [
    { role: 'user', content: 'Set up the project.' },
    { role: 'assistant', content: 'Done, I fixed the tests.' },
    { role: 'user', content: 'No, that is still broken, the login page shows a blank screen.' },
    { role: 'assistant', content: 'Run npm install.' },
    { role: 'user', content: 'No, always use pnpm instead of npm in this repository.' },
  ]);
  const insights = page.getByTestId('insights').locator('> li');
  await expect(insights).toHaveCount(2);
  // The complaint is the key point's "turn before": it is still no key point of its own.
  const complaint = insights.filter({ hasText: 'User correction: No, that is still broken' });
  await expect(complaint.getByTestId('evidence-only')).toContainText('Evidence only');
  await expect(complaint.getByTestId('proposal')).toHaveCount(0);
  await expect(complaint).not.toContainText("Apply the user's correction.");
  const rule = insights.filter({ hasText: 'User correction: No, always use pnpm' });
  await expect(rule.getByTestId('proposal')).toContainText(
    'Always use pnpm instead of npm in this repository.',
  );
  await expect(rule.getByTestId('evidence-only')).toHaveCount(0);
  expect(errors).toEqual([]);
});

for (const { category, turns, keyPoint, placeholder } of TURN_CASES) {
  test(`${category} shows the key point written from the turn, or that it is evidence only; never the detector's placeholder`, async ({
    page,
  }) => {
    const errors = await openMessages(page, turnMessages(turns));
    const found = page.getByTestId('insights').locator(`> li.cat-${category}`);
    await expect(found).toHaveCount(2);
    await expect(found.nth(0).getByTestId('evidence-only')).toContainText('Evidence only');
    await expect(found.nth(1).getByTestId('proposal')).toContainText(keyPoint);
    await expect(page.getByTestId('insights')).not.toContainText(placeholder);
    expect(errors).toEqual([]);
  });
}

test('a typo in a key point is repaired as the CLI repairs it, once the dictionary arrives; the insight quotes the turn as typed', async ({
  page,
}) => {
  const errors = await openMessages(page, [
    { role: 'user', content: 'Set up the specs.' },
    {
      role: 'assistant',
      content: 'I will run the specs before every push, and before a commit: before, always.',
    },
    { role: 'user', content: 'No, always run the specs beforu you push.' },
  ]);
  const insight = page.getByTestId('insights').locator('> li').filter({ hasText: 'beforu you push' });
  await expect(insight.getByTestId('proposal')).toContainText('Always run the specs before you push.');
  expect(errors).toEqual([]);
});

test('a turn with two rules shows both key points under its insight, and adds both to the playbook', async ({
  page,
}) => {
  const errors = await openMessages(page, [
    { role: 'user', content: 'Set up the project.' },
    { role: 'assistant', content: 'Run npm install.' },
    {
      role: 'user',
      content: 'No, always use pnpm instead of npm in this repository. Never push to main without asking me.',
    },
  ]);
  const insights = page.getByTestId('insights').locator('> li');
  await expect(insights).toHaveCount(1);
  const proposals = insights.first().getByTestId('proposal');
  await expect(proposals).toHaveCount(2);
  await expect(proposals.nth(0)).toContainText('Always use pnpm instead of npm in this repository.');
  await expect(proposals.nth(1)).toContainText('Never push to main without asking me.');
  await insights.first().getByRole('button', { name: 'Add to playbook' }).click();
  await expect(page.getByTestId('insight-status')).toContainText('Added 2 key points to the playbook');
  expect(errors).toEqual([]);
});

test('calls the person declined are counted apart from failed tools, and are no blocker', async ({
  page,
}) => {
  const errors = trackErrors(page);
  // Claude Code's notice for a declined call, as its JSONL logs it (a tool_result with is_error).
  const line = (o: object) => JSON.stringify(o);
  const declined =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  await openWithText(
    page,
    [
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Start the server.' } }),
      line({
        type: 'assistant',
        uuid: 'a1',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf build' } }],
        },
      }),
      line({
        type: 'user',
        uuid: 'r1',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: declined, is_error: true }],
        },
      }),
    ].join('\n'),
  );
  await expect(page.getByTestId('count-declined-calls')).toHaveText('1');
  await expect(page.getByTestId('count-tool-errors')).toHaveText('0');
  await page.getByRole('tab', { name: /Snapshot/ }).click();
  await expect(page.getByText('STOP what you are doing')).toHaveCount(0);
  expect(errors).toEqual([]);
});

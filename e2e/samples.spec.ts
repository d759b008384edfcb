import { expect, test } from '@playwright/test';
import { openSample, SHOTS, trackErrors } from './helpers';

test('a bundled sample loads with its format, counts and insights; an insight scrolls to its turn', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSample(page, 'console');
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code console');
  await expect(page.getByTestId('count-messages')).not.toHaveText('0');
  const insights = page.getByTestId('insights').locator('li');
  await expect(insights.first()).toBeVisible();
  expect(await insights.count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('insights')).toContainText('Correction');
  await page.screenshot({ path: `${SHOTS}/insights-light.png`, fullPage: false });

  await insights
    .first()
    .getByRole('button', { name: /Go to turn/ })
    .click();
  const highlighted = page.locator('.turn.highlighted');
  await expect(highlighted).toHaveCount(1);
  await expect(highlighted).toBeInViewport();
  await expect(highlighted).toContainText('W8!!!');
  expect(errors).toEqual([]);
});

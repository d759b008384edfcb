import { expect, test } from '@playwright/test';

test('the playground shell shows the header, the version and an empty workspace', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('rearview');
  await expect(page.getByTestId('version')).toHaveText(/^v\d+\.\d+\.\d+$/);
  await expect(page.getByTestId('workspace')).toBeVisible();
  const input = page.getByLabel('Transcript text');
  await input.fill('User: hello\nAssistant: hi');
  await expect(page.getByTestId('char-count')).toHaveText('25 characters');
  await page.screenshot({ path: 'test-results/screenshots/shell.png', fullPage: true });
  expect(errors).toEqual([]);
});

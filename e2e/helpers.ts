import type { Page } from '@playwright/test';

export const SHOTS = 'test-results/screenshots';

/** Collects uncaught page errors so a spec can assert there were none. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Opens the playground on a sample and waits until it is analysed. */
export async function openSample(page: Page, sample: string, query = ''): Promise<void> {
  await page.goto(`/?sample=${sample}${query}`);
  await page.getByTestId('detected-format').waitFor();
}

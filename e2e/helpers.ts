import { readFileSync } from 'node:fs';
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

/**
 * About `targetBytes` of Claude Code JSONL: the bundled session excerpt repeated, with unique ids per
 * copy, for the large-input tests.
 */
export function repeatedSession(targetBytes: number): string {
  const excerpt = readFileSync(
    new URL('../public/samples/claude-code-short.jsonl', import.meta.url),
    'utf8',
  ).trimEnd();
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const copy = excerpt.replace(/"(uuid|parentUuid|id|tool_use_id)":"/g, `"$1":"r${i}-`);
    parts.push(copy);
    size += copy.length + 1;
  }
  return `${parts.join('\n')}\n`;
}

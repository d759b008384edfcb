import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export const SHOTS = 'test-results/screenshots';

/**
 * The recorded reflection of a bundled sample (public/fixtures), as the model's reply text: a valid
 * answer a mock Messages API or OpenAI-compatible server can send back.
 */
export function recordedAnswer(sample: string): string {
  const index = JSON.parse(readFileSync(new URL('../public/fixtures/index.json', import.meta.url), 'utf8'));
  const key = index.samples[sample].snapshot as string;
  const jsonl = readFileSync(new URL('../public/fixtures/reflections.jsonl', import.meta.url), 'utf8');
  return JSON.parse(jsonl.split('\n').find((l) => l.includes(key))!).text;
}

/** Collects uncaught page errors so a spec can assert there were none. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Opens the playground and types `text` into the editor, once the first sample is in: text filled
 * before it loads would be replaced by it.
 */
export async function openWithText(page: Page, text: string): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('source')).toContainText('Sample:');
  await page.getByLabel('Transcript text').fill(text);
}

/**
 * {@link openWithText} with a conversation as the playground's JSON input (`[{ role, content }, …]`),
 * collecting the page's uncaught errors from before it opens.
 */
export async function openMessages(page: Page, messages: readonly unknown[]): Promise<string[]> {
  const errors = trackErrors(page);
  await openWithText(page, JSON.stringify(messages));
  return errors;
}

/**
 * The query that lowers the reflection gate for the console sample: its deterministic snapshot (267
 * tokens, its evidence relative to the folder read from its paths) is under the default `minSnapshotTokens` (400), so with the defaults the playground skips the
 * reflection and says why (snapshots.spec.ts); the tests of the reflected path open it with this.
 */
export const REFLECT_GATE = '&minSnap=200';

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

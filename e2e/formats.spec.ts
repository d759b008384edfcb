import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { trackErrors } from './helpers';

const samples = (name: string) => readFileSync(new URL(`../public/samples/${name}`, import.meta.url), 'utf8');

// Every transcript format the import layer reads, pasted into the editor: detected and counted.
const CASES: [string, string, string][] = [
  ['Claude Code session (JSONL)', 'claude-code-short.jsonl', 'claude-code-jsonl'],
  ['Claude Code console', 'bookminder-day-002.md', 'claude-code-console'],
  ['ShareGPT', 'sharegpt-8a6K0Ju_21.json', 'sharegpt'],
  ['Anthropic Messages JSON', 'anthropic-messages.json', 'anthropic'],
  ['OpenAI chat JSON', 'openai-chat.json', 'openai'],
  ['Plain text', 'plain-chat.txt', 'plain'],
  ['SWE-agent trajectory (.traj)', 'swe-agent-function-calling.traj', 'swe-agent'],
  ['mini-swe-agent trajectory (.traj.json)', 'psf__requests-1142.traj.json', 'mini-swe-agent'],
];

test('pasting each supported format detects it and shows its counts', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('/');
  await page.getByTestId('detected-format').waitFor();
  const editor = page.getByLabel('Transcript text');
  for (const [name, file] of CASES) {
    await editor.fill(samples(file));
    await expect(page.getByTestId('detected-format'), file).toHaveText(name);
    await expect(page.getByTestId('source')).toHaveText('Pasted text');
    await expect(page.getByTestId('count-messages')).not.toHaveText('0');
  }
  // Generic JSONL (one message per line) too.
  await editor.fill('{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n');
  await expect(page.getByTestId('detected-format')).toHaveText('JSONL messages');
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  // A pasted transcript with a correction the detector knows.
  await editor.fill(
    'User: Use REST.\nAssistant: I added a GraphQL query.\nUser: No, not GraphQL. I said REST.',
  );
  await expect(page.getByTestId('insights')).toContainText('User correction: No, not GraphQL');
  expect(errors).toEqual([]);
});

test('bad input shows a located error and keeps the text in the editor', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('detected-format').waitFor();
  const editor = page.getByLabel('Transcript text');
  const bad =
    '{"role":"user","content":"fine"}\n{"role":"assistant","content":"ok"}\n{"role": "user", "content": oops}\n';
  await editor.fill(bad);
  const alert = page.getByTestId('parse-error');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('line 3');
  await expect(alert).toContainText('[jsonl]');
  await expect(editor).toHaveValue(bad);
  await page.screenshot({ path: 'test-results/screenshots/parse-error.png' });
  // Fixing the text clears the error.
  await editor.fill(bad.replace('oops', '"fixed"'));
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId('count-messages')).toHaveText('3');
});

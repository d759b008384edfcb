import { expect, type Page, test } from '@playwright/test';
import { type MockAnthropic, startMockAnthropic } from '../test/llm/mock-anthropic.ts';
import { openSample, recordedAnswer, SHOTS, trackErrors } from './helpers';

let mock: MockAnthropic;
test.beforeAll(async () => {
  mock = await startMockAnthropic();
});
test.afterAll(async () => {
  await mock.close();
});

async function useProxy(page: Page, key = '') {
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByLabel('Anthropic API').check();
  await page.getByLabel('Proxy URL (optional)').fill(mock.url);
  await page.getByLabel('API key').fill(key);
}

test('Anthropic mode through a proxy URL: reflection, redaction before sending, 429 and a bad key in plain words', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await openSample(page, 'console');
  await useProxy(page);
  await expect(page.getByTestId('run-reflection')).toHaveText('Reflect with Anthropic');

  // A good answer: adopted, with the provider's token usage in the diagnostics.
  mock.script([
    { kind: 'json', text: recordedAnswer('console'), usage: { input_tokens: 4321, output_tokens: 567 } },
  ]);
  await page.getByTestId('run-reflection').click();
  const diag = page.getByTestId('diagnostics');
  await expect(diag).toContainText('yes (Anthropic)');
  await expect(diag).toContainText('4321 / 567');
  await expect(
    page.getByTestId('reflected-snapshot').locator('[data-mark="consolidated"]').first(),
  ).toBeVisible();
  expect(mock.requests).toHaveLength(1);
  expect(mock.requests[0]!.path).toBe('/v1/messages');

  // Redaction runs before anything is sent.
  await page.getByLabel('Reflect from snapshot size value').fill('0');
  await page.getByLabel('Reflect from snapshot size value').press('Enter');
  await page
    .getByLabel('Transcript text')
    .fill(
      'User: The invoice export fails for jane.doe@corp.io, please fix it.\nAssistant: Looking at export.ts.',
    );
  mock.script([{ kind: 'json', text: 'I cannot answer in JSON today.' }]);
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('skipped-reason')).toContainText('parse_error');
  const sent = JSON.stringify(mock.requests[0]!.body);
  expect(sent).not.toContain('jane.doe@corp.io');
  expect(sent).toContain('[email-1]');

  // 429 with retry-after: the retry is announced, then the failure is explained.
  mock.script([
    {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests exceeded' } },
    },
  ]);
  await page.getByTestId('run-reflection').click();
  await expect(page.getByTestId('retry-status')).toContainText('Rate limited, retrying in 1 s');
  const alert = page.getByTestId('llm-error');
  await expect(alert).toContainText('Rate limited (HTTP 429)', { timeout: 10_000 });
  await expect(alert).toContainText('Wait a minute and try again');
  expect(mock.requests).toHaveLength(2); // one retry, then the user is told
  await page.screenshot({ path: `${SHOTS}/anthropic-429.png` });

  // A refused key.
  await page.getByLabel('API key').fill('sk-ant-api03-not-a-real-key-000000000000');
  mock.script([
    {
      kind: 'status',
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    },
  ]);
  await page.getByTestId('run-reflection').click();
  await expect(alert).toContainText('The API key was refused');
  // The key went to the server (as x-api-key or a bearer token, depending on the SDK version).
  expect(JSON.stringify(mock.requests[0]!.headers)).toContain('sk-ant-api03-not-a-real-key-000000000000');

  // No server at all: offline / unreachable.
  await page.getByLabel('Proxy URL (optional)').fill('http://127.0.0.1:9/');
  await page.getByTestId('run-reflection').click();
  await expect(alert).toContainText('Could not reach the API', { timeout: 15_000 });
  expect(errors).toEqual([]);
});

test('the API key is kept only after consent, and one click forgets it', async ({ page }) => {
  await openSample(page, 'plain');
  await useProxy(page, 'sk-ant-api03-remember-me-000000000000000');
  await page.reload();
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByLabel('Anthropic API').check();
  await expect(page.getByLabel('API key')).toHaveValue(''); // not remembered without consent

  await page.getByLabel('API key').fill('sk-ant-api03-remember-me-000000000000000');
  // Ticking the box stores the key and swaps the box for a note and a Forget button.
  await page.getByLabel(/Remember the key on this device/).click();
  await expect(page.getByText('The key is remembered on this device.')).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByLabel('Anthropic API').check();
  await expect(page.getByLabel('API key')).toHaveValue('sk-ant-api03-remember-me-000000000000000');
  await page.getByRole('button', { name: 'Forget the key' }).click();
  await expect(page.getByLabel('API key')).toHaveValue('');
  await page.reload();
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await page.getByLabel('Anthropic API').check();
  await expect(page.getByLabel('API key')).toHaveValue('');
});

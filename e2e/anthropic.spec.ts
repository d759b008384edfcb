import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type MockAnthropic, startMockAnthropic } from '../test/llm/mock-anthropic.ts';
import { openSample, REFLECT_GATE, recordedAnswer, SHOTS, trackErrors } from './helpers';

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
  await openSample(page, 'console', REFLECT_GATE);
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

test('Learn: the model rewords the review list only after its estimate is accepted, and what it changed is shown', async ({
  page,
}) => {
  const task = resolve(import.meta.dirname, '../../shared/data/cline/mike4567+MRA04242026');
  test.skip(!existsSync(task), `${task} is absent`);
  const errors = trackErrors(page);
  await page.goto('/');
  await useProxy(page);
  await page.getByRole('tab', { name: 'Learn' }).click();
  await page.getByTestId('learn-min-sessions').fill('1');
  await page
    .frameLocator('[data-testid="learn-folder-frame"]')
    .getByTestId('learn-folder-input')
    .setInputFiles(task);
  const rules = page.getByTestId('learn-rule');
  await expect(page.getByTestId('learn-summary')).toContainText('sessions');
  expect(await rules.count()).toBeGreaterThanOrEqual(3);
  const second = await rules.nth(1).locator('.learn-text').inputValue();
  // A person's edit goes as shown, but redacted: a key typed into a rule never reaches the model.
  const third = rules.nth(2).locator('.learn-text');
  const key = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01234567-AbCdEf';
  await third.fill(`Use the staging key ${key} for smoke tests.`);

  // The estimate first: nothing is sent until "Ask" (scripting the reply clears the requests seen).
  mock.script([
    {
      kind: 'json',
      text: '[{"id":"v0","text":"Keep every change small enough to review in one sitting."},{"id":"v1","text":null}]',
      usage: { input_tokens: 1234, output_tokens: 56 },
    },
  ]);
  await page.getByTestId('learn-model-estimate').click();
  await expect(page.getByTestId('learn-model-confirm')).toContainText(
    /About [\d,]+ input and at most [\d,]+ output/,
  );
  expect(mock.requests).toHaveLength(0);
  await page.getByTestId('learn-model-ask').click();
  const result = page.getByTestId('learn-model-result');
  await expect(result).toContainText('Reported: 1,234 input + 56 output tokens');
  await expect(result).toContainText(
    '1 rule reworded, 1 the model would drop (marked rejected), 0 rewrites refused',
  );
  expect(mock.requests).toHaveLength(1);
  // What was sent: the rules of the list, as shown.
  const sent = JSON.stringify(mock.requests.at(-1)!.body);
  expect(sent).toContain(JSON.stringify(second).slice(1, 30));
  expect(sent).not.toContain(key.slice(0, 24));
  expect(sent).toContain('Use the staging key [anthropic-key-1] for smoke tests.');
  await expect(rules.first().locator('.learn-text')).toHaveValue(
    'Keep every change small enough to review in one sitting.',
  );
  await expect(rules.nth(1).getByRole('button', { name: 'Reject' })).toHaveAttribute('aria-pressed', 'true');
  await page.screenshot({ path: `${SHOTS}/learn-model.png`, fullPage: true });

  // A slow reply can be cancelled: the request stops and the list stays as it was.
  mock.script([
    {
      kind: 'json',
      text: '[{"id":"v0","text":"Never merge on a Friday afternoon."}]',
      usage: { input_tokens: 10, output_tokens: 5 },
      delayMs: 20_000,
    },
  ]);
  await page.getByTestId('learn-model-estimate').click();
  await page.getByTestId('learn-model-ask').click();
  await expect(page.getByTestId('learn-model')).toContainText('Asking');
  await expect.poll(() => mock.requests.length).toBe(1);
  await page.getByTestId('learn-model-cancel').click();
  await expect(result).toContainText('Not changed: Cancelled.');
  await expect(page.getByTestId('learn-model-cancel')).toHaveCount(0);
  await expect(rules.first().locator('.learn-text')).toHaveValue(
    'Keep every change small enough to review in one sitting.',
  );

  // The person still decides: the reworded rule is exported once accepted.
  await rules.first().getByRole('button', { name: 'Accept' }).click();
  await page.getByTestId('learn-export-md').click();
  await expect(page.getByTestId('learn-export')).toContainText('Keep every change small enough to review');
  expect(errors).toEqual([]);
});

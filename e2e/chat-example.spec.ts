/**
 * examples/web-chat in real Chromium: two chat sessions against the local Messages API server through
 * the example's own server (which adds the key server-side). A correction made in the first session
 * becomes a key point in IndexedDB and is injected, with its id and the citation directive, into the
 * system prompt of the second session's request. Starts its own servers on ephemeral ports.
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { startChatServer } from '../examples/web-chat/serve.mjs';
import { type MockAnthropic, startMockAnthropic } from '../test/llm/mock-anthropic';

const KEY = 'sk-ant-api03-web-chat-e2e-secret-0123456789';
let mock: MockAnthropic;
let chat: { url: string; close: () => Promise<void> };

test.beforeAll(async () => {
  mock = await startMockAnthropic();
  chat = await startChatServer({ port: 0, upstream: mock.url, apiKey: KEY });
});

test.afterAll(async () => {
  await chat?.close();
  await mock?.close();
});

type Body = { system?: string; messages: { role: string; content: string }[] };
const chatRequests = () =>
  mock.requests.map((r) => r.body as Body).filter((b) => b.system?.startsWith('You are a concise'));

async function say(page: Page, text: string, answers: number) {
  await page.getByTestId('input').fill(text);
  await page.getByTestId('send').click();
  await expect(page.locator('.msg.assistant')).toHaveCount(answers);
}

test('a correction in session 1 is injected into the system prompt of session 2', async ({ context }) => {
  const browserRequests: Request[] = [];
  context.on('request', (r) => {
    browserRequests.push(r);
  });
  mock.script([
    { kind: 'json', text: 'Run npm install.' },
    { kind: 'json', text: 'Understood: pnpm install.' },
    // endSession: the Reflector, then the Curator.
    { kind: 'json', text: JSON.stringify({ analysis: 'The user wants pnpm, not npm.', bullet_tags: [] }) },
    { kind: 'json', text: JSON.stringify({ reasoning: 'Already captured.', operations: [] }) },
    { kind: 'json', text: 'Following [mis-001]: pnpm add zod.' },
  ]);

  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(chat.url);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('playbook')).toContainText('Nothing learned yet');

  // A second tab on the same origin: its panel follows the first tab's changes (BroadcastChannel).
  const other = await context.newPage();
  await other.goto(chat.url);
  await expect(other.locator('body')).toHaveAttribute('data-ready', 'true');

  // Session 1.
  await say(page, 'How do I install the dependencies?', 1);
  await say(page, 'No, use pnpm instead of npm.', 2);
  await expect(page.getByTestId('status')).toContainText('Noted 1 lesson');
  await page.getByTestId('end-session').click();
  await expect(page.getByTestId('status')).toContainText('Session ended: 1 added');
  const keyPoint = page.locator('[data-key-point="mis-001"]');
  await expect(keyPoint).toContainText('[mis-001] Use pnpm instead of npm.');
  await expect(other.locator('[data-key-point="mis-001"]')).toContainText('Use pnpm instead of npm.');

  // It is in IndexedDB.
  const stored = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('rearview-web-chat');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('playbooks', 'readonly');
          const get = tx.objectStore('playbooks').get('pb:default:doc');
          get.onsuccess = () => {
            resolve(JSON.stringify(get.result ?? null));
            db.close();
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
  expect(stored).toContain('Use pnpm instead of npm.');

  // Session 2: a reload, a new question.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(keyPoint).toBeVisible();
  await say(page, 'How do I add the zod package?', 1);

  const requests = chatRequests();
  expect(requests).toHaveLength(3);
  expect(requests[0]!.system).not.toContain('[mis-001]');
  const second = requests[2]!;
  expect(second.messages).toEqual([{ role: 'user', content: 'How do I add the zod package?' }]);
  expect(second.system).toContain('- [mis-001] Use pnpm instead of npm.');
  expect(second.system).toContain('When a key point from the playbook influences your response, cite its ID');

  // The key was added by the server: every upstream request has it, no browser request does.
  expect(mock.requests.length).toBe(5);
  for (const r of mock.requests) expect(r.headers['x-api-key']).toBe(KEY);
  const fromBrowser = browserRequests.filter((r) => r.url().endsWith('/v1/messages'));
  expect(fromBrowser.length).toBe(5);
  for (const r of fromBrowser) {
    expect(JSON.stringify(await r.allHeaders())).not.toContain(KEY);
    expect(r.url().startsWith(chat.url)).toBe(true);
  }
  expect(errors).toEqual([]);
});

test('the proxy refuses other origins, requests without an Origin and other methods', async ({ request }) => {
  const cross = await request.post(`${chat.url}/v1/messages`, {
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    data: { model: 'x', max_tokens: 1, messages: [] },
  });
  expect(cross.status()).toBe(403);
  // No Origin at all (curl, any local process): refused too, and nothing reaches the model.
  const before = mock.requests.length;
  const bare = await request.post(`${chat.url}/v1/messages`, {
    headers: { 'content-type': 'application/json' },
    data: { model: 'x', max_tokens: 1, messages: [] },
  });
  expect(bare.status()).toBe(403);
  expect((await bare.json()).error.message).toContain('missing Origin');
  expect(mock.requests.length).toBe(before);
  // The page's own origin goes through to the model.
  mock.script([{ kind: 'json', text: 'hello' }]);
  const same = await request.post(`${chat.url}/v1/messages`, {
    headers: { origin: chat.url, 'content-type': 'application/json' },
    data: { model: 'x', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  });
  expect(same.status()).toBe(200);
  expect(mock.requests).toHaveLength(1); // script() starts a fresh request log
  expect((await request.get(`${chat.url}/v1/messages`)).status()).toBe(405);
  expect((await request.get(`${chat.url}/../../package.json`)).status()).toBe(404);
});

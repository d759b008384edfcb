import { expect, test } from '@playwright/test';
import { repeatedSession, SHOTS, trackErrors } from './helpers';

test('a 3 MB transcript is processed in a worker with progress while the page keeps answering keys', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.goto('/?sample=plain');
  await page.getByTestId('detected-format').waitFor();
  const text = repeatedSession(3_000_000);

  // Keys the page handled (keydown → the next frame painted) while the worker worked: a count, not a
  // latency; input latency and long tasks under load are bench/playground.bench.ts's.
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number };
    w.__frames = 0;
    document.addEventListener('keydown', () => {
      requestAnimationFrame(() => {
        w.__frames++;
      });
    });
  });

  const probe = page.getByLabel('Near-duplicate similarity value');
  await probe.focus();
  await page.getByTestId('file-input').setInputFiles({
    name: 'big-session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  // Type while the worker works, until it is done (and a few keys more).
  const progress = page.getByTestId('progress');
  let typed = 0;
  for (; typed < 200; typed++) {
    await probe.press(typed % 2 ? 'ArrowUp' : 'ArrowDown');
    if (typed >= 20 && (await progress.getAttribute('data-state')) === 'done') break;
  }
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(progress.locator('progress')).toHaveAttribute('value', '100');
  const phases = (await progress.getAttribute('data-phases')) ?? '';
  expect(phases).toContain('Parsing');
  expect(phases).toContain('Building the snapshot');
  await expect(progress).toContainText('MB processed in a Web Worker');
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  await expect(page.getByTestId('source')).toContainText('big-session.jsonl');
  // A large file never enters a textarea: a read-only preview with its size, and Edit / Clear.
  await expect(page.locator('#transcript-input')).toHaveCount(0);
  await expect(page.getByTestId('large-preview')).toBeVisible();
  await expect(page.getByTestId('edit-large')).toBeVisible();
  await expect(page.getByTestId('clear-input')).toBeVisible();

  const frames = await page.evaluate(() => (window as unknown as { __frames: number }).__frames);
  expect(frames).toBeGreaterThanOrEqual(20);
  await page.screenshot({ path: `${SHOTS}/large-input.png` });

  // The analysis of the large input reached the page: its turns are listed. (The sample it repeats
  // holds no correction a person wrote, so the insight list is the empty note, not a list.)
  await expect(page.getByTestId('turns').locator('li').first()).toBeVisible();
  await expect(page.getByTestId('no-insights')).toBeVisible();
  expect(errors).toEqual([]);
});

/**
 * Records what the page sends to its worker (type, text length, whether a file handle) and the size
 * of every message it receives, so the specs can check how the work is cut without timing anything:
 * task lengths depend on the machine's load and are bench/playground.bench.ts's.
 */
const recordWorkerTraffic = () => {
  type Sent = { type: string; chars?: number; file?: boolean };
  type Received = { type: string; path?: string; json: number };
  const w = window as unknown as { __sent: Sent[]; __received: Received[] };
  w.__sent = [];
  w.__received = [];
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.addEventListener('message', (e: MessageEvent) => {
        w.__received.push({ type: e.data.type, path: e.data.path, json: JSON.stringify(e.data).length });
      });
    }
    override postMessage(message: { type: string; text?: string; file?: unknown }, transfer?: unknown) {
      w.__sent.push({
        type: message.type,
        ...(typeof message.text === 'string' ? { chars: message.text.length } : {}),
        ...(message.file instanceof Blob ? { file: true } : {}),
      });
      super.postMessage(message, transfer as Transferable[]);
    }
  };
};

type Traffic = {
  sent: { type: string; chars?: number; file?: boolean }[];
  received: { type: string; path?: string; json: number }[];
};
const traffic = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __sent: Traffic['sent']; __received: Traffic['received'] };
    return { sent: w.__sent, received: w.__received } as Traffic;
  });

/** The largest message the page received: the old one-message-per-list view sent 2 MB of turns at once. */
const LARGEST_MESSAGE = 400_000;

test('a 5 MB paste goes to the worker in pieces and comes back in pieces, whole', async ({
  page,
  context,
}) => {
  const errors = trackErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(recordWorkerTraffic);
  await page.goto('/?sample=plain');
  await page.getByTestId('detected-format').waitFor();
  const text = repeatedSession(5_000_000);
  await page.route('**/__paste.jsonl', (route) => route.fulfill({ body: text, contentType: 'text/plain' }));
  await page.evaluate(async () =>
    navigator.clipboard.writeText(await (await fetch('/__paste.jsonl')).text()),
  );
  await page.getByLabel('Transcript text').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');

  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('source')).toHaveText('Pasted text');
  await expect(page.getByTestId('large-preview')).toBeVisible();
  await expect(page.locator('#transcript-input')).toHaveCount(0);
  await expect(page.getByTestId('char-count')).toHaveText(
    `${text.length.toLocaleString('en-US')} characters`,
  );
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');

  const { sent, received } = await traffic(page);
  // The text went in 500,000-character pieces (TEXT_PIECE of worker-client.ts), all of it, then the ask.
  const pieces = sent.filter((m) => m.type === 'text');
  expect(pieces).toHaveLength(Math.ceil(text.length / 500_000));
  expect(pieces.every((m) => (m.chars ?? 0) <= 500_000)).toBe(true);
  expect(pieces.reduce((n, m) => n + (m.chars ?? 0), 0)).toBe(text.length);
  expect(sent.filter((m) => m.type === 'analyze')).toHaveLength(1);
  // The view came back as pieces of its long lists and a small rest, none of them large.
  const items = received.filter((m) => m.type === 'items');
  expect(items.filter((m) => m.path === 'turns').length).toBeGreaterThan(1);
  expect(items.filter((m) => m.path === 'input.entries').length).toBeGreaterThan(1);
  expect(Math.max(...received.map((m) => m.json))).toBeLessThanOrEqual(LARGEST_MESSAGE);
  // Put back whole: the turn list holds as many turns as the counts say messages.
  const messages = await page.getByTestId('count-messages').textContent();
  await expect(page.getByRole('heading', { name: `Turns (${messages})` })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a dropped 12 MB file is read by the worker: the page passes the file, not its text', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.addInitScript(recordWorkerTraffic);
  await page.goto('/?sample=plain');
  await page.getByTestId('detected-format').waitFor();
  const text = repeatedSession(12_000_000);
  await page.route('**/__drop.jsonl', (route) => route.fulfill({ body: text, contentType: 'text/plain' }));
  await page.evaluate(async () => {
    const blob = await (await fetch('/__drop.jsonl')).blob();
    const dt = new DataTransfer();
    dt.items.add(new File([blob], 'dropped.jsonl'));
    document
      .querySelector('.dropzone')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true }));
  });
  await expect(page.getByTestId('progress')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('source')).toContainText('File: dropped.jsonl');
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  const { sent, received } = await traffic(page);
  expect(sent.filter((m) => m.type === 'text')).toEqual([]);
  expect(sent.filter((m) => m.type === 'analyze')).toEqual([{ type: 'analyze', file: true }]);
  expect(Math.max(...received.map((m) => m.json))).toBeLessThanOrEqual(LARGEST_MESSAGE);
  const messages = await page.getByTestId('count-messages').textContent();
  await expect(page.getByRole('heading', { name: `Turns (${messages})` })).toBeVisible();
  expect(errors).toEqual([]);
});

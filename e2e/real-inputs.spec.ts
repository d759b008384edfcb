/**
 * Issue 22, the playground with real inputs, in real Chromium: a 5 MB paste of a real session
 * without a crash (its long tasks are bench/playground.bench.ts's), the parse-error jump, local model
 * mode against a local OpenAI-compatible server, and no horizontal overflow at 1,440 px and 390 px.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type MockOpenAi, startMockOpenAi } from '../test/llm/mock-openai.ts';
import { openSample, recordedAnswer, repeatedSession, SHOTS, trackErrors } from './helpers';

const SESSIONS = new URL('../../shared/data/claude-code-jsonl/', import.meta.url).pathname;

/** ≥ 5 MB of real Claude Code JSONL: whole lines of the shared sessions, in order. */
function realSession(target = 5_000_000): string | null {
  if (!existsSync(SESSIONS)) return null;
  const files = readdirSync(SESSIONS)
    .filter((f) => f.endsWith('.jsonl'))
    .sort((a, b) => b.localeCompare(a));
  const lines: string[] = [];
  let size = 0;
  for (const f of files) {
    for (const line of readFileSync(join(SESSIONS, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      size += line.length + 1;
      if (size >= target) return `${lines.join('\n')}\n`;
    }
  }
  return size >= target ? `${lines.join('\n')}\n` : null;
}

test('pasting a 5 MB real session goes straight to the worker: no crash, a preview, line editing', async ({
  page,
  context,
}) => {
  const text = realSession();
  test.skip(!text, `needs ../shared/data/claude-code-jsonl with 5 MB of sessions (absent at ${SESSIONS})`);
  const errors = trackErrors(page);
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  // Write permission only: the paste event's own data (getData) is the path, as for most users.
  await context.grantPermissions(['clipboard-write']);
  await page.route('**/__big-session.jsonl', (route) =>
    route.fulfill({ body: text!, contentType: 'text/plain' }),
  );
  await openSample(page, 'plain');
  // The clipboard gets the real session (fetched, so Playwright's own injection is not measured).
  await page.evaluate(async () => {
    const t = await (await fetch('/__big-session.jsonl')).text();
    await navigator.clipboard.writeText(t);
  });
  const editor = page.getByLabel('Transcript text');
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  // The main thread's longest task on this paste is bench/playground.bench.ts's (it depends on load).
  await page.keyboard.press('ControlOrMeta+V');

  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 45_000 });
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  await expect(page.getByTestId('source')).toHaveText('Pasted text');
  // The text never went into a textarea: a read-only preview with its size and the choices.
  await expect(page.locator('#transcript-input')).toHaveCount(0);
  const preview = page.getByTestId('large-preview');
  await expect(preview).toBeVisible();
  await expect(page.getByTestId('large-size')).toHaveText(`${(text!.length / 1e6).toFixed(1)} MB`);
  await expect(preview).toContainText(`${(text!.split('\n').length - 1).toLocaleString('en-US')} lines`);
  await expect(page.getByTestId('char-count')).toHaveText(
    `${text!.length.toLocaleString('en-US')} characters`,
  );
  await expect(page.getByTestId('clear-input')).toBeVisible();

  expect(crashed).toBe(false);
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
  await page.screenshot({ path: `${SHOTS}/paste-5mb-preview.png` });

  // Editing a large input: the chunked editor shows windows of lines; one line is edited and applied.
  await page.getByTestId('edit-large').click();
  const chunk = page.getByTestId('chunk-editor');
  await expect(page.getByTestId('chunk-range')).toContainText('Lines 1–200 of');
  await chunk.getByLabel('Go to line').fill('1500');
  await chunk.getByLabel('Go to line').press('Enter');
  await expect(page.getByTestId('chunk-range')).toContainText('Lines 1,480–');
  await chunk.locator('li[data-line="1500"] .edit-line').click();
  const lineBox = chunk.getByLabel('Line 1500');
  await expect(lineBox).toBeVisible();
  await lineBox.fill('{"type": "user", "message": oops}');
  await chunk.getByRole('button', { name: 'Apply' }).click();
  // The edit broke line 1500: the error names it, once, and the editor shows it highlighted.
  const alert = page.getByTestId('parse-error');
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('parse-error-where')).toHaveText(
    'Could not read this input (line 1500, column 29).',
  );
  await page.getByTestId('jump-to-error').click();
  await expect(page.getByTestId('error-line')).toHaveAttribute('data-line', '1500');
  await expect(page.getByTestId('error-char')).toHaveText('o');
  await page.screenshot({ path: `${SHOTS}/paste-5mb-chunk-editor-error.png` });

  // Clear empties the input, wherever it lives.
  await chunk.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByLabel('Transcript text')).toHaveValue('');
  await expect(page.getByTestId('char-count')).toHaveText('0 characters');
  expect(errors).toEqual([]);
});

test('a parse error is located once (line and column) and the editor jumps to it', async ({ page }) => {
  await openSample(page, 'plain');
  const messages = Array.from({ length: 30 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `message ${i}`,
  }));
  const lines = JSON.stringify({ messages }, null, 2).split('\n');
  const target = lines.findIndex((l) => l.includes('"message 12"')); // line 53 of 124
  lines[target] = lines[target]!.replace('"message 12"', 'message 12"');
  const bad = lines.join('\n');
  const line = target + 1;
  const column = lines[target]!.indexOf('message') + 1;
  const editor = page.getByLabel('Transcript text');
  await editor.fill(bad);
  const alert = page.getByTestId('parse-error');
  await expect(alert).toBeVisible();
  await expect(page.getByTestId('parse-error-where')).toHaveText(
    `Could not read this input (line ${line}, column ${column}).`,
  );
  // Said once: the message carries no second location and no engine "position".
  const message = (await page.getByTestId('parse-error-message').textContent()) ?? '';
  expect(message).toBe(`invalid JSON at ${line}:${column}: unexpected "m"`);
  expect(await alert.textContent()).not.toMatch(/position \d|\(line 1\)/);

  await page.getByTestId('jump-to-error').click();
  const offset = lines.slice(0, target).join('\n').length + 1 + column - 1;
  const state = await editor.evaluate((el: HTMLTextAreaElement) => ({
    start: el.selectionStart,
    end: el.selectionEnd,
    scrollTop: el.scrollTop,
    focused: document.activeElement === el,
    selected: el.value.slice(el.selectionStart, el.selectionEnd),
  }));
  expect(state).toMatchObject({ start: offset, end: offset + 1, focused: true, selected: 'm' });
  expect(line).toBeGreaterThan(50);
  expect(state.scrollTop).toBeGreaterThan(300); // the line is scrolled into view, not line 1
  await page.screenshot({ path: `${SHOTS}/parse-error-jump.png` });
});

let mock: MockOpenAi;
test.describe('local model mode', () => {
  test.beforeAll(async () => {
    mock = await startMockOpenAi();
  });
  test.afterAll(async () => {
    await mock.close();
  });

  test('reflects pasted text through a local OpenAI-compatible server, remembering its address and model but no key', async ({
    page,
  }) => {
    const errors = trackErrors(page);
    await openSample(page, 'console');
    // The user's own text: pasted, with an address that must not leave the page.
    const own = `${await page.getByLabel('Transcript text').inputValue()}\n\n> Please mail the summary to jane.doe@corp.io when the tests pass.\n`;
    await page.getByLabel('Transcript text').fill(own);
    await expect(page.getByTestId('source')).toHaveText('Pasted text');
    await page.getByRole('tab', { name: 'Snapshots' }).click();
    await page.getByLabel('Reflect from snapshot size value').fill('0');
    await page.getByLabel('Reflect from snapshot size value').press('Enter');

    // Offline replay cannot answer for it…
    await page.getByTestId('run-reflection').click();
    await expect(page.getByTestId('llm-error')).toContainText('Use Local model mode');

    // …a local model can, with no key.
    await page.getByLabel('Local model').check();
    await page.getByLabel('Server URL').fill(mock.url);
    await page.getByLabel('Model name').fill('qwen2.5:7b-instruct');
    await expect(page.getByTestId('run-reflection')).toHaveText('Reflect with the local model');
    mock.script([{ kind: 'reply', text: recordedAnswer('console'), usage: [2345, 321] }]);
    await page.getByTestId('run-reflection').click();
    const diag = page.getByTestId('diagnostics');
    await expect(diag).toContainText('yes (the local model)');
    await expect(diag).toContainText('2345 / 321');
    expect(mock.requests).toHaveLength(1);
    const sent = mock.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body.model).toBe('qwen2.5:7b-instruct');
    expect(sent.body.stream).toBe(true);
    expect(sent.headers.authorization).toBeUndefined();
    // Redacted before it left the page.
    expect(JSON.stringify(sent.body)).not.toContain('jane.doe@corp.io');
    expect(JSON.stringify(sent.body)).toContain('[email-1]');
    await expect(page.getByTestId('redaction-preview')).toContainText('1 value replaced');
    await page.locator('.llm-settings').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/local-model-settings.png` });
    await diag.screenshot({ path: `${SHOTS}/local-model-diagnostics.png` });

    // A wrong model name is explained in the local server's terms.
    mock.script([{ kind: 'status', status: 404, body: { error: { message: 'model "nope" not found' } } }]);
    await page.getByTestId('run-reflection').click();
    await expect(page.getByTestId('llm-error')).toContainText('Check the model name');

    // Remembered across visits: the address and the model, not a key.
    await page.getByLabel('Key (only if your server asks for one)').fill('local-secret-123456');
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).toContain(mock.url);
    expect(stored).toContain('qwen2.5:7b-instruct');
    expect(stored).not.toContain('local-secret-123456');
    await page.reload();
    await page.getByTestId('detected-format').waitFor();
    await page.getByRole('tab', { name: 'Snapshots' }).click();
    await page.getByLabel('Local model').check();
    await expect(page.getByLabel('Server URL')).toHaveValue(mock.url);
    await expect(page.getByLabel('Model name')).toHaveValue('qwen2.5:7b-instruct');
    await expect(page.getByLabel('Key (only if your server asks for one)')).toHaveValue('');
    expect(errors).toEqual([]);
  });
});

for (const width of [1440, 390]) {
  test(`no horizontal overflow at ${width} px, on every tab, with a long unbroken request key shown`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openSample(page, 'plain');
    // Own text in offline mode: no recording was made for it, so the reflection fails with the
    // request key in the diagnostics.
    const editor = page.getByLabel('Transcript text');
    await editor.fill(
      `${await editor.inputValue()}\nUser: and note that the staging cluster is down again\n`,
    );
    const overflow = () =>
      page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
    for (const tab of ['Insights', 'Snapshots', 'Trajectory reduction', 'Playbook']) {
      await page.getByRole('tab', { name: tab }).click();
      if (tab === 'Snapshots') {
        await page.getByLabel('Reflect from snapshot size value').fill('0');
        await page.getByLabel('Reflect from snapshot size value').press('Enter');
        await page.getByTestId('run-reflection').click();
        // The case that widened the page: an unbroken 64-character request key.
        await expect(page.getByTestId('diagnostics')).toContainText(/request key [0-9a-f]{32,}/);
      }
      await page.waitForTimeout(200);
      const o = await overflow();
      expect(o.scrollWidth, `${tab} at ${width} px`).toBeLessThanOrEqual(o.innerWidth);
      if (tab === 'Snapshots')
        await page.getByTestId('diagnostics').screenshot({ path: `${SHOTS}/overflow-${width}-key.png` });
    }
  });
}

test('the Tune panel says which tab each number changes', async ({ page }) => {
  await openSample(page, 'console');
  await expect(page.getByTestId('affects-snapshots')).toContainText('Changes the Snapshots tab');
  await expect(page.getByTestId('affects-reduction')).toContainText('Changes the Trajectory reduction tab');
  await page.getByLabel('Items per category (cap) value').fill('1');
  await page.getByLabel('Items per category (cap) value').press('Enter');
  const note = page.getByTestId('tune-elsewhere');
  await expect(note).toContainText('This change shows on the Snapshots tab, not on Insights.');
  await note.getByRole('button', { name: 'Show Snapshots' }).click();
  await expect(page.getByRole('tab', { name: 'Snapshots' })).toHaveAttribute('aria-selected', 'true');
  await expect(note).toHaveCount(0);
});

test('opening 50 MB and pasting 10 MB work; a 15 or 50 MB paste is refused with an offer to open the file; no crash', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const errors = trackErrors(page);
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  const text = repeatedSession(50_000_000);
  await context.grantPermissions(['clipboard-write']);
  await page.route('**/__huge.jsonl', (route) => route.fulfill({ body: text, contentType: 'text/plain' }));
  await openSample(page, 'plain');
  const progress = page.getByTestId('progress');

  // Opened: dropped as a File (fetched in the page, so Playwright's own transfer is not in the way).
  // The main thread's longest task here and on the pastes is bench/playground.bench.ts's: it depends
  // on the machine's load, so no test asserts it.
  await page.evaluate(async () => {
    (window as unknown as { __blob: Blob }).__blob = await (await fetch('/__huge.jsonl')).blob();
  });
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([(window as unknown as { __blob: Blob }).__blob], 'huge.jsonl'));
    document
      .querySelector('.dropzone')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true }));
  });
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('detected-format')).toHaveText('Claude Code session (JSONL)');
  await expect(page.getByTestId('large-preview')).toBeVisible();
  await expect(page.getByTestId('large-size')).toHaveText('50.0 MB');

  // Pasted into the preview (which replaces the input): up to 10 MB is read; above, the page
  // offers to open or drop the file instead and keeps the input it has.
  const paste = async (mb: number) => {
    await page.evaluate(async (n) => {
      const blob = (window as unknown as { __blob: Blob }).__blob;
      await navigator.clipboard.writeText(await blob.slice(0, n).text());
    }, mb * 1e6);
    await page.getByTestId('large-preview').click();
    await page.keyboard.press('ControlOrMeta+V');
  };
  await paste(10);
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('source')).toHaveText('Pasted text');
  await expect(page.getByTestId('large-size')).toHaveText('10.0 MB');
  for (const mb of [15, 50]) {
    await paste(mb);
    await expect(page.getByTestId('paste-too-large')).toContainText(`This paste is ${mb}.0 MB`);
    await expect(page.getByTestId('large-size')).toHaveText('10.0 MB');
  }
  expect(crashed).toBe(false);
  expect(errors).toEqual([]);
});

/**
 * A session in Chinese: the Insights panel says its turns need the language markers and adds them with
 * one click (rearview/language's guess, rearview/heuristic's loadLanguageMarkerSet); the Learn tab says
 * which sessions give few rules for their language, and reads turns with the Tune panel's lists.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CHINESE_SESSION } from '../test/fixtures/chinese-session';
import { replySession } from '../test/unit/learn-session';
import { openWithText, trackErrors } from './helpers';
import { folderInput } from './learn-helpers';

const CHINESE = JSON.stringify(CHINESE_SESSION);

test('a Chinese session says its turns need the language markers, and one click reads its corrections', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await openWithText(page, CHINESE);
  await expect(page.getByTestId('detected-format')).toBeVisible();
  const note = page.getByTestId('language-note');
  await expect(note).toContainText("3 of 3 people's turns read as Chinese: the markers read English only.");
  await expect(page.getByTestId('no-insights')).toBeVisible();
  await note.getByRole('button', { name: 'Add eight more languages' }).click();
  await expect(note).toHaveCount(0);
  const corrections = page.getByTestId('insights').locator('li.cat-correction');
  await expect(corrections).toHaveCount(2);
  await expect(corrections.first()).toContainText('不对，不要把密码存在 localStorage 里');
  // The Tune panel shows the lists as added.
  await page.getByText('Heuristic markers (change the Insights and Learn tabs)').click();
  await expect(page.getByTestId('language-markers').getByRole('button')).toHaveText(
    'Eight more languages added',
  );
  // An English session says nothing.
  await page.getByLabel('Transcript text').fill(
    JSON.stringify([
      { role: 'user', content: 'Add a login page.' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: "No, that's wrong. Use httpOnly cookies." },
    ]),
  );
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(page.getByTestId('insights').locator('li.cat-correction')).toHaveCount(1);
  await expect(page.getByTestId('language-note')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("the Learn tab names the sessions in another language, and reads turns with the Tune panel's lists", async ({
  page,
}) => {
  const errors = trackErrors(page);
  const dir = mkdtempSync(join(tmpdir(), 'rearview-learn-languages-'));
  try {
    writeFileSync(join(dir, 'zh.json'), CHINESE);
    // Portuguese for "That's wrong.", then the rule in English: only the language markers read it.
    const pt = replySession('2025-01-01', 'Está errado. Use pnpm instead of npm.', 'Running npm install.');
    writeFileSync(join(dir, 'pt.jsonl'), pt);
    const learnFolder = async () => {
      await page.getByRole('tab', { name: 'Learn' }).click();
      await page.getByTestId('learn-min-sessions').fill('1');
      await folderInput(page).setInputFiles(dir);
      await expect(page.getByTestId('learn-summary')).toContainText('2 sessions');
    };
    // The markers read people's turns here: the lists are what this checks (the reader, the default,
    // scores this Portuguese turn under its threshold even with them).
    await page.goto('/?scorer=markers');
    await learnFolder();
    await expect(page.getByTestId('learn-language-note')).toContainText(
      '1 of 2 sessions read as Chinese (3 turns): rules are written from English sentences only',
    );
    await expect(page.getByTestId('learn-rule')).toHaveCount(0);
    await page.getByText('Heuristic markers (change the Insights and Learn tabs)').click();
    const add = page.getByTestId('language-markers').getByRole('button');
    await add.click();
    await expect(add).toHaveText('Eight more languages added');
    await learnFolder();
    await expect(page.getByTestId('learn-rule').locator('.learn-text')).toHaveValue(
      'Use pnpm instead of npm.',
    );
    await expect(page.getByTestId('learn-language-note')).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

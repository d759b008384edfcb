/**
 * A session in Chinese: the Insights panel says its turns need the language markers and adds them with
 * one click (rearview/language's guess, rearview/heuristic's loadLanguageMarkerSet).
 */
import { expect, test } from '@playwright/test';
import { CHINESE_SESSION } from '../test/fixtures/chinese-session';
import { openWithText, trackErrors } from './helpers';

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
  await page.getByText('Heuristic markers (change the Insights tab)').click();
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

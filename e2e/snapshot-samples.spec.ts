import { expect, type Locator, type Page, test } from '@playwright/test';
import { openSample, trackErrors } from './helpers';

// Issue 18 in the playground: entries of the bundled samples that the categoriser before issue 18
// put in the wrong place (blind judgement, eval/snapshot/SAMPLES.md), read from the rendered
// deterministic column. test/unit/snapshot-samples.test.ts asserts the same entries on the library.

const HEADINGS = {
  openHypotheses: 'Open hypotheses',
  blockers: 'Blockers',
  nextActions: 'Next actions',
  unresolvedQuestions: 'Unresolved questions',
  requiredEvidenceLinks: 'Evidence links',
} as const;
type Category = keyof typeof HEADINGS;

async function deterministicColumn(page: Page, sample: string): Promise<Locator> {
  await openSample(page, sample);
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  const det = page.getByTestId('deterministic-snapshot');
  await expect(det.locator('li').first()).toBeVisible();
  return det;
}

/** The item texts the column lists under each category heading (a category without items has none). */
async function columnItems(det: Locator): Promise<Record<Category, string[]>> {
  const out = {} as Record<Category, string[]>;
  for (const [cat, title] of Object.entries(HEADINGS) as [Category, string][]) {
    const heading = det.locator('h4', { hasText: new RegExp(`^${title} \\(\\d+\\)$`) });
    out[cat] =
      (await heading.count()) === 0
        ? []
        : (await heading.locator('xpath=following-sibling::ul[1]').locator('li .text').allTextContents()).map(
            (t) => t.trim(),
          );
  }
  // Every listed item was read under its heading (the retired list apart), so "not under" means it.
  const listed = await det.locator('ul.items:not(.retired) > li').count();
  expect(Object.values(out).flat().length).toBe(listed);
  return out;
}

/** `text` is listed under `category`, and under no other. */
function expectOnlyUnder(items: Record<Category, string[]>, text: string, category: Category): void {
  for (const cat of Object.keys(HEADINGS) as Category[])
    expect(items[cat].includes(text), `${HEADINGS[cat]} lists “${text}”`).toBe(cat === category);
}

test('SWE-agent sample: the diagnosis is a blocker, the plans are next actions', async ({ page }) => {
  const errors = trackErrors(page);
  const items = await columnItems(await deterministicColumn(page, 'swe-agent'));
  // All three were left out of the column before issue 18.
  expectOnlyUnder(
    items,
    'The issue is indeed caused by a missing colon at the end of the function definition line for `division`.',
    'blockers',
  );
  expectOnlyUnder(items, "Let's fix this by editing the file.", 'nextActions');
  // A done clause ("the fix is verified") before the plan does not hide it.
  expectOnlyUnder(items, "Now that the fix is verified, let's submit our changes.", 'nextActions');
  expect(errors).toEqual([]);
});

test('Claude Code sample: a plan that mentions "the error" is no blocker, and the call after it carried it out', async ({
  page,
}) => {
  const errors = trackErrors(page);
  const det = await deterministicColumn(page, 'claude-jsonl');
  const items = await columnItems(det);
  // Before issue 18 this plan was the sample's one blocker; then a next action, until the agent's words
  // its own tool call follows right away were read as carried out by it (call-after.jsonl).
  const plan = 'Let me check the project structure and try running the server to see the error.';
  for (const cat of Object.keys(HEADINGS) as Category[])
    expect(items[cat].includes(plan), `${HEADINGS[cat]} lists “${plan}”`).toBe(false);
  expect(errors).toEqual([]);
});

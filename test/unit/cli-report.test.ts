/**
 * The CLI's real binary spawned, and what its report says: stdin read as JSON, the key point written
 * from each turn (or evidence only), evidence relative to the session's folder, the detector, the
 * categoriser and the language markers chosen by flag, and the calls the person declined.
 */
import { join } from 'node:path';
import * as snapshotLib from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';
import { claudeSession } from '../fixtures/claude-session';
import { TURN_CASES, turnMessages } from '../fixtures/turn-cases';
import { chat, root, runCli, useBuiltCli } from './cli-helpers';

useBuiltCli();

describe('the binary', () => {
  it('reads stdin (piped or -) and prints JSON', async () => {
    for (const args of [
      ['reflect', '--json'],
      ['reflect', '-', '--json'],
    ]) {
      const r = await runCli(args, { input: chat });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ file: '<stdin>', kind: 'transcript' });
      expect(['anthropic', 'openai']).toContain(out.format);
      expect(out.insights[0]).toMatchObject({
        category: 'correction',
        recommendation: 'use pnpm instead of npm',
      });
    }
  });

  it('prints under each correction the key point written from it, or that it is evidence only', async () => {
    const talk = JSON.stringify([
      { role: 'user', content: 'Set up the project.' },
      { role: 'assistant', content: 'Done, I fixed the tests.' },
      { role: 'user', content: 'No, that is still broken, the login page shows a blank screen.' },
      { role: 'assistant', content: 'Run npm install.' },
      { role: 'user', content: 'No, always use pnpm instead of npm in this repository.' },
    ]);
    const r = await runCli(['reflect'], { input: talk });
    expect(r.code, r.stderr).toBe(0);
    const insights = r.stdout.slice(r.stdout.indexOf('Insights'), r.stdout.indexOf('Key points'));
    const [complaint, rule] = insights.split(/\n {2}\d+\. /).slice(1);
    // The complaint is the key point's "turn before": it is still no key point of its own.
    expect(complaint).toContain('still broken');
    expect(complaint).toContain('(evidence only: no key point proposed from this turn)');
    expect(complaint).not.toContain('→');
    expect(rule).toContain('→ key point 1: Always use pnpm instead of npm in this repository.');
    // JSON says the same, by index.
    const json = JSON.parse((await runCli(['reflect', '--json'], { input: talk })).stdout);
    expect(json.keyPointOf).toEqual([[], [0]]);
  });

  it('lists evidence relative to the folder a session records, and says which folder', async () => {
    const input = claudeSession('/Users/ana/shop', [
      'Fix the cart total test',
      'The total is computed in /Users/ana/shop/src/cart/total.ts.',
    ]);
    const r = await runCli(['reflect'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('; evidence relative to /Users/ana/shop');
    expect(r.stdout).toContain('    - src/cart/total.ts');
    const json = JSON.parse((await runCli(['reflect', '--json'], { input })).stdout);
    expect(json.root).toBe('/Users/ana/shop');
    expect(json.snapshot.requiredEvidenceLinks).toContain('src/cart/total.ts');
    // A transcript that records no folder has no `root`.
    const plain = JSON.parse(
      (await runCli(['reflect', '--json'], { input: JSON.stringify(turnMessages(['hi'])) })).stdout,
    );
    expect(plain).not.toHaveProperty('root');
    expect(json.rootFrom).toBe('transcript');
  });

  it('reads the folder from the paths of a session that records none, and says so', async () => {
    // Files named absolute and relative: the relative paths start in /Users/ana/shop.
    const input = JSON.stringify(
      turnMessages([
        'Fix the cart total',
        'I read /Users/ana/shop/src/cart.ts and /Users/ana/shop/lib/tax.ts; the bug is in src/cart.ts, which adds lib/tax.ts twice.',
      ]),
    );
    const r = await runCli(['reflect'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('; evidence relative to /Users/ana/shop (read from its paths)');
    const json = JSON.parse((await runCli(['reflect', '--json'], { input })).stdout);
    expect(json.root).toBe('/Users/ana/shop');
    expect(json.rootFrom).toBe('paths');
    expect(json.snapshot.requiredEvidenceLinks).toContain('src/cart.ts');
  });

  it.each(TURN_CASES)(
    "prints under $category the key point written from the turn or that it is evidence only, never the detector's placeholder",
    async ({ category, turns, keyPoint, placeholder }) => {
      const talk = JSON.stringify(turnMessages(turns));
      const r = await runCli(['reflect'], { input: talk });
      expect(r.code, r.stderr).toBe(0);
      const insights = r.stdout.slice(r.stdout.indexOf('Insights'), r.stdout.indexOf('Key points'));
      const found = insights.split(/\n {2}\d+\. /).filter((s) => s.startsWith(`[${category}`));
      expect(found).toHaveLength(2);
      expect(found[0]).toContain('(evidence only: no key point proposed from this turn)');
      expect(found[1]).toContain(`→ key point 1: ${keyPoint}`);
      expect(insights).not.toContain(placeholder);
    },
  );

  it("--detector reads people's turns with a learned scorer of rearview/heuristic-model, as lessons does", async () => {
    // A task whose list holds "don't touch …" (a marker of corrections), then a real correction.
    const messages = [
      { role: 'user', content: 'Add a login page to the app.' },
      { role: 'assistant', content: 'I added the login page with a form and a submit button.' },
      {
        role: 'user',
        content:
          "Please implement the settings page next: 1. add a profile form 2. don't touch the header component 3. keep the current styles.",
      },
      { role: 'assistant', content: 'Done: the settings page has a profile form.' },
      {
        role: 'user',
        content:
          'No, that is wrong. The form must save to the API, not to local storage. Revert the local storage part.',
      },
      { role: 'assistant', content: 'Reverted; the form now saves to the API.' },
    ];
    const talk = JSON.stringify(messages);
    const { lessons } = await import('rearview/session');
    const model = await import('rearview/heuristic-model');
    const facts = (insights: { fact: string }[]) => insights.map((i) => i.fact);
    const want = {
      markers: facts(lessons({ messages }).insights),
      reader: facts(
        lessons({ messages }, { scorer: model.readerModel, minScore: model.READER_MIN_SCORE }).insights,
      ),
      'reader-recall': facts(
        lessons({ messages }, { scorer: model.readerModel, minScore: model.READER_RECALL_MIN_SCORE })
          .insights,
      ),
      'correction-model': facts(lessons({ messages }, { scorer: model.correctionModel }).insights),
    };
    // The detectors disagree on the task statement: the choice is visible.
    expect(want.markers.length).toBe(2);
    expect(want.reader).toEqual([want.markers[1]]);
    for (const [detector, facts] of Object.entries(want)) {
      const r = await runCli(['reflect', '--json', '--detector', detector], { input: talk });
      expect(r.code, detector).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(
        json.insights.map((i: { fact: string }) => i.fact),
        detector,
      ).toEqual(facts);
      expect(json.detector).toBe(detector);
    }
    // Without --detector: the reader at its lower thresholds, named in the JSON, not in the text.
    const plain = await runCli(['reflect', '--json'], { input: talk });
    expect(JSON.parse(plain.stdout).detector).toBe('reader-recall');
    expect(JSON.parse(plain.stdout).insights.map((i: { fact: string }) => i.fact)).toEqual(
      want['reader-recall'],
    );
    expect((await runCli(['reflect'], { input: talk })).stdout).not.toContain('— read by');
    const markers = await runCli(['reflect', '--detector', 'markers'], { input: talk });
    expect(markers.stdout).toContain(`Insights (${want.markers.length}) — read by the markers`);
    const text = await runCli(['reflect', '--detector', 'reader'], { input: talk });
    expect(text.stdout).toContain('Insights (1) — read by the reader');
  });

  it('--categoriser notes-reader sorts the snapshot with rearview/categorise-model, as the library does', async () => {
    // "I think that's a great approach!" is a guess to the rules and a remark to the notes reader.
    const talk = JSON.stringify([
      { role: 'user', content: 'Refactor the retry module so the backoff is configurable.' },
      {
        role: 'assistant',
        content: "I think that's a great approach! The cache key might ignore the locale.",
      },
    ]);
    const { notesReader } = await import('rearview/categorise-model');
    const { input } = snapshotLib.readSnapshotSource(talk);
    const rules = snapshotLib.deterministicSnapshot(input);
    const reader = snapshotLib.deterministicSnapshot(input, { categorise: notesReader });
    expect(reader.openHypotheses).toEqual(['The cache key might ignore the locale.']);
    expect(rules.openHypotheses).toHaveLength(2);
    for (const [argv, want] of [
      [[], rules],
      [['--categoriser', 'rules'], rules],
      [['--categoriser', 'notes-reader'], reader],
    ] as const) {
      const r = await runCli(['reflect', '--json', ...argv], { input: talk });
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(json.snapshot).toEqual(want);
      expect(json.categoriser).toBe(argv[1] === 'notes-reader' ? 'notes-reader' : undefined);
    }
    const text = await runCli(['reflect', '--categoriser', 'notes-reader'], { input: talk });
    expect(text.stdout).toContain('— sorted by the notes reader (rearview/categorise-model)');
    const bogus = await runCli(['reflect', '--categoriser', 'bogus'], { input: talk });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('--categoriser bogus: one of rules, notes-reader');
  });

  it("--languages reads people's turns with the markers of eight more languages, as lessons does", async () => {
    // Spanish: "The button still doesn't save the data." after the agent said it was done.
    const messages = [
      { role: 'user', content: 'Agrega un botón de guardar.' },
      { role: 'assistant', content: 'Listo, agregué el botón en la barra y ya funciona.' },
      { role: 'user', content: 'El botón sigue sin guardar los datos.' },
      { role: 'assistant', content: 'Lo reviso.' },
    ];
    const talk = JSON.stringify(messages);
    const { lessons } = await import('rearview/session');
    const { loadLanguageMarkers } = await import('rearview/heuristic');
    const facts = (insights: { fact: string }[]) => insights.map((i) => i.fact);
    const markers = await loadLanguageMarkers();
    const model = await import('rearview/heuristic-model');
    expect(facts(lessons({ messages }).insights)).toEqual([]);
    for (const [argv, options] of [
      [[], { markers }],
      [
        ['--detector', 'reader-recall'],
        { markers, scorer: model.readerModel, minScore: model.READER_RECALL_MIN_SCORE },
      ],
    ] as const) {
      const want = facts(lessons({ messages }, options).insights);
      const r = await runCli(['reflect', '--json', '--languages', ...argv], { input: talk });
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(facts(json.insights)).toEqual(want);
      expect(json.languages).toBe(true);
    }
    // A correction, and friction: the button still does not save ("sigue sin").
    expect(facts(lessons({ messages }, { markers }).insights)).toHaveLength(2);
    const text = await runCli(['reflect', '--languages'], { input: talk });
    expect(text.stdout).toContain('Insights (2) — with the markers of eight more languages');
    // Both people's turns are Spanish: read with those markers without the flag too, not with --no-languages.
    const auto = JSON.parse((await runCli(['reflect', '--json'], { input: talk })).stdout);
    expect(auto.languages).toBe(true);
    expect(facts(auto.insights)).toEqual(facts(lessons({ messages }, { markers }).insights));
    expect(
      JSON.parse((await runCli(['reflect', '--json', '--no-languages'], { input: talk })).stdout).languages,
    ).toBeUndefined();
    const help = (await runCli(['reflect', '--help'])).stdout;
    expect(help).toContain('--languages');
    expect(help).toContain('--no-languages');
  });

  it('prints every key point a turn gave under its insight, one per rule', async () => {
    const talk = JSON.stringify([
      { role: 'user', content: 'Set up the project.' },
      { role: 'assistant', content: 'Run npm install.' },
      {
        role: 'user',
        content:
          'No, always use pnpm instead of npm in this repository. Never push to main without asking me.',
      },
    ]);
    const r = await runCli(['reflect'], { input: talk });
    expect(r.code, r.stderr).toBe(0);
    const insights = r.stdout.slice(r.stdout.indexOf('Insights'), r.stdout.indexOf('Key points'));
    expect(insights).toContain('→ key point 1: Always use pnpm instead of npm in this repository.');
    expect(insights).toContain('→ key point 2: Never push to main without asking me.');
    const json = JSON.parse((await runCli(['reflect', '--json'], { input: talk })).stdout);
    expect(json.keyPointOf).toEqual([[0, 1]]);
  });

  it('counts the calls the person declined apart from the failed ones', async () => {
    // The sample's two calls were both declined ("The user doesn't want to proceed with this tool use").
    const sample = join(root, 'public/samples/claude-code-short.jsonl');
    const r = await runCli(['reflect', sample]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain('2 steps (0 failed, 2 declined)');
    const json = JSON.parse((await runCli(['reflect', sample, '--json'])).stdout);
    expect(json.counts).toMatchObject({ steps: 2, failedSteps: 0, declinedSteps: 2 });
  });
});

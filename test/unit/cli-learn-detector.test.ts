/**
 * `rearview learn --detector`: the learned scorers of rearview/heuristic-model read people's turns in
 * `learn` as they do in `reflect`; the CLI's answer is the library's with the same options.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLanguageMarkers } from '../../lib/heuristic/index';
import {
  correctionModel,
  READER_MIN_SCORE,
  READER_RECALL_MIN_SCORE,
  readerModel,
} from '../../lib/heuristic-model/index';
import { type LearnOptions, learn, toMarkdown } from '../../lib/learn/index';
import { CHINESE_SESSION } from '../fixtures/chinese-session';
import { type CliMain, loadCliMain, runCli } from './built-cli';
import { replySession } from './learn-session';

let main: CliMain;
let tmp: string;
const NAMES = ['a.jsonl', 'b.jsonl', 'c.jsonl'];

beforeAll(async () => {
  main = await loadCliMain();
  tmp = mkdtempSync(join(tmpdir(), 'rearview-learn-detector-'));
  const turns = [
    'No, use pnpm instead of npm.',
    "No, that's wrong. Always install with pnpm in this repository.",
    'No, use pnpm instead of npm.',
  ];
  mkdirSync(join(tmp, 's'));
  mkdirSync(join(tmp, 'pt'));
  for (const [i, n] of NAMES.entries()) {
    writeFileSync(join(tmp, 's', n), replySession(`2025-0${i + 1}-01`, turns[i]!, 'Running npm install.'));
    // Portuguese for "That's wrong.", then the rule in English.
    const pt = 'Está errado. Use pnpm instead of npm.';
    writeFileSync(join(tmp, 'pt', n), replySession(`2025-0${i + 1}-01`, pt, 'Running npm install.'));
  }
  mkdirSync(join(tmp, 'zh'));
  writeFileSync(join(tmp, 'zh', 'a.json'), JSON.stringify(CHINESE_SESSION));
  writeFileSync(join(tmp, 'zh', 'b.jsonl'), replySession('2025-01-01', turns[0]!, 'Running npm install.'));
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const run = (argv: string[]) => runCli(main, 'learn', argv);

/** What the library proposes from the same files with `options` (one-offs kept). */
async function library(options: LearnOptions, folder = 's') {
  const sources = NAMES.map((n) => ({ name: n, text: readFileSync(join(tmp, folder, n), 'utf8') }));
  return toMarkdown(await learn(sources, { minSessions: 1, ...options }));
}

describe('rearview learn --detector', () => {
  it('proposes what the library proposes with the same scorer and thresholds', async () => {
    const cases: [string, LearnOptions][] = [
      ['markers', {}],
      ['reader', { scorer: readerModel, minScore: READER_MIN_SCORE }],
      ['reader-recall', { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE }],
      ['correction-model', { scorer: correctionModel }],
    ];
    const outs: string[] = [];
    for (const [name, options] of cases) {
      const r = await run([join(tmp, 's'), '--detector', name, '--min-sessions', '1']);
      expect(r.code, r.err).toBe(0);
      expect(r.out, name).toBe(await library(options));
      outs.push(r.out);
    }
    expect(outs[0]).toContain('- Use pnpm instead of npm.');
    // Without the flag: the reader at its lower thresholds, which proposes here what the markers do.
    expect((await run([join(tmp, 's'), '--min-sessions', '1'])).out).toBe(outs[2]);
    expect(outs[2]).toBe(outs[0]);
  });

  it('--languages reads the turns with the markers of eight more languages, as the library does', async () => {
    const markers = await loadLanguageMarkers();
    const recall = { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE };
    // The markers alone: the Portuguese "Está errado." is read only with the flag.
    const plain = await run([join(tmp, 'pt'), '--detector', 'markers', '--min-sessions', '1']);
    expect(plain.out).toBe(await library({}, 'pt'));
    expect(plain.out).not.toContain('pnpm');
    const r = await run([join(tmp, 'pt'), '--languages', '--detector', 'markers', '--min-sessions', '1']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(await library({ markers }, 'pt'));
    expect(r.out).toContain('- Use pnpm instead of npm.');
    // The default detector (the reader at its lower thresholds), with and without the flag, as the
    // library gives it.
    const byDefault = await run([join(tmp, 'pt'), '--min-sessions', '1']);
    expect(byDefault.out).toBe(await library(recall, 'pt'));
    const withReader = await run([join(tmp, 'pt'), '--languages', '--min-sessions', '1']);
    expect(withReader.out).toBe(await library({ markers, ...recall }, 'pt'));
    expect((await run(['--help'])).out).toContain('--languages');
  });

  it('says which sessions read as one of the eight languages, with or without --languages, in text and JSON', async () => {
    const note =
      'note: 1 of 2 sessions read as Chinese (3 turns): rules are written from English sentences only, so they give few; `rearview reflect <file>` lists their corrections (it reads these languages)';
    const expected = { sessions: 1, of: 2, turns: 3, languages: { zh: 3 }, names: 'Chinese' };
    for (const flags of [[], ['--languages']]) {
      const r = await run([join(tmp, 'zh'), ...flags]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(note);
      expect(JSON.parse((await run([join(tmp, 'zh'), '--json', ...flags])).out).otherLanguages).toEqual(
        expected,
      );
    }
    // English sessions only: no note.
    expect((await run([join(tmp, 's')])).err).not.toContain('note:');
  });

  it('exits 2 on a detector it does not know, and lists the ones it does', async () => {
    const bogus = await run([join(tmp, 's'), '--detector', 'bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.err).toContain('--detector bogus: one of markers, reader, reader-recall, correction-model');
    const bare = await run([join(tmp, 's'), '--detector']);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('--detector needs one of markers, reader, reader-recall, correction-model');
    expect((await run(['--help'])).out).toContain('--detector <name>');
  });
});

/**
 * `rearview learn` repairs typos in the rules it writes from people's turns (`isWord` of rearview/learn,
 * Hunspell en_US + en_GB through nspell and cspell's software terms in the CLI), says how many in the
 * summary, keeps the person's spelling with --no-spelling, and refuses an `isWord` that is no function.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERM_LISTS } from '../../cli/spelling';
import { type LearnSource, learn } from '../../lib/learn/index';
import { type CliMain, loadCliMain, runCli } from './built-cli';
import { replySession } from './learn-session';

let main: CliMain;
let tmp: string;

/** A Claude Code session whose reply uses the words the repairs need, then `turn`. */
const session = (day: string, turn: string) =>
  replySession(
    day,
    turn,
    'I will run the specs before every push, and before a commit: before, always before.',
  );
const TURN = 'No, always run the specs beforu you push.';

beforeAll(async () => {
  main = await loadCliMain();
  tmp = mkdtempSync(join(tmpdir(), 'rearview-spelling-'));
  writeFileSync(join(tmp, 'a.jsonl'), session('2025-01-01', TURN));
  writeFileSync(join(tmp, 'b.jsonl'), session('2025-02-01', TURN));
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const run = (argv: string[]) => runCli(main, 'learn', argv);

describe('rearview learn: spelling', () => {
  it('repairs a typo the session shows the spelling of, and says so', async () => {
    const r = await run([tmp]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('- Always run the specs before you push. _(2 sessions');
    expect(r.err).toContain('spelling: 2 typos repaired in candidate rules (--no-spelling keeps them)');
    // The evidence quotes the turn as typed.
    expect(JSON.parse((await run([tmp, '--json'])).out).rules[0].evidence[0].quote).toBe(TURN);
  });

  it('keeps the spelling as typed with --no-spelling', async () => {
    const r = await run([tmp, '--no-spelling']);
    expect(r.out).toContain('- Always run the specs beforu you push. _(2 sessions');
    expect(r.err).not.toContain('spelling:');
  });
});

describe('learn isWord', () => {
  const sources = (): LearnSource[] => [
    { name: 'a.jsonl', text: session('2025-01-01', TURN) },
    { name: 'b.jsonl', text: session('2025-02-01', TURN) },
  ];

  it('repairs with any dictionary given, and not without one', async () => {
    const words = new Set('always run the specs before you push'.split(' '));
    const r = await learn(sources(), { isWord: (w) => words.has(w.toLowerCase()) });
    expect(r.rules.map((x) => x.text)).toEqual(['Always run the specs before you push.']);
    expect(r.stats.repairedWords).toBe(2);
    const plain = await learn(sources());
    expect(plain.rules.map((x) => x.text)).toEqual(['Always run the specs beforu you push.']);
    expect(plain.stats.repairedWords).toBe(0);
  });

  it('keeps the spelling when the dictionary throws, and refuses one that is no function', async () => {
    const r = await learn(sources(), {
      isWord: () => {
        throw new Error('broken dictionary');
      },
    });
    expect(r.rules.map((x) => x.text)).toEqual(['Always run the specs beforu you push.']);
    await expect(learn(sources(), { isWord: 'yes' as never })).rejects.toMatchObject({
      code: 'learn_invalid_option',
    });
  });
});

describe('one dictionary everywhere', () => {
  it("the playground fetches the CLI's dictionaries and every one of its term lists", () => {
    // The playground's loader (a browser module, built by Vite) cannot import the CLI's: its imports
    // name the same files, and a list added to one and not the other is caught here.
    const source = readFileSync(join(import.meta.dirname, '../../playground/src/spelling.ts'), 'utf8');
    const imported = [...source.matchAll(/from '#software-terms\/([^?']+)\?url'/g)].map((m) => m[1]).sort();
    expect(imported).toEqual([...TERM_LISTS].sort());
    for (const d of [
      '#dictionary-en/index.aff',
      '#dictionary-en/index.dic',
      '#dictionary-en-gb/index.aff',
      '#dictionary-en-gb/index.dic',
    ])
      expect(source).toContain(`'${d}?url'`);
  });
});

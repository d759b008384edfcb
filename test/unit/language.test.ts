/**
 * rearview/language guesses which turns are written in one of the eight languages the language
 * markers read, and the CLI says so instead of reporting no correction with no sign why.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { languageHint } from '../../cli/format';
import {
  guessLanguage,
  LANGUAGE_NAMES,
  nameLanguages,
  OTHER_LANGUAGES,
  otherLanguages,
  rankLanguages,
} from '../../lib/language/index';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import { CHINESE_SESSION } from '../fixtures/chinese-session';
import { type CliMain, loadCliMain } from './built-cli';

let main: CliMain;
beforeAll(async () => {
  main = await loadCliMain();
}, 120_000);

async function reflect(input: string, argv: string[] = []) {
  let out = '';
  let err = '';
  const code = await main(['reflect', '-', ...argv], {
    stdin: Readable.from([input]),
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env: {},
  });
  return { code, out, err };
}

const CHINESE = JSON.stringify(CHINESE_SESSION);

describe('guessLanguage', () => {
  it('names the language of a turn by its script, then by its commonest words', () => {
    for (const [text, lang] of [
      ['还是不对，你再看看', 'zh'],
      ['まだ動かないです。', 'ja'],
      ['Не работает, откати изменения.', 'ru'],
      ['No funciona, el botón sigue sin guardar los datos.', 'es'],
      ['Não é isso, você esqueceu de salvar o arquivo.', 'pt'],
      ["Ça ne marche pas, le bouton n'est pas dans la page.", 'fr'],
      ['Das ist falsch, die Datei ist nicht gespeichert.', 'de'],
      ['Non funziona, il pulsante non è nella pagina.', 'it'],
      ['That is not what I asked for, use pnpm in this repo.', 'en'],
      ['`npm run build` → exit 1', 'und'],
      ['', 'und'],
    ] as const)
      expect(guessLanguage(text), text).toBe(lang);
    // A Chinese turn with English words in it is still Chinese.
    expect(guessLanguage('用 pnpm 而不是 npm，还是不对')).toBe('zh');
  });

  it('counts no word of a pasted terminal: `ls -la` holds no Spanish "la", `com.apple.x` no Portuguese "com"', () => {
    const listing = [
      'me@air /Users % sudo ls -la /Users/k/Library/Containers/com.apple.iBooksX/Data/ 2>/dev/null',
      'drwx------  12 k  staff  384 Jun 30 10:12 com.apple.iBooksX',
      'drwx------   4 k  staff  128 Jun 30 10:12 com.apple.BKAgentService',
    ].join('\n');
    expect(guessLanguage(listing)).toBe('und');
    expect(guessLanguage(`I have logged into the new account, here is the listing:\n${listing}`)).toBe('en');
    // A prompt pasted inside a fence is still read: it is prose.
    expect(
      guessLanguage('Booking tests\n\n```\nYou are continuing the app. The service is complete.\n```'),
    ).toBe('en');
    // Words with outer punctuation are words.
    expect(guessLanguage('(no funciona), la página "no" carga.')).toBe('es');
  });

  const consoleDir = join(sharedDataDir() ?? '', 'claude-code-console');
  it.skipIf(!sharedDataDir() || !existsSync(consoleDir))(
    'reads the shared console author, who writes English and pastes terminal listings, as English every day',
    () => {
      const days = readdirSync(consoleDir).filter((n) => /^day-\d+\.md$/.test(n) && n !== 'day-001.md');
      expect(days.length).toBe(9);
      for (const day of days) {
        const people = parseTranscript(readFileSync(join(consoleDir, day), 'utf8'))
          .messages.filter((m) => m.role === 'user' && !m.synthetic)
          .map((m) => m.content);
        expect(otherLanguages(people), day).toBeUndefined();
      }
    },
  );

  it('never throws and reads at most 2,000 characters of a turn', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (t) => {
        expect(typeof guessLanguage(t)).toBe('string');
      }),
    );
    // Beyond 2,000 characters nothing counts: the tail cannot change the guess.
    expect(guessLanguage(`${'the '.repeat(500)}${'还是不对'.repeat(10_000)}`)).toBe('en');
  });
});

describe('otherLanguages and the hint', () => {
  it('counts the turns of the eight languages when they are at least two and a tenth of the turns', () => {
    expect(otherLanguages(['还是不对', '不行', 'Use pnpm.'])).toEqual({
      turns: 2,
      of: 3,
      languages: { zh: 2 },
      names: 'Chinese',
    });
    // One turn is not enough: a single wrong guess would say it in any English session.
    expect(otherLanguages(['还是不对', 'Use pnpm.'])).toBeUndefined();
    // Two of thirty is under a tenth.
    const english = Array.from({ length: 28 }, () => 'Please run the tests again.');
    expect(otherLanguages(['还是不对', '不行', ...english])).toBeUndefined();
    expect(otherLanguages([])).toBeUndefined();
    // Only the first 200 turns are read, however long the session: what comes later is not counted.
    const long = otherLanguages(Array.from({ length: 50_000 }, () => '还是不对'));
    expect(long).toEqual({ turns: 200, of: 200, languages: { zh: 200 }, names: 'Chinese' });
    expect(
      otherLanguages([...Array.from({ length: 200 }, () => 'Please run the tests.'), '不行', '错了']),
    ).toBeUndefined();
    const mixed = otherLanguages(['No funciona.', 'Está mal, no es así.', '还是不对', '不行', '错了']);
    expect(mixed?.languages).toEqual({ zh: 3, es: 2 });
    expect(mixed?.names).toBe('Chinese and Spanish');
    expect(
      otherLanguages(['No funciona.', 'Está mal.', '不行', '错了', '还是不对', 'Ça ne marche pas.'])?.names,
    ).toBe('Chinese, Spanish and French');
    expect(nameLanguages(['ja'])).toBe('Japanese');
    expect(nameLanguages([])).toBe('');
    // Most first, ties by code: the order learn's note across sessions names them in.
    const ranked = rankLanguages(
      new Map([
        ['es', 2],
        ['zh', 3],
        ['de', 2],
      ]),
    );
    expect(ranked).toEqual({ languages: { zh: 3, de: 2, es: 2 }, names: 'Chinese, German and Spanish' });
    expect(Object.keys(ranked.languages)).toEqual(['zh', 'de', 'es']);
    expect(OTHER_LANGUAGES.map((l) => LANGUAGE_NAMES[l])).toEqual([
      'Spanish',
      'Portuguese',
      'French',
      'German',
      'Russian',
      'Italian',
      'Chinese',
      'Japanese',
    ]);
    expect(languageHint({ turns: 5, of: 5, names: 'Chinese and Spanish' }, true)).toBe(
      "5 of 5 people's turns read as Chinese and Spanish: read with the markers of eight more languages too (--no-languages: English only)",
    );
    expect(languageHint({ turns: 5, of: 5, names: 'Chinese and Spanish' }, false)).toBe(
      "5 of 5 people's turns read as Chinese and Spanish: --no-languages left their corrections unread (only English is read)",
    );
  });

  it('rearview reflect reads them with the eight languages’ markers when people write in them, and says so', async () => {
    const text = await reflect(CHINESE);
    expect(text.code, text.err).toBe(0);
    // Two corrections, the second also friction ("还是不行": still not working).
    expect(text.out).toContain('Insights (3) — with the markers of eight more languages');
    expect(text.out).toContain(
      "Note: 3 of 3 people's turns read as Chinese: read with the markers of eight more languages too (--no-languages: English only)",
    );
    const json = JSON.parse((await reflect(CHINESE, ['--json'])).out);
    expect(json.otherLanguages).toEqual({ turns: 3, of: 3, languages: { zh: 3 }, names: 'Chinese' });
    expect(json.languages).toBe(true);
    expect(json.insights).toHaveLength(3);
    // --no-languages: English only, and the note says what was left unread.
    const english = await reflect(CHINESE, ['--no-languages']);
    expect(english.out).toContain('Insights (0)');
    expect(english.out).toContain(
      "Note: 3 of 3 people's turns read as Chinese: --no-languages left their corrections unread",
    );
    expect(JSON.parse((await reflect(CHINESE, ['--json', '--no-languages'])).out).languages).toBeUndefined();
    // --languages: read whatever the turns' language, with no note.
    const read = await reflect(CHINESE, ['--languages']);
    expect(read.out).toContain('Insights (3) — with the markers of eight more languages');
    expect(read.out).not.toContain('Note:');
    expect(
      JSON.parse((await reflect(CHINESE, ['--json', '--languages'])).out).otherLanguages,
    ).toBeUndefined();
    const inEnglish = JSON.stringify([
      { role: 'user', content: 'Add a login page.' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: "No, that's wrong. Use httpOnly cookies." },
    ]);
    const plain = await reflect(inEnglish);
    expect(plain.out).not.toContain('Note:');
    expect(plain.out).not.toContain('eight more languages');
  });
});

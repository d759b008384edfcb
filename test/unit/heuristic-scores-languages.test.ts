/**
 * Friction when a problem is still there after the fix, spelled-out negations, and the non-English
 * markers (loadLanguageMarkers, loadLanguageMarkerSet), linear on ideographs too.
 */
import { describe, expect, it } from 'vitest';
import {
  classifyTurn,
  compileMarkers,
  DEFAULT_MARKERS,
  DEFAULT_MIN_SCORE,
  heuristicReflect,
  loadLanguageMarkerSet,
  loadLanguageMarkers,
} from '../../lib/heuristic/index';
import { TURN_ADVERSARIAL } from '../adversarial';
import { reply, user } from './heuristic-scores-helpers';

describe('friction: a problem still there after the fix', () => {
  const afterFix = (text: string) =>
    heuristicReflect([user('Fix the save button.'), reply('Fixed it.'), user(text)]);
  const frictions = (text: string) => afterFix(text).filter((i) => i.category === 'friction');

  /** A person saying the problem is still there after the fix. */
  const stillThere = [
    "It's still not working.",
    'The button still does not save.',
    "I'm still getting the same error.",
    'Still seeing duplicate rows in the table.',
    'Levitation is still coming in as empty.',
    'the error still persists, what should we do?',
    'The issue persists after the restart.',
    'it still looks broken on mobile',
  ];

  it('"still" with what is still wrong is friction at the default threshold', () => {
    for (const text of [...stillThere, 'nope still no email received']) {
      const found = frictions(text);
      expect(found, text).toHaveLength(1);
      expect(found[0]!.score, text).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
      expect(found[0]!.traceRefs, text).toEqual(['message:m2']);
    }
  });

  it('"still" alone, a negated "still", or a problem named for the first time is not', () => {
    for (const text of [
      'I still want a dark theme for the settings page.',
      'We still need tests for the parser.',
      "It's not still failing, it works now.",
      'There is an error in the log: connection refused.',
      'Run the migrations every time the schema changes.',
    ])
      expect(frictions(text), text).toEqual([]);
  });

  it('a problem still there after the fix is a correction too: its own insight, at the default threshold', () => {
    for (const text of [
      ...stillThere,
      "the export still isn't collecting the full response",
      'Still the same issue.',
      'the total is still wrong',
    ]) {
      const found = afterFix(text);
      const correction = found.find((i) => i.category === 'correction');
      expect(correction, text).toBeDefined();
      expect(correction!.score, text).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
      // A correction cites the turn first, then what it answers.
      expect(correction!.traceRefs[0], text).toBe('message:m2');
      expect(
        found.filter((i) => i.category === 'friction'),
        text,
      ).toHaveLength(1);
    }
    // The same words with nothing still wrong, negated, or as the session's first words correct nothing.
    for (const text of [
      'I still want a dark theme for the settings page.',
      "It's not still failing, it works now.",
      'There is an error in the log: connection refused.',
    ])
      expect(
        afterFix(text).filter((i) => i.category === 'correction'),
        text,
      ).toEqual([]);
    expect(
      heuristicReflect([user('The issue persists after the restart: fix the login page.')]).filter(
        (i) => i.category === 'correction',
      ),
    ).toEqual([]);
  });

  it('reads the same in the language lists, loaded on first use', async () => {
    const markers = await loadLanguageMarkers();
    const read = (text: string) =>
      heuristicReflect([user('Arregla el botón.'), reply('Listo.'), user(text)], { markers }).map(
        (i) => i.category,
      );
    for (const text of [
      'El botón sigue igual.',
      '还是有问题，继续检查',
      '没变化',
      '変わってないです',
      'Toujours pas de réponse.',
    ])
      expect(read(text), text).toContain('friction');
    expect(read('El botón funciona bien, gracias.')).not.toContain('friction');
  });
});

describe('spelled-out negations and other languages', () => {
  it('"do not touch" counts like "don\'t touch"', () => {
    for (const [contracted, spelled] of [
      ["Don't touch the tests.", 'Do not touch the tests.'],
      ["It doesn't work.", 'It does not work.'],
      ["That isn't right.", 'That is not right.'],
      ["You didn't run the linter.", 'You did not run the linter.'],
    ]) {
      expect(classifyTurn(contracted!).correction, contracted).toBe(true);
      expect(classifyTurn(spelled!).correction, spelled).toBe(true);
    }
  });

  it('loadLanguageMarkers reads corrections in Spanish, Portuguese, French, German and Russian', async () => {
    const markers = await loadLanguageMarkers();
    for (const text of [
      'No funciona, sigue fallando.',
      'ESTÁ MAL, deshaz el cambio.',
      'Não é isso, desfaça.',
      'Ça ne marche pas.',
      'Das ist falsch, mach es rückgängig.',
      'Не работает.',
      'НЕПРАВИЛЬНО, откати.',
    ]) {
      expect(classifyTurn(text, markers).correction, text).toBe(true);
      expect(classifyTurn(text).correction, `${text} (default markers)`).toBe(false);
    }
    expect(classifyTurn('¿Cómo funciona esto?', markers).correction).toBe(false);
    expect(classifyTurn('Как это работает?', markers).correction).toBe(false);
  });

  it('loadLanguageMarkers reads Italian, Chinese and Japanese, where words are not spaced', async () => {
    const markers = await loadLanguageMarkers();
    for (const text of [
      'Non funziona ancora, annulla la modifica.',
      'È sbagliato.',
      '还是不对啊，你再看看',
      '不对，我的意思是用 pnpm',
      '刷新以后依然不显示。',
      '還是不對，請再檢查一次',
      'まだ動かないです。',
      'そうじゃなくて、pnpm を使ってください',
    ]) {
      expect(classifyTurn(text, markers).correction, text).toBe(true);
      expect(classifyTurn(text).correction, `${text} (default markers)`).toBe(false);
    }
    // A task in Chinese or Japanese is not a correction.
    expect(classifyTurn('帮我写一个登录页面', markers).correction).toBe(false);
    expect(classifyTurn('ログイン画面を作ってください。', markers).correction).toBe(false);
    expect(classifyTurn('从现在开始，始终使用 pnpm。', markers).preference).toBe(true);
    expect(classifyTurn('完美，谢谢！', markers).positive).toBe(true);
    // Full-width punctuation ends sentences and clauses: ？ makes a question, ， starts a clause.
    expect(classifyTurn('为什么删掉了测试？', markers).correction).toBe(true);
    expect(classifyTurn('为什么删掉了测试', markers).correction).toBe(false);
    expect(classifyTurn('好的，撤销刚才的修改', markers).correction).toBe(true);
    expect(classifyTurn('好的撤销刚才的修改', markers).correction).toBe(false);
  });

  it('a kana or ideograph is a word of its own in markers one writes, found inside a run', () => {
    const markers = compileMarkers({ ...DEFAULT_MARKERS, correction: ['不行'], friction: ['^又'] });
    expect(classifyTurn('这样还是不行', markers).correction).toBe(true);
    expect(classifyTurn('不', markers).correction).toBe(false);
    expect(classifyTurn('行', markers).correction).toBe(false);
    expect(classifyTurn('又错了', markers).friction).toBe(true);
    expect(classifyTurn('他又错了', markers).friction).toBe(false);
  });

  it('the language markers stay linear on ideographs and full-width punctuation', async () => {
    const markers = await loadLanguageMarkers();
    // 2 MB each (a quadratic scan would time out); the text repeats a period, so 2 MB reads as 4 KB does.
    for (const [name, make] of TURN_ADVERSARIAL)
      expect(classifyTurn(make(2_000_000), markers), name).toEqual(classifyTurn(make(4_000), markers));
    expect(classifyTurn('还是不对'.repeat(500_000), markers).correction).toBe(true);
  });

  it('loadLanguageMarkerSet gives the same lists, not compiled, appended to the lists it is given', async () => {
    const lists = await loadLanguageMarkerSet();
    for (const key of ['correction', 'challenge', 'preference', 'positive', 'friction'] as const) {
      // The English lists first, in order, then the languages'.
      expect(lists[key].slice(0, DEFAULT_MARKERS[key].length)).toEqual(DEFAULT_MARKERS[key]);
      expect(lists[key].length).toBeGreaterThan(DEFAULT_MARKERS[key].length);
    }
    expect(lists.correction).toContain('no funciona');
    const compiled = compileMarkers(lists);
    const loaded = await loadLanguageMarkers();
    for (const text of [
      'No funciona, sigue fallando.',
      'Não é isso, desfaça.',
      'Не работает.',
      'Looks good!',
      'ffs, again',
    ])
      expect(classifyTurn(text, compiled), text).toEqual(classifyTurn(text, loaded));
    // Lists of one's own keep their phrases.
    const own = await loadLanguageMarkerSet({ ...DEFAULT_MARKERS, friction: ['ffs'] });
    expect(own.friction[0]).toBe('ffs');
    expect(own.friction).toContain('otra vez');
    expect(classifyTurn('ffs', compileMarkers(own)).friction).toBe(true);
  });
});

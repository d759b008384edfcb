/**
 * The table of other languages (lib/categorise/languages.ts): each rule reads its own example, done
 * reports veto problems and steps, English (curly quotes and dashes included) is never read there, and
 * the whole table is linear in the sentence.
 */
import { describe, expect, it } from 'vitest';
import { BLOCKER, HYPOTHESIS, NEXT, NO_CATEGORY, QUESTION } from '../../lib/categorise/codes';
import { classify, classifyFlags, Vocabulary, words } from '../../lib/categorise/index';
import { LANGUAGE_RULES, otherLanguage } from '../../lib/categorise/languages';
import { scanWords } from '../../lib/categorise/scan';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const category = (t: string) => classify(words(t), t).category;

describe('categorise: other languages', () => {
  it.each(LANGUAGE_RULES.filter((r) => r.category !== 'done').map((r) => [r.id, r] as const))(
    '%s reads its example',
    (_id, rule) => {
      expect(otherLanguage(rule.example)).toBe(rule.category);
    },
  );

  it.each(LANGUAGE_RULES.filter((r) => r.category === 'done').map((r) => [r.id, r] as const))(
    '%s: its done-report is no blocker and no step',
    (_id, rule) => {
      expect(rule.pattern.test(rule.example)).toBe(true);
      expect(otherLanguage(rule.example)).toBe(NO_CATEGORY);
    },
  );

  it('reads the sentence through classify, as the snapshot does', () => {
    expect(category('现在让我更新组件。')).toBe('nextActions');
    expect(category('macOS 的 rsync 不支持该选项。')).toBe('blockers');
    expect(category('Похоже, кэш устарел.')).toBe('openHypotheses');
    expect(category('你想用哪个版本？')).toBe('unresolvedQuestions');
    expect(category('已修复导入错误。')).toBeUndefined();
  });

  it('keeps a problem that follows a contrast, and reads an opening plan as a step', () => {
    expect(otherLanguage('修改已经提交，但推送时因为缺少认证失败了。')).toBe(BLOCKER);
    expect(otherLanguage('让我们检查一下可能的问题。')).toBe(NEXT);
    expect(otherLanguage('可能是缓存的问题。')).toBe(HYPOTHESIS);
    expect(otherLanguage('Лиза, какой вариант предпочитаешь?')).toBe(QUESTION);
  });

  it('reads a plain-ASCII Spanish plan at the start, in the snapshot path too, and nothing else of plain text', () => {
    expect(category('Vamos a leer el archivo para ver la estructura actual:')).toBe('nextActions');
    expect(otherLanguage('Voy a hacer esos cambios en la tabla:')).toBe(NEXT);
    expect(otherLanguage('No tengo acceso a carpetas locales.')).toBe(NO_CATEGORY);
    const vocab = new Vocabulary();
    const text = 'Vamos a leer el archivo para ver la estructura actual:';
    expect(classifyFlags(scanWords(text, vocab)!, vocab.flags, text)).toBe(NEXT);
  });

  it('never reads English, with curly quotes, dashes or ellipses', () => {
    for (const t of [
      'Handles the error case — returns early.',
      'It’s the error handler?',
      'Maybe the cache is stale…',
      '“Run the tests” is the next step',
    ])
      expect(otherLanguage(t)).toBe(NO_CATEGORY);
  });

  it.each([
    ['one long Chinese run', (n: number) => '现'.repeat(n)],
    ['Cyrillic words with no rule', (n: number) => 'слово '.repeat(Math.ceil(n / 6))],
    ['accented letters and spaces', (n: number) => 'é a '.repeat(Math.ceil(n / 4))],
    ['openers with no plan after them', (n: number) => `${'1. '.repeat(Math.ceil(n / 3))}é`],
  ])('reads %s in linear time', (_name, make) => {
    const g = measureGrowth((t: string) => otherLanguage(t), make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

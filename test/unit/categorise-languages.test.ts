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
  it.each(
    LANGUAGE_RULES.filter((r) => r.category !== 'done' && r.category !== 'offer').map(
      (r) => [r.id, r] as const,
    ),
  )('%s reads its example', (_id, rule) => {
    expect(otherLanguage(rule.example)).toBe(rule.category);
  });

  it.each(LANGUAGE_RULES.filter((r) => r.category === 'offer').map((r) => [r.id, r] as const))(
    '%s: an offer to the user is no note, though it asks and names a step',
    (_id, rule) => {
      expect(rule.pattern.test(rule.example)).toBe(true);
      expect(otherLanguage(rule.example)).toBe(NO_CATEGORY);
      expect(otherLanguage('需要我帮您执行实际测试吗？如果需要，请提供一个有效的令牌。')).toBe(NO_CATEGORY);
    },
  );

  it('reads a plan in a later sentence or first-person clause, not in a list of what was done', () => {
    // The last sentence leaves something to do, after a done-report and a guess.
    expect(otherLanguage('已修复脚本：返回值可能为空。已添加检查。运行修复后的诊断脚本：')).toBe(NEXT);
    expect(otherLanguage('后端服务已成功启动。检查服务是否正常监听：')).toBe(NEXT);
    expect(otherLanguage('当前项目中还没有配置文件，我来创建一个。')).toBe(BLOCKER);
    expect(otherLanguage('Отлично! Давайте проверим, что всё работает.')).toBe(NEXT);
    // A clause opening with a bare verb continues a done-list; a problem before a plan stays one.
    expect(otherLanguage('更新了统计查询逻辑，改用独立的对象进行查询')).toBe(NO_CATEGORY);
    expect(otherLanguage('已创建配置文件，配置了排除目录')).toBe(NO_CATEGORY);
    expect(otherLanguage('Я вижу проблему! Ошибка в методе. Давайте исправим.')).toBe(BLOCKER);
  });

  it('reads 问题 as a problem, not as the questions an app shows, and 是否 as a question unless checked', () => {
    expect(otherLanguage('这个问题还在。')).toBe(BLOCKER);
    expect(otherLanguage('应该渲染真实的问题而不是默认问题。')).toBe(NO_CATEGORY);
    expect(otherLanguage('实体类中有的仍是Long')).toBe(BLOCKER);
    expect(otherLanguage('菜单是否能正常展开')).toBe(QUESTION);
    expect(otherLanguage('首先，让我们检查 `SidebarMenuSubButton` 组件是否正确处理了点击事件。')).toBe(NEXT);
  });

  it('reads a step for the user: 请, 建议, 如需, and Russian imperatives', () => {
    expect(otherLanguage('更简单的方法 - 请在浏览器控制台中运行以下命令：')).toBe(NEXT);
    expect(otherLanguage('建议：提交修改并推送到远程。')).toBe(NEXT);
    expect(otherLanguage('请求已发送。')).toBe(NO_CATEGORY);
    expect(otherLanguage('Перейдите на страницу авторизации')).toBe(NEXT);
    expect(otherLanguage('Изменю тип state на опциональный:')).toBe(NEXT);
  });

  it('reads a bold label with full-width punctuation before a path as a pointer, as "**File**: path"', () => {
    expect(category('**File**: `/Users/a/docs/config.md`')).toBe('requiredEvidenceLinks');
    expect(category('**文件**：`/Users/a/docs/config.md`')).toBe('requiredEvidenceLinks');
    expect(category('请把它推送到 /srv/app/error.log 然后告诉我')).not.toBe('requiredEvidenceLinks');
  });

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

  it('reads a plan after an acknowledgement or opener, in traditional Chinese, and Korean -겠습니다 / -ㄹ게요', () => {
    expect(otherLanguage('好的，我现在继续推送代码到远程仓库。')).toBe(NEXT);
    expect(otherLanguage('明白，我来修改配置文件。')).toBe(NEXT);
    expect(otherLanguage('我將重新執行初始化儲存庫的指令。')).toBe(NEXT);
    expect(otherLanguage('接下來，讓我們檢查設定檔。')).toBe(NEXT);
    expect(otherLanguage('Primeiro, vou ler o conteúdo atual do arquivo.')).toBe(NEXT);
    expect(otherLanguage('Agora, vamos fazer o commit das alterações.')).toBe(NEXT);
    expect(category('Certo, atualizando a documentação agora.')).toBe('nextActions');
    expect(otherLanguage('Bueno, revisando el archivo de configuración.')).toBe(NEXT);
    expect(otherLanguage('Phase별 브랜치를 사용하겠습니다.')).toBe(NEXT);
    expect(otherLanguage('테스트를 다시 실행할게요.')).toBe(NEXT);
    // "Understood" and "I don't know" end as a plan does, and are none.
    expect(otherLanguage('알겠습니다.')).toBe(NO_CATEGORY);
    expect(otherLanguage('잘 모르겠습니다.')).toBe(NO_CATEGORY);
    // A guess: "it may be", "it seems"; "can do" is none.
    expect(otherLanguage('이것은 또 다른 압력 센서일 수 있습니다.')).toBe(HYPOTHESIS);
    expect(otherLanguage('작업을 예약하는 것으로 보입니다.')).toBe(HYPOTHESIS);
    expect(otherLanguage('그 명령으로 테스트를 실행할 수 있습니다.')).toBe(NO_CATEGORY);
    // A done-report after the acknowledgement is still one; a Portuguese word ending as a gerund is no plan.
    expect(otherLanguage('好的，已修复导入错误。')).toBe(NO_CATEGORY);
    expect(otherLanguage('Quando o teste falha, o build para.')).toBe(NO_CATEGORY);
  });

  it('reads first-person present plans in Romance languages and German, also in plain ASCII, but not "I think"', () => {
    expect(otherLanguage('Ahora agrego la clase al import de character.py:')).toBe(NEXT);
    expect(category('Leo prompt.py para ver que hay:')).toBe('nextActions');
    expect(otherLanguage('Maintenant vérifions la structure complète et testons :')).toBe(NEXT);
    expect(otherLanguage('Corrigeons ça :')).toBe(NEXT);
    expect(category('Je lis mon canal entrant avant de commencer.')).toBe('nextActions');
    expect(category('Ich werde die README auf Englisch umschreiben.')).toBe('nextActions');
    expect(category('Ora creo la configurazione di Playwright:')).toBe('nextActions');
    // "Creo que…" is "I think": a guess, not "I create".
    expect(otherLanguage('Creo que el problema está en la caché.')).not.toBe(NEXT);
    // Italian problems and done-reports, as the other languages'.
    expect(otherLanguage('Ci sono 11 test falliti, perché la configurazione è sbagliata.')).toBe(BLOCKER);
    expect(otherLanguage('Ho corretto l’errore di importazione.')).toBe(NO_CATEGORY);
    expect(otherLanguage('Pero AttributeConfig y CharacterAttributeSet ya no existen en el módulo.')).toBe(
      BLOCKER,
    );
    // French nouns in -ons open no plan.
    expect(otherLanguage('Questions ouvertes pour la suite : le déploiement.')).not.toBe(NEXT);
  });

  it('reads German plans after an adverb, French obligations and done-reports, Turkish and Indonesian', () => {
    expect(otherLanguage('Jetzt füge ich die Settings-Tabelle hinzu:')).toBe(NEXT);
    expect(category('Jetzt teste die Verbindung:')).toBe('nextActions');
    expect(category('Il faut ajouter un test pour ce cas :')).toBe('nextActions');
    expect(otherLanguage('Le problème vient de l’appel à rounds().')).toBe(BLOCKER);
    expect(otherLanguage('Le problème est complètement résolu !')).toBe(NO_CATEGORY);
    expect(otherLanguage('Der Fehler ist behoben.')).toBe(NO_CATEGORY);
    expect(otherLanguage('useKeyboard() hook’u doğru çalışmıyor.')).toBe(BLOCKER);
    expect(otherLanguage('Manuel bir listener kullanmalıyız:')).toBe(NEXT);
    expect(category('Sekarang saya akan cari fungsi performWebSearch:')).toBe('nextActions');
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
    [
      'clauses that each open with a plan after a done-report',
      (n: number) => '已修复，我来'.repeat(Math.ceil(n / 6)),
    ],
    ['sentences with no plan', (n: number) => '这是什么。'.repeat(Math.ceil(n / 5))],
    ['openers with no plan after them, in Portuguese', (n: number) => `${'ok, '.repeat(Math.ceil(n / 4))}é`],
    ['Korean endings that are no plan', (n: number) => '알겠습니다 '.repeat(Math.ceil(n / 6))],
    ['one long Turkish word with no ending of a plan', (n: number) => 'ış'.repeat(Math.ceil(n / 2))],
  ])('reads %s in linear time', (_name, make) => {
    const g = measureGrowth((t: string) => otherLanguage(t), make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

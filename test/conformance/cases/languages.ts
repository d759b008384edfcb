import { classify, words } from 'rearview/categorise';
import { otherLanguages } from 'rearview/language';
import { checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

/**
 * Agent notes in Chinese, Japanese, Russian and Spanish, each reading a rule of the language table
 * (lib/categorise/languages.ts: Unicode property escapes, lookbehinds of any length, full-width
 * punctuation), with the category every runtime must give.
 */
const NOTES: readonly [string, string | undefined][] = [
  ['现在让我更新组件。', 'nextActions'],
  ['已修复脚本：返回值可能为空。已添加检查。运行修复后的诊断脚本：', 'nextActions'],
  ['更新了统计查询逻辑，改用独立的对象进行查询', undefined],
  ['需要我帮你修改配置吗？', undefined],
  ['菜单是否能正常展开', 'unresolvedQuestions'],
  ['首先，让我们检查 `SidebarMenuSubButton` 组件是否正确处理了点击事件。', 'nextActions'],
  ['应该渲染真实的问题而不是默认问题。', undefined],
  ['实体类中有的仍是Long', 'blockers'],
  ['可能是缓存的问题。', 'openHypotheses'],
  ['**文件**：`/Users/a/docs/config.md`', 'requiredEvidenceLinks'],
  ['次にテストを実行します。', 'nextActions'],
  ['Отлично! Давайте проверим, что всё работает.', 'nextActions'],
  ['Я вижу проблему! Ошибка в методе. Давайте исправим.', 'blockers'],
  ['Перейдите на страницу авторизации', 'nextActions'],
  ['Voy a revisar la configuración.', 'nextActions'],
];

export const languageCases: ConformanceCase[] = [
  {
    name: 'categorise/other languages',
    run() {
      const got = NOTES.map(([t]) => classify(words(t), t).category);
      checkEqual(
        got,
        NOTES.map(([, c]) => c),
        'the language table',
      );
      // What `rearview reflect` reads people's turns with: these turns are Chinese.
      const people = ['这个不对，改回去', '还是不行', '请用 pnpm'];
      const other = otherLanguages(people);
      checkEqual(other?.languages, { zh: 3 }, 'the people’s language');
      return { got, other };
    },
  },
];

/**
 * What reflexion memory compares and shows: the keyword set of a prompt (keyword Jaccard similarity
 * ranks lessons) and the few-shot text that puts retrieved lessons in front of a model.
 */
import type { MemoryLesson } from './types.js';

const STOPWORDS: ReadonlySet<string> = /* @__PURE__ */ new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our please should so than that the their them then there these they this those to ' +
    'was we were what when where which while who whom why will with would you your'
  ).split(' '),
);

// A Han, Hiragana or Katakana character is a word on its own (those scripts use no spaces); otherwise
// a word is a run of letters, marks and digits.
const WORD =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{M}\p{N}])+/gu;

/**
 * The keyword set of a text, as similarity sees it: lowercased (NFKC), split into words, English
 * stopwords and single ASCII letters dropped, a light stemming (a plural or possessive `s`, and `-ing`
 * / `-ed` on longer words: `tests` → `test`, `user's` → `user`, `counting` → `count`, `counted` →
 * `count`), duplicates removed. CJK characters are one keyword each.
 *
 * @example
 * ```ts
 * keywords('How do I sort the Users by age?'); // ['sort', 'user', 'age']
 * ```
 */
export function keywords(text: string): string[] {
  const out = new Set<string>();
  const lower = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2019]s\b/g, '');
  for (const match of lower.matchAll(WORD)) {
    let word = match[0];
    if (word.length === 1 && word.charCodeAt(0) < 0x80 && !isDigit(word.charCodeAt(0))) continue;
    if (STOPWORDS.has(word)) continue;
    if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) word = word.slice(0, -1);
    else if (word.length > 6 && word.endsWith('ing')) word = word.slice(0, -3);
    else if (word.length > 5 && word.endsWith('ed') && !word.endsWith('eed')) word = word.slice(0, -2);
    out.add(word);
  }
  return [...out];
}

/**
 * Lessons formatted as few-shot context for a model prompt; '' for none. Long fields are cut to
 * `maxChars` characters.
 *
 * @example
 * ```ts
 * formatLessons([{ prompt: 'Add 2+2', mistake: 'Said 5', correction: 'It is 4' }]);
 * // 'Lessons from earlier attempts at similar tasks:\n\n1. Task: Add 2+2\n   Mistake: Said 5\n   Correction: It is 4'
 * ```
 */
export function formatLessons(lessons: readonly MemoryLesson[], options: { maxChars?: number } = {}): string {
  if (lessons.length === 0) return '';
  const max = options.maxChars ?? 600;
  const field = (label: string, text: string) =>
    `   ${label}: ${cut(text.trim(), max).replace(/\n/g, `\n${' '.repeat(label.length + 5)}`)}`;
  const items = lessons.map((l, i) =>
    [
      `${i + 1}. Task: ${cut(l.prompt.trim(), max).replace(/\n/g, ' ')}`,
      field('Mistake', l.mistake),
      field('Correction', l.correction),
    ].join('\n'),
  );
  return `Lessons from earlier attempts at similar tasks:\n\n${items.join('\n\n')}`;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Do not split a surrogate pair.
  let end = max - 1;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * What a sentence written in another language does, when the English reading of `classify.ts` found
 * nothing in it: a table of rules (language-rules.ts), one row per language and category (id, pattern,
 * category, an example), read in the labelling order (question, hypothesis, blocker, next action). A done-report
 * in the same language ("已修复", "He creado", "исправлено") vetoes a blocker or a step, as in English.
 *
 * The rows hold the plain words each language says these things with (first-person plans and
 * imperatives, problem words, hedges), not phrases of any one session. Only text holding a letter of
 * these languages (FOREIGN_LETTER) is read here, so English outputs are unchanged, except that plain-ASCII
 * text is read for a plan at its start in the languages whose rows say `ascii` (Spanish, Portuguese,
 * Italian, French, German, Turkish, Indonesian: "Vamos a leer el archivo"); its other sentences without
 * an accent are not read (a known gap). Every pattern is an alternation of literals, anchored
 * or not: linear in the sentence.
 */
import { BLOCKER, HYPOTHESIS, NEXT, NO_CATEGORY, QUESTION } from './codes.js';
import { LANGUAGE_RULES, type LanguageRule, ZH_I_WILL, ZH_NOW } from './language-rules.js';

export { LANGUAGE_RULES, type LanguageRule } from './language-rules.js';

/** "…, but …": what follows a contrast stands despite a done word before it ("已提交，但推送失败"). */
const CONTRAST = /但|但是|却|不过|но |pero |mas |nhưng|しかし|けど|ですが|하지만|그러나/i;

/** The table's rules grouped as the reading uses them. */
interface RuleSets {
  /** Done-reports: any of them vetoes a problem or a step (unless a contrast follows). */
  done: readonly LanguageRule[];
  /** Plans anchored at the sentence's start: a sentence that opens with a plan is one, hedged or not. */
  openingPlans: readonly LanguageRule[];
  /** Questions: a question is never read as an opening plan. */
  questions: readonly LanguageRule[];
  /** Offers to the user: no note. */
  offers: readonly LanguageRule[];
  /** The rules of each category, in the labelling order. */
  inOrder: readonly { category: number; rules: readonly LanguageRule[] }[];
}

function ruleSets(rules: readonly LanguageRule[]): RuleSets {
  const of = (keep: (rule: LanguageRule) => boolean) => rules.filter(keep);
  return {
    done: of((r) => r.category === 'done'),
    openingPlans: of((r) => r.category === NEXT && r.pattern.source.startsWith('^')),
    questions: of((r) => r.category === QUESTION),
    offers: of((r) => r.category === 'offer'),
    inOrder: [QUESTION, HYPOTHESIS, BLOCKER, NEXT].map((category) => ({
      category,
      rules: of((r) => r.category === category),
    })),
  };
}

const ALL = ruleSets(LANGUAGE_RULES);
/**
 * The rows also read in plain ASCII text (`ascii`): anchored plans, which fail at the first characters of
 * any other sentence, so the snapshot can ask every plain sentence.
 */
const PLAIN_PLANS = LANGUAGE_RULES.filter((r) => r.ascii);

const matches = (rules: readonly LanguageRule[], text: string) => rules.some((r) => r.pattern.test(text));

/**
 * A letter of the table's languages that English text does not hold: accented Latin (Latin-1 and
 * Extended, Vietnamese), Cyrillic, kana, CJK ideographs, Hangul. Curly quotes and dashes are not
 * letters, so English prose with them is never read here.
 */
const FOREIGN_LETTER =
  /[\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0400-\u04FF\u1E00-\u1EFF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]/;

/**
 * @internal The category code the table gives `text` (codes.ts), or {@link NO_CATEGORY}: the first
 * category of the labelling order with a matching rule, unless a done-report rule matches and the
 * category is a blocker or a step. Text with no letter of these languages is read only for a plan at
 * its start ({@link plainTextPlan}).
 *
 * @example
 * ```ts
 * otherLanguage('现在让我更新组件。'); // NEXT (2)
 * otherLanguage('Run the tests'); // NO_CATEGORY (-1): English is read by classify.ts
 * ```
 */
export function otherLanguage(text: string): number {
  return FOREIGN_LETTER.test(text) ? readWith(ALL, text) : plainTextPlan(text);
}

/**
 * @internal {@link otherLanguage} of a text with no letter of the table's languages: a plan at its start
 * by a row marked `ascii` (`NEXT`), else {@link NO_CATEGORY}. The snapshot asks it of every ASCII
 * sentence the English reading finds nothing in.
 *
 * @example
 * ```ts
 * plainTextPlan('Vamos a leer el archivo para ver la estructura actual:'); // NEXT (2)
 * ```
 */
export function plainTextPlan(text: string): number {
  return matches(PLAIN_PLANS, text) ? NEXT : NO_CATEGORY;
}

function readWith(sets: RuleSets, text: string): number {
  if (matches(sets.offers, text)) return NO_CATEGORY;
  const whole = readWhole(sets, text);
  if (!LATER_PLAN_OVERRIDES.includes(whole)) return whole;
  // A later sentence that opens with a plan ("已修复脚本。运行诊断脚本：") or a later clause that opens with
  // a first-person one ("还没有 X，我来创建一个", "Отлично! Давайте проверим…") is what the entry leaves
  // to do, as "Fixed A; next run the suite" is a step. A clause opening with a bare verb is not: lists
  // of what was done run on that way ("更新了 A，改用 B").
  for (let i = laterStart(text, 0), k = 0; i > 0 && k < LATER_CLAUSES; i = laterStart(text, i), k++) {
    const rest = text.slice(i);
    if (matches(sets.questions, rest) || matches(sets.done, rest)) continue;
    if (LATER_PLAN.test(rest) || (SENTENCE_END.test(text.charAt(i - 1)) && matches(sets.openingPlans, rest)))
      return NEXT;
  }
  return whole;
}

/** How many later clauses are read, each to the end: the work stays linear in the sentence. */
const LATER_CLAUSES = 8;

/** What a later plan overrides: nothing read, or a guess in the sentences before it (a problem stays one). */
const LATER_PLAN_OVERRIDES: readonly number[] = [NO_CATEGORY, HYPOTHESIS];

/** Where the next sentence or clause after `from` starts (after `。！？；，` and the like), or -1. */
function laterStart(text: string, from: number): number {
  LATER.lastIndex = from;
  const m = LATER.exec(text);
  return m === null ? -1 : m.index + m[0].length;
}
const LATER = /[。！？；，!?;,.](?:\s+|(?<=[。！？；，]))(?=\S)/g;
/** A full stop of Chinese or Japanese: what follows starts a sentence (the splitter does not cut there). */
const SENTENCE_END = /^[。！？]$/;
/** A first-person plan opening a later clause: Chinese, Russian. */
const LATER_PLAN = new RegExp(
  `^(?:(?:${ZH_NOW})[，,\\s]*)?(?:${ZH_I_WILL})|^(?:(?:теперь|сейчас|а|но|и)\\s+)?(?:давайте|давай|сначала|(?:мне|нам)\\s+(?:нужно|надо))(?![\\p{L}])`,
  'iu',
);

function readWhole(sets: RuleSets, text: string): number {
  const reportsDone = matches(sets.done, text);
  // As in English ("Let me check whether the cache is stale"), a sentence opening with a plan is a
  // step, unless it reports something done ("修改已经提交…": the opening verb was a noun).
  if (!reportsDone && !matches(sets.questions, text) && matches(sets.openingPlans, text)) return NEXT;
  for (const { category, rules } of sets.inOrder) {
    if (!matches(rules, text)) continue;
    if ((category === BLOCKER || category === NEXT) && reportsDone && !CONTRAST.test(text))
      return NO_CATEGORY;
    return category;
  }
  return NO_CATEGORY;
}

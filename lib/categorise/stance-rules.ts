/**
 * The writer's stance as data: one row per rule (id, pattern, category, an example), tried in order by
 * `stanceCategory` (stance.ts) after a status written last. What a rule needs besides its pattern is in
 * its row (the line's last character, no question mark, a length, a verb as group 1, a veto); the
 * shortcut in front of each row is read off its pattern (gates.ts: the words it can open with, the words
 * it cannot match without), never written beside it.
 *
 * Each rule answers errors seen on spent labelled sets (eval/snapshot/sets/<n>/LABELLING.md) and was
 * kept only if it held on a set no rule had seen, measured once. Rules that broke more spent entries
 * than they fixed were dropped ("You're right" as a conceded problem, "<source> says:" as evidence, any
 * "X should <verb>" as a plan). Every pattern is anchored at the line's start or bounded, and none
 * backtracks over the line (test/unit/snapshot-stance.test.ts feeds them adversarial text).
 */
import { BLOCKER, HYPOTHESIS, NEXT, NONE, QUESTION } from './codes.js';
import { opened } from './openers.js';

const STEP = /^\s*(?:[-*]\s+)?\*{0,2}step\s*\d+[a-z]?\*{0,2}\s*:\*{0,2}\s+\**([A-Za-z]+)/i;
/** A bold title, a dash, then the step's first word. */
const TITLED_STEP = /^\s*(?:[-*]\s+)?\*\*[^*\n]{1,60}\*\*\s+[-–—]\s+\**([A-Za-z]+)/;
/** A subject of up to three words other than "I"/"we", then a verb that reports what someone said. */
const REPORTED =
  /^\s*(?:(?!i\s|we\s)[A-Za-z'’]+\s+){0,3}?(?:\w+ly\s+)?(questioned|challenged|pointed out|complained|suggested|requested|recommended)\b/i;
const CONSTRAINT = /* @__PURE__ */ opened(
  /(?:i|we)\s+(?:\w+ly\s+)?(?:should|must)(?:\s+not\b|n['’]t\b)/.source,
);
/** "I should have run the tests first", "We should have addressed the warnings": a step the writer missed (not "I should have been more precise", an apology). */
const MISSED = /* @__PURE__ */ opened(
  /(?:i|we)\s+should\s+have\s+(?!been\b)(?:\w+ly\s+|only\s+)?[a-z]{2,}/.source,
);
const VERDICT = /* @__PURE__ */ opened(
  /(?:this|that|it|everything|(?:my|the|our|this|that)(?:\s+[\w`'.-]+){1,3})\s+(?:seems|looks|appears)\s+(?:to\s+be\s+|like\s+an?\s+(?=reasonable|sensible|robust))?(?:\w+ly\s+)?(correct|fine|good|reasonable|sensible|robust|working|safe|right|ok|okay|consistent|acceptable|standard|wrong|broken|incorrect)\b/
    .source,
);
/**
 * "If the input ends in a space, `strip()` would drop it.": a consequence guessed, not observed; not
 * "If I want X, I would need to …" (the writer's own plan). The condition runs to its first comma:
 * `[^,]` there keeps the match linear (one comma is tried, not each one).
 */
const CONDITIONAL = /^\s*if\b[^.?!;,]*,\s*[^.?!;]*\bwould\b(?!\s+(?:need|have)\s+to)/i;
/** "If I <verb> … :" or "…": a step the writer is about to try. */
/** "If I/we <verb>", the verb a step (not "If I am …", "If we had …", "If I can't …"). */
const IF_I_DO =
  /if\s+(?:i|we)\s+(?!(?:am|was|were|had|have|did|do|don['’]t|didn['’]t|can['’]t|cannot)\b)[a-z]+\b/.source;
const TRIAL = /* @__PURE__ */ new RegExp(String.raw`^\s*${IF_I_DO}[^.?!]*(?::|\.\.\.|…)\s*$`, 'i');
/** "If I change `f` to `g`, it should work.": a change the writer means to make, with its expected effect. */
const TRIAL_WORKS = /* @__PURE__ */ opened(
  String.raw`${IF_I_DO}[^?]*,\s*(?:it|this|that)\s+should\s+(?:work|fix|solve|pass|handle)\b`,
);
const HEDGED_PLAN = /\bshould\s+probably\s+([a-z]+)/i;
/** "The user asked if there are others", "is asking whether …", "asked for clarification on X". */
const ASKED_IF = /\b(?:asked|asking|asks)\s+(?:if|whether|for\s+clarification)\b/i;
/** "Good question!", "Great point.": praise for what someone asked or said, nothing of its own. */
const PRAISE =
  /^\s*(?:(?:that['’]s|that\s+is|what)\s+an?\s+)?(?:(?:good|great|excellent|fair|interesting|valid)\s+(?:question|point|catch|observation)s?|you(?:['’]re|\s+are)\s+(?:\w+ly\s+)?right\s+to\s+(?:question|challenge)\s+(?:this|that|it|th(?:ose|ese)\s+\w+))(?:\s+(?:about|on|regarding)\s+[^!?\n]{1,60}?)?\s*[!.]*\s*$/i;
/** "Wait, that's not quite right.": the writer's own verdict that something is wrong. */
const NOT_RIGHT =
  /^\s*(?:(?:wait|hmm|no|but|so),?\s+)*(?:that|this|it)(?:['’]s|\s+is)\s+not\s+(?:quite\s+|entirely\s+)?(?:right|correct)[.!]*\s*$/i;
/**
 * "It looks like there's an issue with the pyproject.toml file": a problem reported, hedged only in form;
 * also "This is a systematic issue that …" and "We've encountered an error regarding X".
 */
const LOOKS_ISSUE =
  /^\s*(?:it\s+looks\s+like\s+there(?:['’]s|\s+(?:is|are|was|were))\s+[^.]{0,40}?\b(?:issues?|problems?|errors?)\b|(?:this|that)\s+is\s+an?\s+(?:\w+\s+)?issue\s+(?:with|that)\s|we(?:['’]ve|\s+have)\s+(?:encountered|hit|run\s+into)\s+an?\s+(?:error|issue|problem|bug)\b)/i;
/** "This means `}}` is commented out!", "This means I removed the closing `\"\"\"`!": a consequence found, and alarming. */
const MEANS_ALARM = /* @__PURE__ */ opened(/(?:this|that|which)\s+means\s[^!?\n]*!\s*$/.source);
/** "It didn't print anything!", "I don't see `f` in the file!": something missing, and the writer alarmed by it. */
const MISSING_ALARM = /* @__PURE__ */ opened(
  /(?:it|i|this|that|we|they)(?:\s+still)?\s+(?:(?:did|does|do|is|was|can|wo)n['’]t|(?:does|did|do|is|was)\s+not|cannot)\b[^!?\n]*!\s*$/
    .source,
);
/**
 * "Modifying `pylint/config/utils.py` to add `-v` …", "Removing the unused import `builtin_str` from
 * …": a change named by its gerund, code in its first words, with no verb of its own before a comma
 * (not "Fixing `scatterplot` might require …", a guess, nor "Adding `%` is enough").
 */
const GERUND_CHANGE = /* @__PURE__ */ opened(
  /(?:modifying|updating|changing|adding|removing|editing|replacing|renaming)\s+(?:(?:the|a|an|this|that)\s+)?(?:[\w-]+\s+){0,2}`/
    .source,
);
const CLAUSE_VERB =
  /^[^,]*\b(?:would|might|could|may|will|should|must|can|cannot|is|are|was|were|seems?|needs?)\b/i;
/** "Instead of pinning versions, we should:", "I would add these in two places:": the writer's plan, its steps next. */
const PLAN_HEAD = /\b(?:i|we)\s+(?:should|would|will|need\s+to|must)\b/i;
/**
 * `/\b(?:i|we)\s+(?:should|…)\b[^.?!:]*:\s*$/i` read in one pass: the head must sit after the last
 * `.?!:` before the closing colon, so it is looked for there only (the single regex ran `[^.?!:]*` to the
 * end from every "I will" of a long sentence, quadratic in it).
 */
function planColon(raw: string): boolean {
  const colon = /:\s*$/.exec(raw);
  if (!colon) return false;
  const p = colon.index;
  const q = Math.max(
    raw.lastIndexOf('.', p - 1),
    raw.lastIndexOf('?', p - 1),
    raw.lastIndexOf('!', p - 1),
    raw.lastIndexOf(':', p - 1),
  );
  // A `.?!:` (or the start) before the slice and the colon after it: `\b` reads the same at both ends.
  return PLAN_HEAD.test(raw.slice(q + 1, p));
}
/** "Back to `apply_dataarray_vfunc`:", "Now back to inheritance.": the writer returns to a thread to pursue. */
const BACK_TO = /^\s*(?:(?:now|so|ok(?:ay)?),?\s+)?back\s+to\s|^\s*now,?\s+for\s/i;
/** "I apologize for the misunderstanding.", "Sorry!": an apology alone says nothing to keep. */
const APOLOGY =
  /^\s*(?:i\s+apologi[sz]e|(?:my\s+)?apologies|sorry)\b(?:\s+for\s+[^,;:.!?–—-]{1,60})?[.!]*\s*$/i;
/** "To fix both properly:": a short lead-in over the steps that follow. */
const LEAD_IN = /^\s*(?:so,?\s+)?to\s+([a-z]+)\b[^,.;:!?]{0,40}:\s*$/i;
const PLAN_HEADING =
  /\b(?:what\s+(?:we|i|you)\s+(?:should|need\s+to|must|will|have\s+to)\s+do|(?:two|three|four|several|a\s+few|some|the|these)\s+options|(?:commands|steps)\s+to|what\s+(?:was|is)\s+(?:still\s+)?(?:in\s+progress|left|pending|remaining)|(?:the|our|my|updated|new)\s+plan|(?:main|top)\s+priorities|how\s+(?:we|i)\s+(?:can|will|should|could)\s+proceed)\b/i;

/** Not a plan when the line says no ("we should not", "can't"): the plan rows' veto. */
const NEGATED = /n['’]t\b|\b(?:not|cannot)\b/i;

/** @internal One rule of the table. */
export interface StanceRule {
  /** `<category>-<what>`, e.g. `next-step`. */
  id: string;
  /** What the rule reads. */
  pattern: RegExp;
  /** Read instead of `pattern.test` when set: the same language in one linear pass. */
  test?: (raw: string) => boolean;
  /** The category code (codes.ts), or one per value of group 1 (lower case, spaces single). */
  category: number | Readonly<Record<string, number>>;
  /** Group 1 must be a verb that opens a plan (`run`, `modify`). */
  verb?: true;
  /** Group 1 (lower case) must not be one of these. */
  notGroup?: readonly string[];
  /** The line's last character other than white space must be one of these. */
  ends?: string;
  /** Not on a line that ends in a question mark. */
  notAsked?: true;
  /** Only on lines shorter than this many characters. */
  shorterThan?: number;
  /** Not when this matches the line too. */
  unless?: RegExp;
  /** A line the rule reads, for the table's test. */
  example: string;
}

/**
 * @internal The table, in the order its rules are tried.
 *
 * @example
 * ```ts
 * STANCE_RULES.find((r) => r.id === 'none-apology')?.pattern.test('Sorry!'); // true
 * ```
 */
export const STANCE_RULES: readonly StanceRule[] = [
  {
    id: 'next-step',
    pattern: STEP,
    category: NEXT,
    verb: true,
    example: 'Step 2: Modify line 1715 to add `%`.',
  },
  {
    id: 'next-titled-step',
    pattern: TITLED_STEP,
    category: NEXT,
    verb: true,
    example: '**SessionLive** - add the toggle event',
  },
  {
    // "Here's what we should do:"; not "Since the hook won't let me commit, I have two options:" (the
    // obstacle is the line's point).
    id: 'next-plan-heading',
    pattern: PLAN_HEADING,
    category: NEXT,
    ends: ':',
    unless: NEGATED,
    example: "Here's what we should do:",
  },
  {
    id: 'next-plan-colon',
    pattern: /\b(?:i|we)\s+(?:should|would|will|need\s+to|must)\b[^.?!:]*:\s*$/i,
    test: planColon,
    category: NEXT,
    ends: ':',
    unless: NEGATED,
    example: 'Instead of pinning versions, we should:',
  },
  {
    id: 'next-gerund-change',
    pattern: GERUND_CHANGE,
    category: NEXT,
    unless: CLAUSE_VERB,
    example: 'Modifying `pylint/config/utils.py` to add `-v`.',
  },
  { id: 'next-trial', pattern: TRIAL, category: NEXT, ends: ':.…', example: 'If I change it to:' },
  {
    id: 'next-trial-works',
    pattern: TRIAL_WORKS,
    category: NEXT,
    example: 'If I change `f` to `g`, it should work.',
  },
  {
    id: 'hypothesis-conditional',
    pattern: CONDITIONAL,
    category: HYPOTHESIS,
    notAsked: true,
    example: 'If the input ends in a space, `strip()` would drop it.',
  },
  { id: 'none-praise', pattern: PRAISE, category: NONE, shorterThan: 80, example: 'Good question!' },
  {
    id: 'none-apology',
    pattern: APOLOGY,
    category: NONE,
    shorterThan: 80,
    example: 'I apologize for the misunderstanding.',
  },
  {
    id: 'next-back-to',
    pattern: BACK_TO,
    category: NEXT,
    shorterThan: 80,
    example: 'Now back to inheritance.',
  },
  {
    id: 'blocker-not-right',
    pattern: NOT_RIGHT,
    category: BLOCKER,
    shorterThan: 80,
    example: "Wait, that's not quite right.",
  },
  {
    id: 'blocker-looks-issue',
    pattern: LOOKS_ISSUE,
    category: BLOCKER,
    example: "It looks like there's an issue with the pyproject.toml file",
  },
  {
    id: 'blocker-means-alarm',
    pattern: MEANS_ALARM,
    category: BLOCKER,
    example: 'This means `}}` is commented out!',
  },
  {
    id: 'blocker-missing-alarm',
    pattern: MISSING_ALARM,
    category: BLOCKER,
    example: "It didn't print anything!",
  },
  {
    id: 'question-asked-if',
    pattern: ASKED_IF,
    category: QUESTION,
    notAsked: true,
    example: 'The user asked if there are others.',
  },
  {
    id: 'next-lead-in',
    pattern: LEAD_IN,
    category: NEXT,
    ends: ':',
    verb: true,
    example: 'To fix both properly:',
  },
  {
    id: 'reported',
    pattern: REPORTED,
    category: {
      questioned: QUESTION,
      challenged: QUESTION,
      'pointed out': BLOCKER,
      complained: BLOCKER,
      suggested: NEXT,
      requested: NEXT,
      recommended: NEXT,
    },
    example: 'User questioned the need for the cache.',
  },
  {
    id: 'blocker-constraint',
    pattern: CONSTRAINT,
    category: BLOCKER,
    example: 'So I should NOT modify the tests.',
  },
  {
    id: 'blocker-missed',
    pattern: MISSED,
    category: BLOCKER,
    example: 'I should have run the tests first.',
  },
  {
    // "This looks right, but the test still fails": the verdict is not the line's last word.
    id: 'verdict',
    pattern: VERDICT,
    category: {
      correct: NONE,
      fine: NONE,
      good: NONE,
      reasonable: NONE,
      sensible: NONE,
      robust: NONE,
      working: NONE,
      safe: NONE,
      right: NONE,
      ok: NONE,
      okay: NONE,
      consistent: NONE,
      acceptable: NONE,
      standard: NONE,
      wrong: BLOCKER,
      broken: BLOCKER,
      incorrect: BLOCKER,
    },
    notAsked: true,
    unless: /\b(?:but|however|although|except)\b/i,
    example: 'This seems reasonable.',
  },
  {
    // Any verb but "be"/"not": "`f` should probably become `g`" is a change to make, not a guess.
    id: 'next-hedged-plan',
    pattern: HEDGED_PLAN,
    category: NEXT,
    notGroup: ['be', 'not', 'have'],
    notAsked: true,
    example: 'I should probably remove the import.',
  },
];

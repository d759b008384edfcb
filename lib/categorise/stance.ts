/**
 * What the writer's stance makes of a line, whatever its words: a status written last ("REQ-003
 * (Extract TOC): Not Started.", "Set up CI: Done."), a numbered or titled step ("Step 2: Modify line
 * 1715", "**SessionLive** - add the event"), a step being tried ("If I change it to:"), a reported
 * question, suggestion or criticism ("User questioned the need for X", "Opus suggested an env
 * variable", "User pointed out …"), a constraint on the plan ("So I should NOT modify the tests"), a
 * hedged verdict ("This seems reasonable", "That seems wrong"), a hedged plan ("I should probably
 * remove the import"), a guessed consequence ("If X, Y would …"), a heading over a plan ("Here's
 * what we should do:", "The main priorities are:"), a short lead-in ("To fix both properly:"), a
 * numbered item's status with no separator ("Stage 1 complete."), praise ("Good question!"), an
 * apology alone, a return to a thread ("Back to `f`:"), a verdict of wrong ("Wait, that's not quite
 * right.", "It looks like there's an issue with …") and a question reported as asked ("asked if /
 * whether / for clarification"). Each test is anchored at one end of the line or runs behind a cheap
 * gate, and none backtracks over the line (test/unit/snapshot-stance.test.ts feeds it adversarial
 * text), so the cost per entry stays small and linear.
 *
 * Each rule answers errors seen on spent labelled sets (eval/snapshot/sets/<n>/LABELLING.md) and was kept only
 * if it held on a set no rule had seen, measured once.
 * Rules that broke more spent entries than they fixed were dropped ("You're right" as a conceded
 * problem, "<source> says:" as evidence, any "X should <verb>" as a plan).
 */

import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import { BLOCKER, HYPOTHESIS, NEXT, NONE, QUESTION } from './codes.js';
import {
  mayHold,
  N_APPEAR,
  N_ASK,
  N_ED_END,
  N_LOOK,
  N_MUST,
  N_PROBABLY,
  N_SEEM,
  N_SHOULD,
  N_WOULD,
} from './needles.js';
import { OPENER_WORDS, opened } from './openers.js';

/** The status a writer put last, and the category it gives the line. */
const STATUS: Record<string, number> = {
  done: NONE,
  complete: NONE,
  completed: NONE,
  finished: NONE,
  fixed: NONE,
  resolved: NONE,
  'not started': NEXT,
  'not done': NEXT,
  pending: NEXT,
  todo: NEXT,
  'to do': NEXT,
  'in progress': NEXT,
  ongoing: NEXT,
  planned: NEXT,
  blocked: BLOCKER,
};
const STATUS_TAIL =
  /(?::|\s[-–—]|\()\s*\*{0,2}(done|complete|completed|finished|fixed|resolved|not started|not done|pending|to ?do|in progress|ongoing|planned|blocked)\*{0,2}\)?[.!]?\*{0,2}\s*$/gi;
/** {@link STATUS_TAIL}'s separators, searched from the tail's start. */
const TAIL_GATE = /[:(]| [-–—]/g;
/** Words every rule after the steps and headings needs (lower case: none of them opens those lines). */
const HEAD_GATE = /s(?:eem|hould)|look|appear|must|ed\b/;
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
/** "Stage 1 complete.", "Phase 2 done": a named, numbered item, then its status. */
const NUMBERED_STATUS =
  /^\s*(?:[A-Za-z][\w-]*\s+){1,2}\d+[a-z]?\s+(complete|completed|done|finished)[.!]?\s*$/i;
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
/**
 * The forms that say what a whole line is, in order, with the category each gives, whether it
 * applies only to a short line (under 80 characters), and every first word it can match with (after
 * `^\s*`, each is followed by a character other than an ASCII letter, so it is the whole run of
 * letters that opens the line; a form built with `opened` also opens with any of `OPENER_WORDS`).
 * Each is anchored at the line's start, so nearly every entry fails it at its first word.
 */
const WHOLE_LINE: readonly (readonly [RegExp, number, boolean, string])[] = [
  [PRAISE, NONE, true, 'that what good great excellent fair interesting valid you'],
  [APOLOGY, NONE, true, 'i my apologies sorry'],
  [BACK_TO, NEXT, true, 'now so ok okay back'],
  [NOT_RIGHT, BLOCKER, true, 'wait hmm no but so that this it'],
  [LOOKS_ISSUE, BLOCKER, false, 'it this that we'],
  [MEANS_ALARM, BLOCKER, false, `this that which ${OPENER_WORDS.join(' ')}`],
  [MISSING_ALARM, BLOCKER, false, `it i this that we they ${OPENER_WORDS.join(' ')}`],
];
/**
 * The {@link WHOLE_LINE} forms (bit k for form k) that can match a line opening with a word, by
 * {@link firstWordHash}: a cheap gate, since nearly every entry fails all of them at its first word
 * and each regex call costs more than the hash. A hash collision only runs a form that then fails.
 */
const WHOLE_LINE_BY_WORD = /* @__PURE__ */ (() => {
  const byWord = new Map<number, number>();
  WHOLE_LINE.forEach(([, , , list], k) => {
    for (const w of list.split(' ')) {
      const h = firstWordHash(w, 0);
      byWord.set(h, (byWord.get(h) ?? 0) | (1 << k));
    }
  });
  return byWord;
})();
const ALL_WHOLE_LINE = (1 << WHOLE_LINE.length) - 1;

/**
 * @internal FNV-1a of the run of ASCII letters from `i`, lower-cased: the hash of the word that opens
 * the line, without building it. A hash of that word's spelling and nothing else, so equal words
 * (in any case) hash alike.
 *
 * @example
 * ```ts
 * firstWordHash('So, done', 0) === firstWordHash('so', 0); // true
 * ```
 */
export function firstWordHash(raw: string, i: number): number {
  let h = FNV_OFFSET | 0;
  for (; i < raw.length; i++) {
    const c = raw.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h;
}
/** "To fix both properly:": a short lead-in over the steps that follow. */
const LEAD_IN = /^\s*(?:so,?\s+)?to\s+([a-z]+)\b[^,.;:!?]{0,40}:\s*$/i;
const PLAN_HEADING =
  /\b(?:what\s+(?:we|i|you)\s+(?:should|need\s+to|must|will|have\s+to)\s+do|(?:two|three|four|several|a\s+few|some|the|these)\s+options|(?:commands|steps)\s+to|what\s+(?:was|is)\s+(?:still\s+)?(?:in\s+progress|left|pending|remaining)|(?:the|our|my|updated|new)\s+plan|(?:main|top)\s+priorities|how\s+(?:we|i)\s+(?:can|will|should|could)\s+proceed)\b/i;

/**
 * The category the writer's stance gives the line, as a `classify.ts` decision code, or -1 when it
 * says nothing. `isVerb` says whether a lower-cased word opens a plan (`run`, `remove`).
 *
 * @example
 * ```ts
 * const isVerb = (w: string) => w === 'modify';
 * stanceCategory('REQ-003 (Extract TOC): Not Started.', isVerb); // 2
 * stanceCategory('Step 1: Modify line 1713 to add `%`.', isVerb); // 2
 * stanceCategory('This seems reasonable.', isVerb); // 5 (nothing left to do)
 * ```
 */
export function stanceCategory(raw: string, isVerb: (w: string) => boolean): number {
  const n = raw.length;
  let e = n;
  while (e > 0 && raw.charCodeAt(e - 1) <= 0x20) e--;
  const last = raw.charCodeAt(e - 1);
  const asked = last === 0x3f;
  // A status written last: it ends in one of the status words' last two letters ("done", "pending",
  // "started", "to do", "in progress"…), with a separator among the last 28 characters.
  if (!asked && n > 8 && statusEnding(raw, e)) {
    const from = e > 28 ? e - 28 : 0;
    TAIL_GATE.lastIndex = from;
    if (TAIL_GATE.test(raw)) {
      STATUS_TAIL.lastIndex = from;
      const m = STATUS_TAIL.exec(raw);
      if (m) return STATUS[m[1]!.toLowerCase().replace(/\s+/g, ' ')] ?? -1;
    }
    // "Stage 1 complete.": a numbered item's status, with no separator.
    const m = n < 40 ? NUMBERED_STATUS.exec(raw) : null;
    if (m) return STATUS[m[1]!.toLowerCase()] ?? -1;
  }
  // The openings below sit in the first words; each regex runs only behind a cheap test, since a
  // 10k-entry snapshot runs this on every entry and nearly none holds any of them.
  let i = 0;
  while (i < n && raw.charCodeAt(i) <= 0x20) i++;
  const c = raw.charCodeAt(i) | 0x20;
  if (c === 0x73 || c === 0x2d || c === 0x2a) {
    // "Step 2: Modify …", "**SessionLive** - add the toggle event": a titled step.
    const m = STEP.exec(raw) ?? (c === 0x73 ? null : TITLED_STEP.exec(raw));
    if (m && isVerb(m[1]!.toLowerCase())) return NEXT;
  }
  // "Here's what we should do:"; not "Since the hook won't let me commit, I have two options:" (the
  // obstacle is the line's point).
  if (
    last === 0x3a &&
    (PLAN_HEADING.test(raw) || planColon(raw)) &&
    !/n['’]t\b|\b(?:not|cannot)\b/i.test(raw)
  )
    return NEXT;
  // A gerund opens within the first words: "Modifying `a.py` to …" (the regexes run only then).
  const ing = raw.indexOf('ing ');
  if (ing > 0 && ing < 24 && GERUND_CHANGE.test(raw) && !CLAUSE_VERB.test(raw)) return NEXT;
  // "If I change the code to:", "If I go with option 2…": the writer trying out a step.
  if (c === 0x69 && (last === 0x3a || last === 0x2e || last === 0x2026) && TRIAL.test(raw)) return NEXT;
  if (mayHold(raw, N_SHOULD) && raw.indexOf('should') > 0 && TRIAL_WORKS.test(raw)) return NEXT;
  // "If X, Y would …": a guessed consequence.
  if (c === 0x69 && !asked && mayHold(raw, N_WOULD) && raw.indexOf('would') >= 0 && CONDITIONAL.test(raw))
    return HYPOTHESIS;
  // Each form opens with one of a few words (after `\s*`, which may skip a non-ASCII space: then try all).
  const whole =
    raw.charCodeAt(i) >= 0x80 ? ALL_WHOLE_LINE : (WHOLE_LINE_BY_WORD.get(firstWordHash(raw, i)) ?? 0);
  if (whole !== 0)
    for (let k = 0; k < WHOLE_LINE.length; k++) {
      const [form, category, short] = WHOLE_LINE[k]!;
      if (whole & (1 << k) && (!short || n < 80) && form.test(raw)) return category;
    }
  // A reported question, asked of or by someone else.
  if (!asked && mayHold(raw, N_ASK) && raw.indexOf('ask') >= 0 && ASKED_IF.test(raw)) return QUESTION;
  if (last === 0x3a && (c === 0x74 || c === 0x73)) {
    const m = LEAD_IN.exec(raw);
    if (m && isVerb(m[1]!.toLowerCase())) return NEXT;
  }
  // Every rule below needs one of these words ("seems", "should", "must", a verb in "-ed"…).
  if (!mayHold(raw, N_SEEM | N_SHOULD | N_LOOK | N_APPEAR | N_MUST | N_ED_END) || !HEAD_GATE.test(raw))
    return -1;
  if (reportsEarly(raw, i)) {
    const r = REPORTED.exec(raw);
    if (r) {
      const verb = r[1]!.toLowerCase();
      if (verb === 'questioned' || verb === 'challenged') return QUESTION;
      if (verb === 'pointed out' || verb === 'complained') return BLOCKER;
      return NEXT;
    }
  }
  const should = mayHold(raw, N_SHOULD) ? raw.indexOf('should') : -1;
  if ((should >= 0 && should < 40) || (mayHold(raw, N_MUST) && raw.indexOf('must') >= 0)) {
    if (CONSTRAINT.test(raw)) return BLOCKER;
    if (MISSED.test(raw)) return BLOCKER;
  }
  if (!asked) {
    const seem = mayHold(raw, N_SEEM) ? raw.indexOf('seem') : -1;
    const look = seem >= 0 ? seem : mayHold(raw, N_LOOK) ? raw.indexOf('look') : -1;
    const at = look >= 0 ? look : mayHold(raw, N_APPEAR) ? raw.indexOf('appear') : -1;
    if (at >= 0 && at < 64) {
      const v = VERDICT.exec(raw);
      // "This looks right, but the test still fails": the verdict is not the line's last word.
      if (v && !/\b(?:but|however|although|except)\b/i.test(raw)) {
        const w = v[1]!.toLowerCase();
        return w === 'wrong' || w === 'broken' || w === 'incorrect' ? BLOCKER : NONE;
      }
    }
    if (should >= 0 && mayHold(raw, N_PROBABLY) && raw.indexOf('probably') >= 0) {
      const p = HEDGED_PLAN.exec(raw);
      // Any verb but "be"/"not": "`f` should probably become `g`" is a change to make, not a guess.
      if (p && !/^(?:be|not|have)$/i.test(p[1]!)) return NEXT;
    }
  }
  return -1;
}

/**
 * Whether one of the first five words ends in "ed", as every verb of {@link REPORTED} ("pointed"
 * included) does: the cheap test run before it.
 */
function reportsEarly(raw: string, from: number): boolean {
  let words = 0;
  let prev = 0;
  let prev2 = 0;
  for (let i = from; i <= raw.length && i < from + 80; i++) {
    const c = i < raw.length ? raw.charCodeAt(i) | 0x20 : 0x20;
    if (c >= 0x61 && c <= 0x7a) {
      prev2 = prev;
      prev = c;
      continue;
    }
    // A word ends: does it end in "ed"?
    if (prev === 0x64 && prev2 === 0x65) return true;
    if (prev !== 0 && ++words >= 5) return false;
    prev = 0;
    prev2 = 0;
  }
  return false;
}

/** Whether the text before `e` ends (past `.`, `!`, `)`, `*`) in "ne", "te", "ed", "ng", "do" or "ss". */
function statusEnding(raw: string, e: number): boolean {
  let k = e;
  while (k > 0) {
    const c = raw.charCodeAt(k - 1);
    if (c !== 0x2e && c !== 0x21 && c !== 0x29 && c !== 0x2a) break;
    k--;
  }
  const b = raw.charCodeAt(k - 1) | 0x20;
  const a = raw.charCodeAt(k - 2) | 0x20;
  return b === 0x65
    ? a === 0x6e || a === 0x74 // "ne", "te"
    : b === 0x64
      ? a === 0x65 // "ed"
      : (b === 0x6f && a === 0x64) || (b === 0x67 && a === 0x6e) || (b === 0x73 && a === 0x73); // "do", "ng", "ss"
}

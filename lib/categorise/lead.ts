/**
 * What an entry's opening says before its words are read: a label its writer put first
 * ("**Diagnosis:** …", "Goal: …"), a checkbox ("☒ Fix the parser", "☐ Add tests"), a listing line
 * ("Line 269: `…`"), a quoted source ("The PR says "…""), "I see the issue (now) - …", or an action in
 * progress ("Running `verify.py`.").
 * Each is the writer's own statement of what the line is, so it decides ahead of the word-by-word
 * reading. All checks look at the first few dozen characters (a checkbox anywhere), so they stay
 * linear.
 */

import { BLOCKER, EVIDENCE, HYPOTHESIS, NEXT, NONE, QUESTION } from './codes.js';
import { FINITE, IMP, KIND } from './cues.js';
import { firstWordGate, gateData } from './gates.js';
import { errorIn, quotesSource } from './located.js';
import { stanceCategory } from './stance.js';
import { afterListMarker } from './text.js';

/**
 * The last word of a leading label, and the category it gives the line. A `Map`, not an object: a
 * label word such as "constructor" or "toString" must not find `Object.prototype`'s members (it did,
 * and "constructor: …" returned a function as its category).
 */
const LABELS: ReadonlyMap<string, number> = /* @__PURE__ */ new Map(
  Object.entries({
    diagnosis: BLOCKER,
    problem: BLOCKER,
    problems: BLOCKER,
    issue: BLOCKER,
    issues: BLOCKER,
    bug: BLOCKER,
    blocker: BLOCKER,
    blockers: BLOCKER,
    cause: BLOCKER,
    // The task restated (session summaries open with it): nothing left to act on in the line itself.
    goal: NONE,
    goals: NONE,
    objective: NONE,
    context: NONE,
    background: NONE,
    overview: NONE,
    todo: NEXT,
    steps: NEXT,
    backlog: NEXT,
    next: NEXT,
    plan: NEXT,
    remaining: NEXT,
    pending: NEXT,
    hypothesis: HYPOTHESIS,
    theory: HYPOTHESIS,
    question: QUESTION,
    questions: QUESTION,
  }),
);

/** ☐ (open), ☑ ☒ ✅ ✔ (ticked). */
const BOX = /[\u2610-\u2612\u2705\u2714]/;
const BOLD_TITLE = /^\s*\*\*[^*\n]{1,80}?(?::\*\*|\*\*:)\s*$/;
/** A Markdown heading: up to three spaces, one to six `#`, a space or tab, then text. */
const HEADING = /^ {0,3}#{1,6}[ \t]+\S/;
const LABEL = /^\s*(?:[-*•]\s+)?\*{0,2}([A-Za-z][A-Za-z ]{0,30}?)\*{0,2}\s*:\*{0,2}\s+\S+\s+\S/;
/**
 * "I see / found / here's the issue", maybe after "ok", "ah", "now", "I can (now) see", with an article
 * and up to two words before the noun; what follows says whether the issue is named. One expression
 * for both readings: group 1 is the dash or colon that introduces the diagnosis.
 */
const SEES_ISSUE =
  /^\s*(?:(?:ok(?:ay)?|ah|now),?\s+)?(?:i\s+(?:can\s+)?(?:now\s+)?(?:see|found|spotted)|found|spotted|here(?:'|’)?s)\s+(?:the|an?)\s+(?:[\w-]+\s+){0,2}(?:issue|problem|bug|culprit)(?:\s+now)?(?:\s*([-–—:]|\s-|\s(?:in|with))\s*\S+\s+\S|\s*[.!]*\s*$)/i;

/**
 * Whether the letters last before the first colon (at `colon`) are a {@link LABELS} word. They are the
 * last word of {@link LABEL}'s group when it matches (only `*` and spaces come between), so without
 * one its match would decide nothing: the gate that spares the regex and its match.
 */
function labelBefore(raw: string, colon: number): boolean {
  let e = colon;
  while (e > 0 && !isAsciiLetter(raw.charCodeAt(e - 1))) e--;
  let s = e;
  while (s > 0 && isAsciiLetter(raw.charCodeAt(s - 1))) s--;
  return s < e && LABELS.has(raw.slice(s, e).toLowerCase());
}

function isAsciiLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x7a;
}

/** A line number and a colon open the entry; unless a plan for the line follows ("… should become …"). */
const LINE_LEAD = /^\s*line\s+\d+\s*(?::|shows\b)/i;
const PLANNED = /\b(?:should|must|needs?|will)\b/i;
/**
 * Bit 1 when a line opens with a word {@link SEES_ISSUE} can open with, bit 2 for {@link LINE_LEAD}: the
 * gate in front of each, its words read off the pattern (`firstWordGate`), not listed by hand.
 */
/**
 * @internal The forms {@link OPENS} gates, by the id of their gate data (gates-data.ts), in the order of
 * its bits.
 *
 * @example
 * ```ts
 * LEAD_FORMS['lead-line']?.test('Line 269: `x`'); // true
 * ```
 */
export const LEAD_FORMS: Readonly<Record<string, RegExp>> = {
  'lead-sees-issue': SEES_ISSUE,
  'lead-line': LINE_LEAD,
};
const OPENS = /* @__PURE__ */ firstWordGate(Object.keys(LEAD_FORMS).map((id) => gateData(id)?.first));

/**
 * The category the entry's opening gives it, as a `classify.ts` decision code, or -1 when it says
 * nothing.
 *
 * @example
 * ```ts
 * leadCategory('**Diagnosis:** the hook calls a removed venv'); // 1 (a blocker)
 * leadCategory('☒ Fix the parser ☐ Add tests'); // 2 (one box still open)
 * leadCategory('Running `verify.py`.'); // 2
 * ```
 */
export function leadCategory(raw: string): number {
  // Cheap gates first (native scans, a look at the first characters): a 10k-entry snapshot runs
  // this on every entry, and nearly all of them hold none of these openings.
  // A checkbox states the item's status: any open box leaves something to do; ticked boxes only, done.
  if (BOX.test(raw)) return raw.indexOf('\u2610') >= 0 ? NEXT : NONE;
  let i = 0;
  while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
  const c = raw.charCodeAt(i);
  if (c === 0x5b || ((c === 0x2d || c === 0x2a) && raw.charCodeAt(i + 2) === 0x5b)) {
    if (/^\s*(?:[-*]\s+)?\[ \]\s/.test(raw)) return NEXT;
    if (/^\s*(?:[-*]\s+)?\[[xX]\]\s/.test(raw)) return NONE;
  }
  // "Line 269: `…`", "Line 27: When the directory exists but …": a line of a listing or of a coverage
  // report, quoted as a place to look (the records of sets 7 and 11, eval/snapshot/sets/<n>/LABELLING.md); not "Line 196 starts `…`" (a description).
  const opens = OPENS(raw);
  if (opens & 2 && LINE_LEAD.test(raw) && !PLANNED.test(raw)) return EVIDENCE;
  if (quotesSource(raw)) return EVIDENCE; // "The PR says \"…\"": a source quoted (located.ts)
  if (errorIn(raw)) return EVIDENCE; // "the error is in `a/b.py`": where a failure shows (located.ts)
  // "I see / found / here's the issue …", maybe after "ok", "ah", "now".
  if (opens & 1) {
    const m = SEES_ISSUE.exec(raw);
    // Named ("I see the issue - the key is never reset") is a diagnosis; not named ("I can see the
    // redundancy issue!") is no note (LABELLING.md's tie-break).
    if (m) return m[1] !== undefined ? BLOCKER : NONE;
  }
  const colon = raw.indexOf(':');
  if (colon > 0 && colon < 48 && labelBefore(raw, colon)) {
    const m = LABEL.exec(raw);
    if (m) {
      const words = m[1]!.trim().toLowerCase().split(/\s+/);
      const category = LABELS.get(words[words.length - 1]!);
      if (category !== undefined && words.length <= 3) return category;
    }
  }
  const stance = stanceCategory(raw, isVerb);
  if (stance >= 0) return stance;
  return progressive(raw, i) ? NEXT : -1;
}

/** Words that may open a step before the action under way ("Now writing the logs."). */
const STEP_OPENER = /^(?:now|next|then|first|also|and)[,\s]\s*/i;

/**
 * "Running `verify.py`.", "Checking the fixtures", "Now writing the session logs.", "Checking how the
 * stylesheet is applied:": a line opening with an action under way (maybe after "now", "next"…). A
 * short clause (at most five more words), or a longer one (at most twenty) that ends with a colon,
 * the writer's sign that the action's output follows.
 */
function progressive(raw: string, from: number): boolean {
  // The first word (after a list marker and an opener) ends in "ing" after a stem of three letters or more.
  let s = afterListMarker(raw, from);
  const opener = STEP_OPENER.exec(raw.slice(s, s + 8));
  if (opener) s += opener[0].length;
  let e = s;
  while (e < raw.length && (raw.charCodeAt(e) | 0x20) >= 0x61 && (raw.charCodeAt(e) | 0x20) <= 0x7a) e++;
  if (
    e - s < 6 ||
    raw.charCodeAt(e - 1) !== 0x67 ||
    raw.charCodeAt(e - 2) !== 0x6e ||
    raw.charCodeAt(e - 3) !== 0x69 ||
    // A digit or `_` glued to the word makes it a name ("Running2", "loading_state").
    (raw.charCodeAt(e) >= 0x30 && raw.charCodeAt(e) <= 0x39) ||
    raw.charCodeAt(e) === 0x5f
  )
    return false;
  // One clause, no sentence break inside.
  const trimmed = raw.slice(e).trim();
  const colon = trimmed.endsWith(':');
  // The closing dots, ellipses and colons dropped by hand: `/[.…:]+$/` would rescan a long run of
  // them from each of its positions.
  let end = trimmed.length;
  while (end > 0 && ':.…'.includes(trimmed[end - 1]!)) end--;
  const rest = trimmed.slice(0, end);
  const words = rest.split(/\s+/).filter(Boolean).length;
  if (/[.!?;]\s/.test(rest) || words > (colon ? 20 : 10)) return false;
  // Past five words, a comma turns to what the writer saw ("Looking at X, I see …:") and a verb makes
  // the action a subject ("Cloning is relatively cheap"): no step.
  if (words > 5 && (rest.indexOf(', ') >= 0 || holdsFinite(rest))) return false;
  if (EVALUATION.test(rest)) return false; // "Looking good.": a remark, not an action under way
  const stem = raw.slice(s, e - 3).toLowerCase();
  // "Looking at the snippet I retrieved:" introduces what the writer saw, not a step; short, it stays one.
  if (words > 5 && stem === 'look') return false;
  const last = stem.length - 1;
  return (
    isVerb(stem) ||
    isVerb(`${stem}e`) ||
    // "running" → run, "debugging" → debug
    (stem.charCodeAt(last) === stem.charCodeAt(last - 1) && isVerb(stem.slice(0, last)))
  );
}

/** An evaluation after an `-ing` word: "Looking good", "Looking much better". */
const EVALUATION =
  /^(?:(?:very|much|really|pretty|so)\s+)?(?:good|great|fine|better|solid|promising|correct|clean|right|perfect)\b/i;

/** Whether a word of `text` is one the vocabulary marks as making what precedes it a subject (cues.ts `FINITE`). */
function holdsFinite(text: string): boolean {
  for (const w of text.toLowerCase().split(/[^a-z']+/)) if (((KIND.get(w) ?? 0) & FINITE) !== 0) return true;
  return false;
}

/** Whether a word opens a plan (`run`, `check`): for {@link leadCategory}'s actions under way. */
function isVerb(w: string): boolean {
  return ((KIND.get(w) ?? 0) & IMP) !== 0;
}

/**
 * Whether the entry is a title over what follows ("**README.md Simplification:**"): a file it names
 * is its subject, not a pointer to evidence.
 *
 * @example
 * ```ts
 * titled('**README.md Simplification:**'); // true
 * titled('Log: logs/run-12.txt'); // false
 * ```
 */
export function titled(raw: string): boolean {
  let e = raw.length;
  while (e > 0 && (raw.charCodeAt(e - 1) === 0x2a || raw.charCodeAt(e - 1) <= 0x20)) e--;
  if (raw.charCodeAt(e - 1) !== 0x3a) return false;
  let s = e - 1;
  while (s > 0 && raw.charCodeAt(s - 1) > 0x20) s--;
  const last = raw.slice(s, e - 1);
  return last.indexOf('/') < 0 && last.indexOf('.') < 0;
}

/**
 * Whether the entry is a bold title over what follows ("**Troubleshooting CI Failures:**"): no note
 * of its own, whatever its words or the paths in it.
 *
 * @example
 * ```ts
 * boldTitle('**Key Features/Requirements:**'); // true
 * boldTitle('**Diagnosis:** the hook calls a removed venv'); // false
 * ```
 */
export function boldTitle(raw: string): boolean {
  let i = 0;
  while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
  return raw.charCodeAt(i) === 0x2a && raw.charCodeAt(i + 1) === 0x2a && BOLD_TITLE.test(raw);
}

/**
 * Whether the entry is a Markdown heading ("## Review summary", "### Commit 6 — feat: shared
 * BackToDashboardLink"): a title over what follows, like a bold title, so no note of its own — not
 * resolved either (a heading reports nothing done). A forced category stays, and the snapshot still
 * reads a failed call's error line that looks like one as a problem (aider prints "# 1 SEARCH/REPLACE
 * block failed to match!").
 *
 * @example
 * ```ts
 * headingLine('## Todo List'); // true
 * headingLine('#123 is the issue to fix'); // false
 * ```
 */
export function headingLine(raw: string): boolean {
  return raw.charCodeAt(0) <= 0x23 && HEADING.test(raw);
}

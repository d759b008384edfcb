/**
 * What an entry's opening says before its words are read: a label its writer put first
 * ("**Diagnosis:** …", "Goal: …"), a checkbox ("☒ Fix the parser", "☐ Add tests"), a listing line
 * ("Line 269: `…`"), a quoted source ("The PR says "…""), "I see the issue (now) - …", or an action in
 * progress ("Running `verify.py`.").
 * Each is the writer's own statement of what the line is, so it decides ahead of the word-by-word
 * reading. The openings are rows of a table (lead-rules.ts), each behind a gate read off its pattern;
 * an action under way is read with the vocabulary's verbs. All checks look at the first few dozen
 * characters (a checkbox anywhere), so they stay linear.
 */

import { EVIDENCE, NEXT } from './codes.js';
import { FINITE, IMP, KIND } from './cues.js';
import { firstWordGate, gateData } from './gates.js';
import { LABELS, LEAD_RULES, type LeadRule } from './lead-rules.js';
import { errorIn, quotesSource } from './located.js';
import { stanceCategory } from './stance.js';
import { afterListMarker } from './text.js';

const BOLD_TITLE = /^\s*\*\*[^*\n]{1,80}?(?::\*\*|\*\*:)\s*$/;
/** A Markdown heading: up to three spaces, one to six `#`, a space or tab, then text. */
const HEADING = /^ {0,3}#{1,6}[ \t]+\S/;
/**
 * Whether the letters last before the first colon (at `colon`) are a {@link LABELS} word. They are the
 * last word of the label rule's group when it matches (only `*` and spaces come between), so without
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

/**
 * Bit k when a line may open as rule k of {@link LEAD_RULES} opens: the gate in front of each, its
 * words read off the pattern (`firstWordGate`, gates-data.ts), not listed by hand.
 */
const OPENS = /* @__PURE__ */ firstWordGate(LEAD_RULES.map((r) => gateData(r.id)?.first));

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
  // A source quoted ("The PR says \"…\"") or where a failure shows ("the error is in `a/b.py`"):
  // evidence, whatever else the opening says (located.ts's table).
  if (quotesSource(raw) || errorIn(raw)) return EVIDENCE;
  // Cheap gates first: a 10k-entry snapshot runs this on every entry, and nearly all of them hold
  // none of these openings.
  const opens = OPENS(raw);
  const colon = raw.indexOf(':');
  for (let k = 0; k < LEAD_RULES.length; k++) {
    if (!(opens & (1 << k))) continue;
    const category = ruleCategory(LEAD_RULES[k]!, raw, colon);
    if (category >= 0) return category;
  }
  const stance = stanceCategory(raw, isVerb);
  if (stance >= 0) return stance;
  let i = 0;
  while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
  return progressive(raw, i) ? NEXT : -1;
}

/** What one rule of {@link LEAD_RULES} makes of `raw` (-1: nothing); `colon` is its first `:`. */
function ruleCategory(rule: LeadRule, raw: string, colon: number): number {
  // A label's last word is one of the table's, or the line has no label worth the expression.
  if (rule.category === 'label' && !(colon > 0 && colon < 48 && labelBefore(raw, colon))) return -1;
  const m = rule.pattern.exec(raw);
  if (m === null || rule.unless?.test(raw)) return -1;
  if (rule.category !== 'label')
    return rule.bare !== undefined && m[1] === undefined ? rule.bare : rule.category;
  const words = m[1]!.trim().toLowerCase().split(/\s+/);
  return words.length <= 3 ? (LABELS.get(words[words.length - 1]!) ?? -1) : -1;
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

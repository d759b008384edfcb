/**
 * What an entry's opening says, as data: one row per rule (id, pattern, category, an example), tried in
 * order by `leadCategory` (lead.ts) before the word-by-word reading. What a rule needs besides its
 * pattern is in its row (a veto; the category when a group took no part; a label's word table); the
 * shortcut in front of each row is read off its pattern (gates.ts), never written beside it.
 *
 * Each is the writer's own statement of what the line is (a checkbox, a label put first, a listing's
 * line number, "I see the issue - …"), so it decides ahead of the words. Every pattern is anchored at the
 * line's start, or (a box) one character, so each stays linear.
 */
import { BLOCKER, EVIDENCE, HYPOTHESIS, NEXT, NONE, QUESTION } from './codes.js';

/** One rule of an entry's opening. */
export interface LeadRule {
  id: string;
  pattern: RegExp;
  /**
   * The category a match gives, as a `classify.ts` decision code; `'label'`: the one {@link LABELS}
   * gives the last word of group 1 (a label of at most three words), none for another word.
   */
  category: number | 'label';
  /** The category when group 1 took no part ("I can see the redundancy issue!": the issue not named). */
  bare?: number;
  /** A match of this anywhere in the line vetoes the rule ("Line 12: … should become …" is a plan). */
  unless?: RegExp;
  /** A line the rule reads. */
  example: string;
}

/**
 * @internal The last word of a leading label, and the category it gives the line. A `Map`, not an
 * object: a label word such as "constructor" or "toString" must not find `Object.prototype`'s members
 * (it did, and "constructor: …" returned a function as its category).
 *
 * @example
 * ```ts
 * LABELS.get('diagnosis'); // 1 (a blocker)
 * ```
 */
export const LABELS: ReadonlyMap<string, number> = /* @__PURE__ */ new Map(
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

/**
 * @internal The rules, in the order they are tried.
 *
 * @example
 * ```ts
 * LEAD_RULES.find((r) => r.id === 'lead-line')?.pattern.test('Line 269: `x`'); // true
 * ```
 */
export const LEAD_RULES: readonly LeadRule[] = [
  // A checkbox states the item's status: any open box leaves something to do; ticked boxes only, done.
  { id: 'lead-open-box', pattern: /\u2610/, category: NEXT, example: '☒ Fix the parser ☐ Add tests' },
  { id: 'lead-ticked-box', pattern: /[\u2611\u2612\u2705\u2714]/, category: NONE, example: '✅ Add tests' },
  {
    id: 'lead-open-checkbox',
    pattern: /^\s*(?:[-*]\s+)?\[ \]\s/,
    category: NEXT,
    example: '- [ ] Add tests',
  },
  {
    id: 'lead-ticked-checkbox',
    pattern: /^\s*(?:[-*]\s+)?\[[xX]\]\s/,
    category: NONE,
    example: '- [x] Add tests',
  },
  // "Line 269: `…`", "Line 27: When the directory exists but …": a line of a listing or of a coverage
  // report, quoted as a place to look (sets 7 and 11, eval/snapshot/sets/<n>/LABELLING.md); not
  // "Line 196 starts `…`" (a description).
  {
    id: 'lead-line',
    pattern: /^\s*line\s+\d+\s*(?::|shows\b)/i,
    category: EVIDENCE,
    unless: /\b(?:should|must|needs?|will)\b/i,
    example: 'Line 269: `return None`',
  },
  // "I see / found / here's the issue", maybe after "ok", "ah", "now", "I can (now) see", with an article
  // and up to two words before the noun. Named ("I see the issue - the key is never reset": group 1 is
  // the dash or colon that introduces it) is a diagnosis; not named is no note (LABELLING.md's tie-break).
  {
    id: 'lead-sees-issue',
    pattern:
      /^\s*(?:(?:ok(?:ay)?|ah|now),?\s+)?(?:i\s+(?:can\s+)?(?:now\s+)?(?:see|found|spotted)|found|spotted|here(?:'|’)?s)\s+(?:the|an?)\s+(?:[\w-]+\s+){0,2}(?:issue|problem|bug|culprit)(?:\s+now)?(?:\s*([-–—:]|\s-|\s(?:in|with))\s*\S+\s+\S|\s*[.!]*\s*$)/i,
    category: BLOCKER,
    bare: NONE,
    example: 'I see the issue - the key is never reset',
  },
  // A label its writer put first ("**Diagnosis:** …", "Goal: …"): its last word names the category.
  {
    id: 'lead-label',
    pattern: /^\s*(?:[-*•]\s+)?\*{0,2}([A-Za-z][A-Za-z ]{0,30}?)\*{0,2}\s*:\*{0,2}\s+\S+\s+\S/,
    category: 'label',
    example: '**Diagnosis:** the hook calls a removed venv',
  },
];

/**
 * FROZEN copy of an older lib/snapshot/classify.ts (the "old rules" baseline of
 * `npm run eval:snapshot`). Do not edit: it is what the new categoriser is compared with.
 *
 * Keyword categorization of memory entries, negation- and resolution-aware: "no error found", "the
 * flaky test is fixed" and "not blocked anymore" are not blockers. One pass over the words of an
 * entry with set look-ups; no per-category regex.
 */
import type { SnapshotCategory } from '../../lib/snapshot/index.js';

const set = (s: string) => new Set(s.split(' '));

const BLOCKER = set(
  'error errors fail fails failed failing failure failures broken break breaks blocked blocker blockers blocking ' +
    'exception exceptions crash crashes crashed crashing timeout timeouts panic panics denied cannot unable stuck ' +
    "regression regressions traceback segfault hang hangs hanging flaky can't won't red 401 403 404 500 oom",
);
const NEGATOR = set(
  "no not never without zero 0 none nothing nor neither isn't aren't wasn't weren't doesn't don't didn't hasn't haven't",
);
/** Words that say the problem itself is gone. */
const RESOLVED = set('fixed resolved solved unblocked addressed cleared gone anymore mitigated');
/** Words that say things work: a resolution only when no problem word stands un-negated. */
const PASSING = set(
  'passes passing passed pass green works working succeeded succeeds success successful ok',
);
/** Before a resolution word, these make it future or conditional ("needs to be fixed", "once fixed"). */
const IRREALIS = set('be to need needs should must until once if when unless will would');
const STILL = set('still again');
const HYPOTHESIS = set(
  'maybe might perhaps probably likely possibly presumably suspect suspects suspected suspicion hypothesis ' +
    'hypothesize theory guess seems seem plausibly',
);
const QUESTION_START = set('why how what which whether who where is are does do can should could would');
const QUESTION_WORD = set('unclear unknown tbd question questions wonder undecided');
const IMPERATIVE = set(
  'add fix run rerun update write check investigate implement remove refactor verify test create rename move ' +
    'migrate review retry bump document ensure try split profile measure benchmark deploy revert reproduce debug ' +
    'look read replace use switch wire make set configure install upgrade delete clean merge open ask confirm ' +
    'compare extract validate port draft finish continue start rewrite simplify cache drop handle',
);
const ACTION_WORD = set('next todo to-do plan planned follow followup should must need needs going');

/**
 * The category an entry's scope forces, if its name is one (`blockers`, `nextActions`, `evidence`, …);
 * otherwise the entry is categorized by its text.
 *
 * @example
 * ```ts
 * scopeCategory('blockers'); // 'blockers'
 * scopeCategory('notes');    // undefined
 * ```
 */
export function scopeCategory(scope: string): SnapshotCategory | undefined {
  const s = scope.toLowerCase();
  if (s.startsWith('blocker') || s === 'blocked' || s === 'issues') return 'blockers';
  if (s.startsWith('hypothes') || s === 'theories' || s === 'theory') return 'openHypotheses';
  if (s === 'next' || s.startsWith('next') || s.startsWith('action') || s === 'todo' || s === 'plan')
    return 'nextActions';
  if (s.startsWith('question')) return 'unresolvedQuestions';
  if (s.startsWith('evidence') || s.startsWith('link') || s.startsWith('artifact'))
    return 'requiredEvidenceLinks';
  return undefined;
}

/** What the words of an entry say. */
export interface Classification {
  category: SnapshotCategory | undefined;
  /** A problem the entry reports as gone (or a negated one: "no error found"). */
  resolved: boolean;
}

const B = 1;
const N = 2;
const R = 4;
const P = 8;
const IR = 16;
const ST = 32;
const H = 64;
const QW = 128;
const AW = 256;
/** Every keyword with the bit of each set it belongs to: one look-up per word. */
const KIND = new Map<string, number>();
for (const [bit, words] of [
  [B, BLOCKER],
  [N, NEGATOR],
  [R, RESOLVED],
  [P, PASSING],
  [IR, IRREALIS],
  [ST, STILL],
  [H, HYPOTHESIS],
  [QW, QUESTION_WORD],
  [AW, ACTION_WORD],
] as const) {
  for (const w of words) KIND.set(w, (KIND.get(w) ?? 0) | bit);
}

function negatedAt(ws: readonly string[], i: number): boolean {
  for (let j = Math.max(0, i - 3); j < i; j++) if (NEGATOR.has(ws[j]!)) return true;
  // "error-free", "errors: none"
  const next = ws[i + 1];
  return next === 'free' || next === 'none';
}

/**
 * Classifies one entry's text. `ws` are its lower-cased words, `raw` the text (for `?`).
 *
 * @example
 * ```ts
 * classify(words('no error found'), 'no error found'); // { category: undefined, resolved: true }
 * ```
 */
export function classify(ws: readonly string[], raw: string, forced?: SnapshotCategory): Classification {
  let problem = false; // an un-negated problem word
  let stillProblem = false;
  let negatedProblem = false;
  let resolvedWord = false;
  let passingWord = false;
  let hypothesis = false;
  let questionWord = false;
  let actionWord = false;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (w === 'longer' && i > 0 && ws[i - 1] === 'no') resolvedWord = true;
    if (w === 'could' && ws[i + 1] === 'be') hypothesis = true;
    const kind = KIND.get(w);
    if (kind === undefined) {
      if (w === 'i' && (ws[i + 1] === 'think' || ws[i + 1] === 'suspect')) hypothesis = true;
      continue;
    }
    if (kind & B) {
      if (negatedAt(ws, i)) negatedProblem = true;
      else {
        problem = true;
        if ((i > 0 && STILL.has(ws[i - 1]!)) || (i > 1 && STILL.has(ws[i - 2]!))) stillProblem = true;
      }
    } else if (kind & (R | P)) {
      let real = true;
      for (let j = Math.max(0, i - 3); j < i; j++) {
        const p = ws[j]!;
        if (NEGATOR.has(p) || IRREALIS.has(p) || STILL.has(p)) real = false;
      }
      // "no longer": resolution of what follows
      if (real) {
        if (kind & R) resolvedWord = true;
        else passingWord = true;
      }
    } else if (kind & H) hypothesis = true;
    else if (kind & QW) questionWord = true;
    else if (kind & AW) actionWord = true;
    if (w === 'not' && ws[i + 1] === 'sure') questionWord = true;
  }
  const resolved =
    !stillProblem && (resolvedWord || (passingWord && !problem) || (negatedProblem && !problem));
  if (forced) return { category: resolved && forced === 'blockers' ? undefined : forced, resolved };
  if (resolved) return { category: undefined, resolved: true };
  const trimmed = raw.trimEnd();
  const first = ws[0] ?? '';
  if (trimmed.endsWith('?') || (questionWord && !problem))
    return { category: 'unresolvedQuestions', resolved };
  if (hypothesis) return { category: 'openHypotheses', resolved };
  if (IMPERATIVE.has(first) || first === 'todo' || first === 'next' || (first === 'need' && ws[1] === 'to'))
    return { category: 'nextActions', resolved };
  if (problem) return { category: 'blockers', resolved };
  if (QUESTION_START.has(first) && trimmed.endsWith('?'))
    return { category: 'unresolvedQuestions', resolved };
  if (actionWord) return { category: 'nextActions', resolved };
  return { category: undefined, resolved };
}

/**
 * The category a task's status gives: blocked → blockers; open → next actions; done → none.
 *
 * @example
 * ```ts
 * taskCategory('blocked'); // 'blockers'
 * taskCategory('done');    // undefined
 * ```
 */
export function taskCategory(status: string): SnapshotCategory | undefined {
  const s = status.toLowerCase().replace(/[\s-]+/g, '_');
  if (s === 'blocked' || s === 'failed' || s === 'failing') return 'blockers';
  if (
    s === 'done' ||
    s === 'completed' ||
    s === 'complete' ||
    s === 'closed' ||
    s === 'cancelled' ||
    s === 'skipped'
  )
    return undefined;
  return 'nextActions';
}

// Word flags for {@link classifyFlags}: the KIND bits above, then the words `classify` names.
const W_LONGER = 1 << 9;
const W_NO = 1 << 10;
const W_COULD = 1 << 11;
const W_BE = 1 << 12;
const W_I = 1 << 13;
const W_THINK = 1 << 14; // think, suspect
const W_NOT = 1 << 15;
const W_SURE = 1 << 16;
const W_FREE = 1 << 17; // free, none
const W_IMPERATIVE = 1 << 18;
const W_TODO = 1 << 19;
const W_NEXT = 1 << 20;
const W_NEED = 1 << 21;
const W_TO = 1 << 22;
const W_QUESTION_START = 1 << 23;

/** What {@link classifyFlags} needs to know of one lower-cased word, computed once per word. */
export function wordFlags(w: string): number {
  let f = KIND.get(w) ?? 0;
  if (w === 'longer') f |= W_LONGER;
  if (w === 'no') f |= W_NO;
  if (w === 'could') f |= W_COULD;
  if (w === 'be') f |= W_BE;
  if (w === 'i') f |= W_I;
  if (w === 'think' || w === 'suspect') f |= W_THINK;
  if (w === 'not') f |= W_NOT;
  if (w === 'sure') f |= W_SURE;
  if (w === 'free' || w === 'none') f |= W_FREE;
  if (IMPERATIVE.has(w)) f |= W_IMPERATIVE;
  if (w === 'todo') f |= W_TODO;
  if (w === 'next') f |= W_NEXT;
  if (w === 'need') f |= W_NEED;
  if (w === 'to') f |= W_TO;
  if (QUESTION_START.has(w)) f |= W_QUESTION_START;
  return f;
}

/** The length of the longest keyword made of digits (`404`): a longer number has no {@link wordFlags}. */
export const MAX_DIGIT_KEYWORD = Math.max(
  0,
  ...[...KIND.keys(), ...IMPERATIVE, ...QUESTION_START]
    .filter((w) => /^[0-9]+$/.test(w))
    .map((w) => w.length),
);

/** {@link classifyFlags}: no category, not resolved. */
export const NO_CATEGORY = -1;
/** {@link classifyFlags}: resolved (so no category). */
export const RESOLVED_CODE = 4;

/**
 * {@link classify} without a forced category, from the {@link wordFlags} of the words (`flagsOf[ids[i]]`):
 * the category's index in snapshot order (openHypotheses 0, blockers 1, nextActions 2,
 * unresolvedQuestions 3), {@link RESOLVED_CODE} or {@link NO_CATEGORY}. The same decisions, step by step.
 */
export function classifyFlags(ids: readonly number[], flagsOf: readonly number[], raw: string): number {
  let problem = false;
  let stillProblem = false;
  let negatedProblem = false;
  let resolvedWord = false;
  let passingWord = false;
  let hypothesis = false;
  let questionWord = false;
  let actionWord = false;
  const n = ids.length;
  for (let i = 0; i < n; i++) {
    const f = flagsOf[ids[i]!]!;
    const next = i + 1 < n ? flagsOf[ids[i + 1]!]! : 0;
    if (f & W_LONGER && i > 0 && flagsOf[ids[i - 1]!]! & W_NO) resolvedWord = true;
    if (f & W_COULD && next & W_BE) hypothesis = true;
    const kind = f & 0x1ff;
    if (kind === 0) {
      if (f & W_I && next & W_THINK) hypothesis = true;
      continue;
    }
    if (kind & B) {
      let negated = false;
      for (let j = Math.max(0, i - 3); j < i; j++) if (flagsOf[ids[j]!]! & N) negated = true;
      if (negated || next & W_FREE) negatedProblem = true;
      else {
        problem = true;
        if ((i > 0 && flagsOf[ids[i - 1]!]! & ST) || (i > 1 && flagsOf[ids[i - 2]!]! & ST))
          stillProblem = true;
      }
    } else if (kind & (R | P)) {
      let real = true;
      for (let j = Math.max(0, i - 3); j < i; j++) if (flagsOf[ids[j]!]! & (N | IR | ST)) real = false;
      if (real) {
        if (kind & R) resolvedWord = true;
        else passingWord = true;
      }
    } else if (kind & H) hypothesis = true;
    else if (kind & QW) questionWord = true;
    else if (kind & AW) actionWord = true;
    if (f & W_NOT && next & W_SURE) questionWord = true;
  }
  const resolved =
    !stillProblem && (resolvedWord || (passingWord && !problem) || (negatedProblem && !problem));
  if (resolved) return RESOLVED_CODE;
  // raw.trimEnd().endsWith('?'), without trimming when the last character is no space.
  const last = raw.charCodeAt(raw.length - 1);
  const question = last === 0x3f || ((last <= 0x20 || last >= 0x80) && raw.trimEnd().endsWith('?'));
  const first = n > 0 ? flagsOf[ids[0]!]! : 0;
  if (question || (questionWord && !problem)) return 3;
  if (hypothesis) return 0;
  if (first & (W_IMPERATIVE | W_TODO | W_NEXT) || (first & W_NEED && n > 1 && flagsOf[ids[1]!]! & W_TO))
    return 2;
  if (problem) return 1;
  if (first & W_QUESTION_START && question) return 3;
  if (actionWord) return 2;
  return NO_CATEGORY;
}

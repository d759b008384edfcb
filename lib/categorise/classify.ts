/**
 * Categorization of memory entries by what the sentence does, not which keywords it holds: a
 * pointer to evidence, a question (asked or reported), a plan (imperative, `let me`, `I'll`, `need
 * to`), a done-report or resolved problem (past tense, `has been added`, `no longer fails`, `0
 * failures`, expected failures), a hedged claim (`probably`, `might be caused by`), or a problem
 * that still stands (status words, `doesn't work`, `still fails`). One pass over the words with one
 * flag look-up each, then a fixed order of decisions: linear, and free of locale, clock and chance.
 * The word sets were chosen on the tune sources of the labelled set in eval/snapshot/ (never its
 * held-out ones).
 */
import { CATEGORY_OF_CODE, NO_CATEGORY, RESOLVED_CODE, type SnapshotCategory } from './codes.js';
import {
  AUX,
  BENIGN,
  C_ARE,
  C_AS,
  C_ASKED,
  C_ASSUME,
  C_BE,
  C_BUT,
  C_CAN,
  C_CLEAR,
  C_COULD,
  C_EVAL_LAST,
  C_EXPECTED,
  C_FIX,
  C_FREE,
  C_GOING,
  C_GOT,
  C_HAVE,
  C_I,
  C_IS,
  C_KNOW_LAST,
  C_LET,
  C_LONGER,
  C_MAY,
  C_ME,
  C_MIGHT,
  C_MUST,
  C_NEED,
  C_NEEDED,
  C_NEEDS,
  C_NO,
  C_NONE,
  C_NOW,
  C_OBJECT_LAST,
  C_OF,
  C_OUT,
  C_SHOULD,
  C_STEP,
  C_SURE,
  C_THAN,
  C_THE,
  C_THERE,
  C_THINK,
  C_TIMED,
  C_TIMES,
  C_TO,
  C_US,
  C_USEFUL,
  C_WANT,
  C_WHETHER,
  C_WILL,
  CLAUSE,
  COND,
  codeOf,
  DIAG,
  DISC,
  ED,
  FINITE,
  FUNC,
  HEDGE,
  IMP,
  IRR,
  NEG,
  namesPlace,
  opensObject,
  opensPlan,
  PART,
  PASS,
  PLANC,
  PROBLEM,
  PUNCTUATION,
  QSTART,
  RES,
  RESOLVE_VERBS,
  RQ,
  readPunctuation,
  STILL,
  SUBJ,
  WEAK,
  wordFlags,
} from './cues.js';
import { englishOpening, orLast } from './english.js';
import * as forms from './forms.js';
import { glossedPointer, lookedAtPointer } from './gloss.js';
import { otherLanguage, plainTextPlan } from './languages.js';
import { boldTitle, headingLine, leadCategory, titled } from './lead.js';
import { hedgedPlace, locatesEvidence } from './located.js';
import { isPointer, plainFirst, shoutedFirst } from './pointer.js';
import { answersItself, copulaPointer, endsWithColon, endsWithQuestionMark } from './text.js';

export { MAX_DIGIT_KEYWORD, scopeCategory, taskCategory, wordFlags } from './cues.js';
export { NO_CATEGORY, RESOLVED_CODE };

let scratch: number[] = []; // flags of the entry being classified (reused: classification is synchronous)

/**
 * {@link classify} without a forced category, from the {@link wordFlags} of the words `ids[at … at + n)`:
 * the category's index in snapshot order (openHypotheses 0 … requiredEvidenceLinks 4), {@link RESOLVED_CODE}
 * or {@link NO_CATEGORY}. `mayLink: false` promises no `/` and no `.` before a letter (so no pointer).
 * The text is ASCII (the word table read it): of the other languages only a plain Spanish plan is read.
 *
 * @example
 * ```ts
 * const vocab = new Vocabulary();
 * classifyFlags(scanWords('Run the suite', vocab)!, vocab.flags, 'Run the suite'); // 2
 * ```
 */
export function classifyFlags(
  ids: ArrayLike<number>,
  flagsOf: readonly number[],
  raw: string,
  mayLink = true,
  at = 0,
  n = ids.length,
): number {
  if (headingLine(raw)) return NO_CATEGORY; // a title over what follows, in any language
  if (scratch.length < n) scratch = new Array<number>(n * 2).fill(0);
  for (let i = 0; i < n; i++) scratch[i] = flagsOf[ids[at + i]!]!;
  const c = decide(scratch, n, raw, mayLink);
  return c !== NO_CATEGORY ? c : orLast(plainTextPlan(raw), raw);
}

/** What the words of an entry say. */
export interface Classification {
  category: SnapshotCategory | undefined;
  /** The entry reports a problem as gone, or something as done ("no error found", "Added 3 tests"). */
  resolved: boolean;
}

/**
 * Classifies one entry's text. `ws` are its lower-cased words, `raw` the text (for `?` and paths).
 * A forced category (from the entry's scope) wins, but a resolved blocker is none.
 *
 * @example
 * ```ts
 * classify(words('no error found'), 'no error found'); // { category: undefined, resolved: true }
 * classify(words('Tests still fail on CI'), 'Tests still fail on CI').category; // 'blockers'
 * ```
 */
export function classify(ws: readonly string[], raw: string, forced?: SnapshotCategory): Classification {
  if (headingLine(raw)) return { category: forced, resolved: false };
  const fs = ws.map(wordFlags);
  let c = decide(fs, fs.length, raw, true);
  if (c === NO_CATEGORY) c = orLast(otherLanguage(raw), raw); // not ASCII comes here; a negated state last
  const resolved = c === RESOLVED_CODE;
  if (forced) return { category: resolved && forced === 'blockers' ? undefined : forced, resolved };
  return { category: CATEGORY_OF_CODE[c], resolved };
}

/** The decisions, in order, over the flags `fs[0 … n)` of an entry's words. */
function decide(fs: number[], n: number, raw: string, mayLink: boolean): number {
  if (n === 0) return NO_CATEGORY;
  if (boldTitle(raw)) return RESOLVED_CODE;
  const opening = englishOpening(raw, 'first');
  if (opening !== undefined) return opening;
  const lead = leadCategory(raw);
  // A path with an imperative or an action under way is a step ("Run `check.py`"); alone, a place to look.
  if (mayLink && isPointer(raw) && !titled(raw))
    return (fs[0]! & IMP && plainFirst(raw)) || lead === 2 ? 2 : 4;
  if (mayLink && (namesPlace(fs, n, raw, copulaPointer) || lookedAtPointer(raw))) return 4;
  if (lead >= 0) return lead;
  // Quoted code and an opening file name ("fix.py was updated") change what its words say.
  let punctuated = raw.indexOf('`') >= 0;
  if (punctuated) readPunctuation(fs, n, raw);
  for (let i = Math.min(forms.namedFirst(raw), n) - 1; i >= 0; i--) fs[i] = 0;
  // The first word that is not a discourse marker ("Now, …", "OK so …") nor a one-word label
  // ("**Change**: Added …", "List: `[a]`", "Fix: add the guard" is read from "add").
  let start = n > 1 && forms.labelFirst(raw) ? 1 : 0;
  while (start < n - 1 && fs[start]! & DISC) start++;
  // "So, step 1: Modify `scales.py`": a numbered step is read from its verb.
  if (codeOf(fs[start]!) === C_STEP && start + 2 < n && fs[start + 2]! & IMP) start += 2;
  const first = fs[start]!;
  const c0 = codeOf(first);
  const asked = endsWithQuestionMark(raw);
  if (asked && first & QSTART) return 3; // "Why does it hang?", "Should 529 be retried?"
  const next0 = start + 1 < n ? fs[start + 1]! : 0;
  if (
    (!asked && first & PLANC) ||
    // "Check if X has the guard - it does" is a finding; "Install finished." a noun, then its outcome.
    (!asked &&
      first & IMP &&
      !(next0 & FINITE) &&
      !answersItself(raw) &&
      !forms.reportsOutcome(raw) &&
      !(start === 0 && shoutedFirst(raw))) ||
    (c0 === C_LET && (codeOf(next0) === C_ME || codeOf(next0) === C_US)) ||
    (first & WEAK && c0 === 0 && start + 1 < n && !forms.namesNext(fs, start, n))
  )
    return 2;
  const heading = englishOpening(raw, 'after-plan');
  if (heading !== undefined) return heading;

  let problem = false; // an un-negated, un-excused problem
  let negatedProblem = false;
  let still = false; // a problem that stands despite what else the entry says
  let resolvedWord = false;
  let passing = false;
  let done = false;
  let hedge = false;
  let question = false;
  let plan = false;
  let weak = false;
  let benign = false;
  let afterBut = false;
  let needed = false;
  let past = false; // a past-tense or participle word (not a problem word): a gloss that reports
  let clauseCandidate = false;
  let expectation = 0; // 1: "X should be …" (not a plan); 2: "Expected …" opens the entry
  let contrast = false; // what should be, then what is: "should be reset, but …", "Expected 3, got 4"
  let expectedAt = -1; // the last "expected" that can open "expected X, got Y"
  let butAt = -1;
  let contrastMet = false; // what follows the "but" says the expectation holds
  const conditional = (first & COND) !== 0;
  for (let i = 0; i < n; i++) {
    let f = fs[i]!;
    if (f === 0) continue; // most words say nothing here
    const c = codeOf(f);
    if (c >= C_THE && c <= C_OBJECT_LAST && (f & 0xffffff) === 0) continue; // "the", "it": objects only
    const prev = i > 0 ? fs[i - 1]! : 0;
    const pc = codeOf(prev);
    const next = i + 1 < n ? fs[i + 1]! : 0;
    const nc = codeOf(next);
    // "times out", "timed out"; not "three times out of ten".
    if ((c === C_TIMES || c === C_TIMED) && nc === C_OUT && (i + 2 >= n || codeOf(fs[i + 2]!) !== C_OF))
      f |= PROBLEM;
    if (c === C_BUT) {
      afterBut = true;
      if (expectation) contrast = true;
      butAt = i;
    } else if (butAt >= 0 && f & (BENIGN | RES | PASS)) contrastMet = true; // "…, but that is fine"
    // "Expected 3, got 4", also inside an entry ("the test is failing: expected 200, got 500"); not
    // "as expected, we got …" or "faster than expected, and we got …".
    if (c === C_GOT && (expectation === 2 || (expectedAt >= 0 && i - expectedAt <= 4))) contrast = true;
    if (c === C_EXPECTED) {
      if (pc !== C_AS && pc !== C_THAN) expectedAt = i;
      if (i === start) expectation = 2;
    }
    if (c === C_SHOULD && i !== start && !(prev & SUBJ) && !expectation) expectation = 1;
    // "which is normal", "2 expected failures"; not "the expected string" (what should be), nor
    // "isn't working as expected" (the negation covers the whole).
    if (f & BENIGN && !(prev & NEG) && pc !== C_THE && !(pc === C_AS && i >= 3 && fs[i - 3]! & NEG))
      benign = true;
    // Plans: "I'll", "let me", "we should", "need to", "going to", "want to", "we can use".
    if (f & PLANC) plan = true;
    else if (c === C_LET && (nc === C_ME || nc === C_US) && !(prev & (NEG | IRR | PROBLEM))) plan = true;
    else if ((c === C_NEED || c === C_NEEDS) && nc === C_TO && !(prev & NEG) && pc !== C_NO) plan = true;
    // "The fix should be to use `right`": a plan stated as what the fix is.
    else if (c === C_SHOULD && nc === C_BE && i + 3 < n && codeOf(fs[i + 2]!) === C_TO && fs[i + 3]! & IMP)
      plan = true;
    // "I will correct the syntax", "we must merge them": plans as "I'll" does, whatever the verb.
    else if ((c === C_WILL || c === C_MUST) && prev & SUBJ && i === start + 1 && !(next & NEG)) plan = true;
    else if (
      (c === C_SHOULD || c === C_WILL || c === C_CAN || (c === C_COULD && prev & SUBJ)) &&
      (prev & SUBJ || i === start) &&
      opensPlan(fs, i + 1, n)
    )
      plan = true;
    else if ((c === C_GOING || c === C_WANT) && nc === C_TO && pc !== C_NO) plan = true;
    // "So the fix is (indeed) to include a space": the fix named as a step to take.
    else if (c === C_IS && pc === C_FIX && forms.fixIsTo(fs, i + 1, n)) plan = true;
    // "So I just need `origin_req_host`", "We want NO aberration here": what the writer needs is to do.
    else if ((c === C_NEED || c === C_WANT) && nc !== C_TO && forms.subjectBefore(fs, i, start, n))
      plan = true;
    else if (c === C_HAVE && nc === C_TO && prev & SUBJ) plan = true;
    // "Now I run the build again": the step narrated as it is taken.
    else if (c === C_I && pc === C_NOW && i === start && next & IMP && !(next & FINITE)) plan = true;
    if (f & WEAK && !forms.namesNext(fs, i, n)) weak = true;
    if (f & IMP && i > 0 && (conditional || opensObject(nc))) clauseCandidate = true;
    if (c === C_NEEDED) needed = true;
    // Reported questions: "not sure whether", "unclear if", "I wonder".
    if (f & RQ && !(prev & NEG)) question = true;
    if (c === C_SURE && pc === 0 && prev & NEG) question = true;
    // "it's not clear why …", "I don't know whether …", "no idea if …"; "Whether X is safe is open."
    if (c >= C_CLEAR && c <= C_KNOW_LAST && next & (QSTART | COND) && (prev | (i > 1 ? fs[i - 2]! : 0)) & NEG)
      question = true;
    if (c === C_WHETHER && i === start) question = true;
    // "The user asked how to grant permissions": a reported question (answered elsewhere, if at all).
    if (c === C_ASKED && next & QSTART && nc !== C_IS && nc !== C_ARE) question = true;
    // Hedges: "probably", "could be", "may not be" (a modal over "be", negated or not), "I think".
    // "could be useful", "might be handy": a modal over a judgement of use is a remark, not a guess.
    const judged =
      nc === C_BE && i + 2 < n && codeOf(fs[i + 2]!) >= C_USEFUL && codeOf(fs[i + 2]!) <= C_EVAL_LAST;
    if (f & HEDGE && !judged) hedge = true;
    const beAfter = nc === C_BE || (next & NEG && i + 2 < n && codeOf(fs[i + 2]!) === C_BE);
    if ((c === C_COULD || c === C_MAY || c === C_MIGHT) && beAfter && !judged) hedge = true;
    if (c === C_MAY && next & (IMP | FUNC)) hedge = true;
    if (c === C_I && (nc === C_THINK || nc === C_ASSUME)) hedge = true; // "I think", "I assume"
    // Done: "has been added", "we've updated", "was resolved"; a first word "Added …".
    if (f & (ED | PART) && !(f & PROBLEM) && !forms.perceived(c)) {
      past = true;
      if (i === start && f & ED && !(next & AUX)) done = true;
      else if (prev & AUX) done = true;
      else if (i > 1 && fs[i - 2]! & AUX && !(fs[i - 2]! & NEG) && !(prev & (NEG | IRR))) done = true;
    }
    let hit = false; // a problem this word states
    if (c === C_LONGER && pc === C_NO) {
      // "no longer fails" is resolved; "no longer exists" is a problem.
      if (next & PROBLEM || ((nc === C_TIMES || nc === C_TIMED) && i + 2 < n && codeOf(fs[i + 2]!) === C_OUT))
        resolvedWord = true;
      else if (next & FUNC) hit = true;
    } else if (f & PROBLEM) {
      if (pc === C_LONGER) continue;
      if (forms.namedByNext(fs, i, n) || forms.caseHandled(fs, i, n)) continue; // "regression tests", "on missing key" (named.ts)
      let negated = nc === C_FREE || nc === C_NONE;
      // "not broken", "2 expected failures"; not "the expected value is missing" (what should be).
      for (let j = Math.max(0, i - 3); j < i; j++)
        if (fs[j]! & NEG || (fs[j]! & BENIGN && (j === 0 || codeOf(fs[j - 1]!) !== C_THE))) negated = true;
      if (negated) negatedProblem = true;
      else hit = true;
    } else if (f & FUNC && !conditional && !(f & PASS && pc === C_LONGER)) {
      // "isn't configured", "doesn't support", "not found"; "can't be found", "hasn't been exported"
      hit = prev & NEG ? pc !== C_LONGER : i > 1 && (fs[i - 2]! & NEG) !== 0 && (prev & (IRR | AUX)) !== 0;
    } else if (f & DIAG && (nc === C_IS || nc === C_ARE) && i + 2 < n && !(fs[i + 2]! & (NEG | RES | PASS))) {
      hit = true; // "the issue is that …", "the bug is in …"
    } else if (f & DIAG && (next & STILL || forms.stillBefore(fs, i))) {
      hit = true; // "the issue persists", "we're still encountering an issue with X"
    }
    if (hit) {
      problem = true;
      if (afterBut || next & STILL) still = true; // "…, but X fails", "the error remains"
      for (let j = Math.max(0, i - 4); j < i; j++) if (fs[j]! & STILL) still = true;
      // "there is a typo", "there are two failing tests": a problem asserted as present stands (not
      // in a clause that names a case: "fixed the case where there is a typo").
      for (let j = Math.max(0, i - 3); j < i - 1; j++)
        if (codeOf(fs[j]!) === C_THERE && (codeOf(fs[j + 1]!) === C_IS || codeOf(fs[j + 1]!) === C_ARE))
          if (j === 0 || !(fs[j - 1]! & COND || codeOf(fs[j - 1]!) === C_WHETHER)) still = true;
      continue;
    }
    if (f & (RES | PASS)) {
      let real = true;
      for (let j = Math.max(0, i - 3); j < i; j++) if (fs[j]! & (NEG | IRR)) real = false;
      // "This should fix it", "seen.add should work": an expected resolution, no problem left.
      if (real) {
        if (f & RES) resolvedWord = true;
        else passing = true;
      }
    }
    // "This should fix the error", "This will resolve it": expected, not a plan ("I will fix it" is).
    if ((pc === C_SHOULD || pc === C_WILL) && RESOLVE_VERBS.has(c) && i > 1 && !(fs[i - 2]! & SUBJ))
      resolvedWord = true;
  }
  // "…which might be the flag, try to submit it": an imperative that opens a clause.
  if (!plan && clauseCandidate) {
    if (!punctuated && PUNCTUATION.test(raw)) {
      readPunctuation(fs, n, raw);
      punctuated = true;
    }
    if (punctuated)
      for (let i = 1; i < n - 1; i++)
        if (fs[i]! & CLAUSE && fs[i]! & IMP && (conditional || opensObject(codeOf(fs[i + 1]!)))) plan = true;
  }
  // "It should be fast, but it is.": a short or reassuring clause after the "but" meets it.
  if (butAt >= 0 && expectation === 1 && (contrastMet || n - butAt <= 3)) contrast = false;
  if (contrast && !plan && !resolvedWord) {
    problem = true;
    still = true;
  }
  if (!problem && forms.toldProblem(raw, conditional)) problem = true; // no problem word: "It ignores X"
  if (!hedge && forms.potentialIssue(raw)) hedge = true; // "there's a potential issue with X": a guess
  if (benign && problem && !still) {
    negatedProblem = true;
    problem = false;
  }
  // "Maybe the cache is stale?" is a guess ("Is it stale?" was answered above); a hedged question
  // about what to do ("Probably need to add a script to push?") asks.
  // "If `x` changes `y`?": a bare condition asked is a guess to check ("If X, does Y?" asks).
  // "Maybe we shouldn't overwrite the index?", "Maybe `f` should default to `x`?": a hedged question
  // about what to do asks; "Or maybe it should?" (no verb) guesses.
  if (asked)
    return (hedge || (conditional && raw.indexOf(',') < 0)) && !plan && !forms.asksWhatToDo(raw) ? 0 : 3;
  // "Now the session close protocol:", "The changes needed:": a heading over steps to come.
  if (endsWithColon(raw) && (codeOf(fs[0]!) === C_NOW || needed) && n <= 8 && !done) return 2;
  if (still) return plan ? 2 : 1;
  if (plan) return 2;
  if (question && !problem) return 3;
  if (resolvedWord || done || (passing && !problem) || (negatedProblem && !problem)) return RESOLVED_CODE;
  // "`a/b.py` seems relevant": a guess where to look is evidence (located.ts); "It seems I broke X": a finding.
  if (hedge) return problem && forms.seemsWe(raw) ? 1 : mayLink && hedgedPlace(raw) ? 4 : 0;
  if (problem) return 1;
  if (weak) return 2;
  // "More issues!", "One more line length issue.": a problem counted or pointed at, with no verb.
  if (n <= 6 && fs[n - 1]! & DIAG && forms.countedIssue(raw)) return 1;
  // "`src/domain/Settings.ts` (settings structure)": a place to look, annotated. A gloss in the past
  // tense reports what was done to the file ("`a.ts` (updated the totals)"). Then a line location,
  // quoted output or a grep hit: places to look that name no path (located.ts).
  return (mayLink && !past && glossedPointer(raw)) || locatesEvidence(raw) ? 4 : NO_CATEGORY;
}

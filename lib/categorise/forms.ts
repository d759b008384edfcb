/**
 * Short readings of an entry that `classify.ts` asks for at one point of its decisions: over the words'
 * flags (`fs`, as `cues.ts` `wordFlags` gives them) or over the raw text, each anchored or bounded so it
 * stays linear. Apart from `classify.ts` so each stays a file one can read whole; most were written
 * from the errors of the spent labelled sets (sets 11-13, eval/snapshot/sets/<n>/LABELLING.md).
 */

import { C_ARE, C_IS, C_TO, code, codeOf, DISC, IMP, NEG, STILL, SUBJ } from './cues.js';
import { gateData, requiredGate } from './gates.js';
import { opened } from './openers.js';
import { isClosing, isExtension } from './pointer.js';
import { afterListMarker } from './text.js';

// Problem words a neighbour names (named.ts): read at the same point of `classify.ts`.
export { caseHandled, namedByNext } from './named.js';

/** "should" or "shouldn't", then a verb other than "be". */
const SHOULD_VERB = /\bshould(?:n['’]t|\s+not)?\s+(?!be\b)[a-z]{2,}/i;

/**
 * @internal A question about what to do: "should" or "shouldn't" and a verb ("Maybe `f` should default
 * to `x`?", "Maybe we shouldn't overwrite it?"; not "Or maybe it should?").
 *
 * @example
 * ```ts
 * asksWhatToDo("Maybe we shouldn't retry?"); // true
 * ```
 */
export function asksWhatToDo(raw: string): boolean {
  return SHOULD_VERB.test(raw);
}

/** A determiner or count, up to three words, then the issue: "The same issue!", "Another bug." */
const COUNTED_ISSUE =
  /^\s*(?:one|another|more|same|the\s+same|a|an|new|other)\s+(?:[\w-]+\s+){0,3}(?:issues?|problems?|bugs?)\s*[.!]*\s*$/i;

/**
 * @internal A problem counted or pointed at, with no verb ("More issues!", "One more line length
 * issue."); the caller checks that the last word is the issue noun.
 *
 * @example
 * ```ts
 * countedIssue('The same issue!'); // true
 * ```
 */
export function countedIssue(raw: string): boolean {
  return COUNTED_ISSUE.test(raw);
}

/**
 * @internal Whether the words from `j` (just after "the fix is") go on "to <verb>", maybe after one
 * word ("So the fix is indeed to include a space"): the fix named as a step to take.
 *
 * @example
 * ```ts
 * // flags of "the fix is to add x": fixIsTo(fs, 3, 6) === true
 * ```
 */
export function fixIsTo(fs: number[], j: number, n: number): boolean {
  if (j + 1 < n && codeOf(fs[j]!) !== C_TO) j++;
  return j + 1 < n && codeOf(fs[j]!) === C_TO && (fs[j + 1]! & IMP) !== 0;
}

/**
 * @internal Whether the entry opens with one word and a colon ("List: `[a]`", "**Change**: Added …"),
 * maybe in bold: a label, read past to the words after it.
 *
 * @example
 * ```ts
 * labelFirst('Fix: add the null guard'); // true
 * labelFirst('Fix the null guard'); // false
 * ```
 */
export function labelFirst(raw: string): boolean {
  let i = 0;
  while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
  while (raw.charCodeAt(i) === 0x2a) i++;
  const s = i;
  while (i < raw.length && (raw.charCodeAt(i) | 0x20) >= 0x61 && (raw.charCodeAt(i) | 0x20) <= 0x7a) i++;
  if (i === s) return false;
  while (raw.charCodeAt(i) === 0x2a) i++;
  return raw.charCodeAt(i) === 0x3a && raw.charCodeAt(i + 1) === 0x20;
}

/**
 * @internal How many words a file name that opens the entry splits into ("fix.py was updated" → 2,
 * "next.config.js holds it" → 3), else 0: a name whose last dot-part is a file extension, after a list
 * marker or bold, ending at white space, a mark or the end. Its words are the file's name, not what
 * they say ("fix", "check", "next" as the first word are a plan).
 *
 * @example
 * ```ts
 * namedFirst('fix.py was updated.'); // 2
 * namedFirst('Fix the parser.'); // 0
 * ```
 */
export function namedFirst(raw: string): number {
  const len = raw.length;
  let i = 0;
  // White space and symbols (`▲ Next.js 15.1.0`, a dev server's banner; emoji), then a list marker, bold.
  for (let c = raw.charCodeAt(0); c <= 0x20 || (c >= 0x2190 && c <= 0x2bff) || (c >= 0xd800 && c <= 0xdfff); )
    c = raw.charCodeAt(++i);
  i = afterListMarker(raw, i);
  while (raw.charCodeAt(i) === 0x2a) i++;
  let words = 0;
  let inWord = false;
  let dot = -1;
  for (; i < len; i++) {
    const c = raw.charCodeAt(i);
    const l = c | 0x20;
    if ((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (!inWord) words++;
      inWord = true;
    } else if (c === 0x2e || c === 0x5f || c === 0x2d) {
      // A dot before a letter joins a name's parts; one before white space or the end closes a sentence.
      if (c === 0x2e) {
        const d = raw.charCodeAt(i + 1) | 0x20;
        if (!(d >= 0x61 && d <= 0x7a)) break;
        dot = i;
      }
      inWord = false;
    } else break;
  }
  if (
    dot < 0 ||
    !(
      i === len ||
      raw.charCodeAt(i) <= 0x20 ||
      isClosing(raw.charCodeAt(i)) ||
      raw.charCodeAt(i) === 0x3a ||
      raw.charCodeAt(i) === 0x2a
    )
  )
    return 0;
  return isExtension(raw.slice(dot + 1, i).toLowerCase()) ? words : 0;
}

/**
 * A first word that takes an adjective or participle as its complement ("Get started.", "Keep
 * updated."): after it, the imperative stands.
 */
const LINKING = 'get|keep|stay|be|leave|make|have|let|go|become|remain|feel';
/** Verbs whose object "matches" is a plural noun ("Find matches in the log"). */
const SEARCHING = 'find|count|list|show|search|grep|highlight|print|return|collect|log|remove|skip';
/**
 * A noun that is also a verb, then what became of it (eval/snapshot/sets/outcome-reports): a
 * participle or "done"/"complete" that ends the clause or goes on with an adverb or a preposition
 * ("Install finished.", "Fix applied cleanly."; not "Check modified files"), or the `-s` form of a verb
 * that is seldom a plural noun ("Run completes in 3s.", "Structure matches exactly."). Anchored and
 * without nested repetition: linear.
 */
const OUTCOME = new RegExp(
  String.raw`^[\s*#>•\-–\d.)]*(?:(?:now|so|ok|okay)[,\s]+)?(?!(?:${LINKING})\s|(?:${SEARCHING})\s+matches\b)[a-z]+\s+(?:(?:[a-z]{2,}[a-df-z]ed|done|complete|successful|ok|okay)(?=\s*(?:[.!,;:)]|$)|\s+(?:successfully|cleanly|correctly|fine|now|again|too|already|without|with|in|on|at|after|before|and|but|as|for)\b)|(?:completes|finishes|succeeds|compiles|exists|contains|seems|looks|appears|matches|remains|takes|gives|goes|gets|says|shows|stays|continues|requires|expects|renders|responds|behaves|feels)\b)`,
  'i',
);

/**
 * @internal Whether the entry's first word, read as an imperative, is rather a noun whose outcome the
 * next word reports ("Install finished.", "Update complete.", "Run completes in 3s."): no step. The
 * caller asks only when the first word opens a plan; the rest of the decision still runs ("Fix
 * applied, but the tests still fail" is a blocker).
 *
 * @example
 * ```ts
 * reportsOutcome('Install finished.'); // true
 * reportsOutcome('Check modified files'); // false
 * reportsOutcome('Get started.'); // false
 * ```
 */
export function reportsOutcome(raw: string): boolean {
  return OUTCOME.test(raw);
}

/**
 * @internal Whether the "next" at word `i` names the following item ("Next argument is `v`", "The
 * next method is `visit_import`") rather than a step to take ("The next step is to run …" goes on
 * to a verb).
 *
 * @example
 * ```ts
 * // flags of "next argument is v": namesNext(fs, 0, 4) === true
 * ```
 */
export function namesNext(fs: number[], i: number, n: number): boolean {
  if (i + 2 >= n) return false;
  const cop = codeOf(fs[i + 2]!);
  return (cop === C_IS || cop === C_ARE) && (i + 3 >= n || codeOf(fs[i + 3]!) !== C_TO);
}

/**
 * @internal Whether word `i` (of `n`) follows "I"/"we" directly or across one discourse word ("I just
 * need"), in the clause opening at `start`, is not negated, and has a word after it.
 *
 * @example
 * ```ts
 * // flags of "so i just need x": subjectBefore(fs, 3, 1, 5) === true
 * ```
 */
export function subjectBefore(fs: readonly number[], i: number, start: number, n: number): boolean {
  if (i + 1 >= n) return false; // "… is what we need": nothing is named after it
  let p = i - 1;
  if (p > start && fs[p]! & DISC) p--;
  return p >= start && (fs[p]! & SUBJ) !== 0 && !(fs[i - 1]! & NEG);
}

/**
 * @internal Whether a `still` / `again` is among the four words before word `i`, with no negation
 * between them ("we're still hitting an issue"; not "still no issue").
 *
 * @example
 * ```ts
 * // flags of "we still hit an issue": stillBefore(fs, 4) === true
 * ```
 */
export function stillBefore(fs: readonly number[], i: number): boolean {
  for (let j = i - 1; j >= 0 && j >= i - 4; j--) if (fs[j]! & (NEG | STILL)) return (fs[j]! & NEG) === 0;
  return false;
}

/** The codes of the participles that report what was seen (each in `CODES`, cues.ts). */
const PERCEIVED: ReadonlySet<number> = /* @__PURE__ */ new Set(
  ['observed', 'noticed', 'encountered'].map(code),
);

/**
 * @internal Whether the word code `c` tells what the writer saw ("Observed error: …", "Noticed the
 * build fails", "Encountered a timeout"): a participle that reports, not a step done.
 *
 * @example
 * ```ts
 * perceived(codeOf(wordFlags('observed'))); // true
 * ```
 */
export const perceived = (c: number): boolean => c > 0 && PERCEIVED.has(c);

/** "It ignores …", "So `zip` effectively ignores …", "This ignores the fact that …". */
const IGNORES = /* @__PURE__ */ opened(/(?:this|it|`[^`\s]+`)\s+(?:\w+ly\s+)?ignores\s/.source);

/**
 * @internal Whether the entry tells a defect as what the code does: "It ignores the actual content of
 * `right`", "So `zip` effectively ignores the extra dimensions". Not "LaTeX ignores single newlines"
 * (a fact about a tool). The caller lets a plan in the same entry win.
 *
 * @example
 * ```ts
 * ignoresSomething('It ignores the actual content of `right`.'); // true
 * ```
 */
export function ignoresSomething(raw: string): boolean {
  return HOLDS_IGNORES(raw) && IGNORES.test(raw);
}

/** "a potential issue", "possible bugs": a problem guessed at, not found. */
const POTENTIAL = /\b(?:potential|possible)\s+(?:issue|problem|bug|risk)s?\b/i;
// The shortcuts in front of the three forms: the needle words each pattern needs (gates.ts).
const HOLDS_IGNORES = /* @__PURE__ */ requiredGate(gateData('forms-ignores'), { search: false });
const HOLDS_POTENTIAL = /* @__PURE__ */ requiredGate(gateData('forms-potential'), { search: false });

/**
 * @internal Whether the entry names a problem only as potential ("Wait, but there's a potential issue
 * with mutable defaults."): a guess to check, hedged as "might" hedges.
 *
 * @example
 * ```ts
 * potentialIssue('There is a potential issue with the cache key.'); // true
 * potentialIssue('There is an issue with the cache key.'); // false
 * ```
 */
export function potentialIssue(raw: string): boolean {
  return HOLDS_POTENTIAL(raw) && POTENTIAL.test(raw);
}

/** "It seems I broke …", "It looks like we're encountering …": the writer's own finding, hedged only in form. */
const SEEMS_WE = /* @__PURE__ */ opened(
  /it\s+(?:seems|appears|looks\s+like)\s+(?:that\s+|like\s+)?(?:i|we)\b/.source,
);

/**
 * @internal Whether the entry opens with "It seems (that) I/we …": with a problem in it ("It seems I
 * introduced a syntax error."), a problem the writer found, not a guess; without one ("It seems I
 * removed the only usage"), still a hedge.
 *
 * @example
 * ```ts
 * seemsWe('It seems I broke the build.'); // true
 * seemsWe('It seems the cache is stale.'); // false
 * ```
 */
export function seemsWe(raw: string): boolean {
  return SEEMS_WE.test(raw);
}

/** "Space is still inside math mode.", "The tool is still looking for X": a subject, then "is still" and a state. */
const STILL_STATE =
  /^\s*(?!(?:if|when|whether|unless|what|why|how)\b)(?:[\w`'.-]+\s+){1,4}(?:is|are)\s+still\s+(?!(?:no|not|none|the\s+same|\d)\b)(?:being\s+)?[a-z]/i;
const HOLDS_STILL = /* @__PURE__ */ requiredGate(gateData('forms-still'), { search: false });

/**
 * @internal The forms with gates, by the id of their gate data (gates-data.ts).
 *
 * @example
 * ```ts
 * FORMS_GATED['forms-still']?.test('The tool is still looking for X.'); // true
 * ```
 */
export const FORMS_GATED: Readonly<Record<string, RegExp>> = {
  'forms-ignores': IGNORES,
  'forms-potential': POTENTIAL,
  'forms-still': STILL_STATE,
};

/**
 * @internal Whether the entry says a state persists ("The database path is still being set at import
 * time."): a problem that stands, with no problem word. The caller lets a plan, a guess or a question
 * in the entry win.
 *
 * @example
 * ```ts
 * stillState('The migration tool is still looking for requirements.txt.'); // true
 * stillState('There are still no containers.'); // false
 * ```
 */
export function stillState(raw: string): boolean {
  return HOLDS_STILL(raw) && STILL_STATE.test(raw);
}

/**
 * @internal A problem told without a problem word: what the code does wrong ("It ignores the content
 * of `right`", {@link ignoresSomething}) or a state that persists ("Space is still inside math mode.",
 * {@link stillState}; not inside a condition).
 *
 * @example
 * ```ts
 * toldProblem('The cache path is still being set at import time.', false); // true
 * ```
 */
export function toldProblem(raw: string, conditional: boolean): boolean {
  return ignoresSomething(raw) || (!conditional && stillState(raw));
}

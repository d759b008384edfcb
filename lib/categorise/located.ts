/**
 * Evidence the pointer rules (`pointer.ts`, `gloss.ts`) do not see: where something is by line number
 * ("`distance` is defined at line 237", "It's line 63.") or by path ("should be in `a/b`", "`f` is
 * defined in `a/b.py`"), output quoted as the actual or expected value ("Actual: `…`"), what a named
 * file holds ("In `a/b.py`, …", "`a/b.py` has the `A` class"), a grep hit (`` `src/a.py: code` ``), a
 * hedged guess where to look ("`a/b.py` seems relevant"), a quoted source or a reference introduced
 * before its words ("The PR says "…"", "The docstring says:") and where a failure shows ("the error is
 * in `a/b.py`"); `lead.ts` asks {@link quotesSource} and {@link errorIn} before the words are read.
 * What is a path is `isPointer`'s answer throughout. The labelling conventions of the later sets
 * call these places to look. `classify.ts` asks {@link locatesEvidence} only when
 * the words gave the entry no category, so a plan, a question or a problem that mentions a line keeps
 * its own label, and {@link hedgedPlace} only for a hedged entry. Each check is one anchored regex
 * behind a native `indexOf` gate, or a scan of the first characters, so it stays linear.
 */
import { mayHold, N_INE } from './needles.js';
import { opened } from './openers.js';
import { isPointer } from './pointer.js';

/**
 * Where something is, by line: "`distance` is defined at line 237", "the line is at 428", "It's line
 * 63." Not a description of the code found there ("Line 196 starts `…`", "In `f` (line 913), it
 * initializes…"), which the labelled sets call irrelevant.
 */
const LINE_AT =
  /\b(?:is|are)\s+(?:\w+\s+)?(?:at|on)\s+lines?\s+\d|\blines?\s+(?:is|are)\s+(?:roughly\s+|approximately\s+)?(?:at\s+|on\s+|around\s+)?\d|^\s*(?:it|that)(?:['’]s|\s+is)\s+(?:at\s+|on\s+)?lines?\s+\d+[.!]?\s*$/i;

/**
 * "Actual: `…`", "Wait, my actual output is `…`": output quoted for comparison, the quote ending the
 * entry (not "The expected string `…` puts the space inside"). An entry opening with "Expected" is
 * mostly decided before this is asked (a failed check, or "expected" as benign), so it seldom fires.
 */
const QUOTED_OUTPUT =
  /^\s*(?:(?:wait|so|but|and|ok(?:ay)?|now|hmm|here),?\s+)?(?:(?:my|the|our)\s+)?(?:actual|expected)(?:\s+(?:output|result|value|string|text|error|message))?(?:\s+(?:is|was|would be))?\s*:?\s*[`"“]/i;

const QUOTE_ENDS = /[`"”][.!]?\s*$/;

/**
 * "So the core logic should be in `lib/matplotlib/axes/_axes.py`.", "`hist` is defined in
 * `lib/a.py`", "a command defined in .claude/commands/hi.md": where the thing is, by a path with a
 * slash (not "must be in `select`", a guess about code).
 */
const PLACE_IN =
  /\b(?:(?:should|must)\s+be|(?:is|are)\s+(?:defined|declared|implemented|located))\s+in\s+`?([^`\s,;]+?)`?(?:[\s.,;!]|$)/i;

/**
 * "In `pylint/lint/base_options.py`, `verbose` definition:", "In `utils.py`:": what is in a file, named
 * by its path (a comma and more words after a path with a slash; a colon ending the line after any file).
 */
const IN_PATH = /^\s*in\s+`([^`\s]+)`\s*(?:(,)|:\s*$)/i;

/** Whether `raw` opens with "In `path`, …" or "In `file`:" (see {@link IN_PATH}). */
function inPath(raw: string): boolean {
  const m = IN_PATH.exec(raw);
  return m !== null && (m[2] === undefined || m[1]!.indexOf('/') > 0) && isPointer(m[1]!);
}

/** The code span a form captured is a path with a slash, by the pointer rules. */
const slashPath = (m: RegExpExecArray | null): boolean =>
  m !== null && m[1]!.indexOf('/') > 0 && isPointer(m[1]!);

/**
 * "The PR description points to `seaborn/_core/scales.py`.", "The grep results point to
 * `requests/models.py` as the place where …": a source or a search naming the file to read.
 */
const POINTS_TO =
  /\b(?:description|pr|issue|results?|output|traceback|error|log|grep|search)\s+(?:also\s+)?points?\s+(?:us\s+)?to\s+`([^`\s]+)`/i;

/**
 * "`src/_pytest/python.py` has `Instance` class.", "`seaborn/_core` is for the new interface": what a
 * file or folder holds, the path opening the entry (a pointer by `isPointer`; not "`xr.merge` has …").
 */
const PATH_HOLDS = /* @__PURE__ */ opened(
  /`([^`\s]+)`\s+(?:has|contains|defines|holds|implements|is\s+for|provides|exports)\s/.source,
);

/**
 * Whether `raw` is evidence by one of the forms above. The caller asks only for an entry its words
 * left without a category.
 *
 * @example
 * ```ts
 * locatesEvidence('Okay, `distance` is defined at line 237.'); // true
 * locatesEvidence('Actual: `Jan 01 1990`'); // true
 * locatesEvidence('The tests pass.'); // false
 * ```
 */
export function locatesEvidence(raw: string): boolean {
  if (mayHold(raw, N_INE) && (raw.indexOf('ine') >= 0 || raw.indexOf('INE') >= 0) && LINE_AT.test(raw))
    return true;
  if (raw.indexOf(' in ') >= 0 && slashPath(PLACE_IN.exec(raw))) return true;
  const tick = raw.indexOf('`');
  if (tick < 0 && raw.indexOf('"') < 0 && raw.indexOf('\u201c') < 0) return false;
  if (QUOTED_OUTPUT.test(raw) && QUOTE_ENDS.test(raw)) return true;
  if (tick >= 0 && inPath(raw)) return true;
  if (tick >= 0 && raw.indexOf('point') >= 0 && slashPath(POINTS_TO.exec(raw))) return true;
  if (tick >= 0) {
    // A path or file name by the pointer rules: `xr.merge` is code, not a file.
    const held = PATH_HOLDS.exec(raw);
    if (held && isPointer(held[1]!)) return true;
  }
  return tick >= 0 && grepHit(raw, tick);
}

/**
 * A hedged entry about a file it opens with ("`src/_pytest/nodes.py` likely uses it", "`a/b.py` seems
 * relevant", "`pyplot.py` likely wraps `axes.hist`", "Specifically `a/b.py` …", "The file `a/b.py` seems to be …", "In `a/b.py`, … seems …")
 * or names as the likely place ("Relevant tests are likely in `lib/tests/test_dates.py`"): a guess
 * where to look, which the labelled sets call evidence, not an open hypothesis. Not a path
 * followed by a colon ("`src/Button.js`: This file … might have logic that …"), which glosses the
 * file with a guess about it. `classify.ts` asks only for an entry its words read as hedged.
 *
 * @example
 * ```ts
 * hedgedPlace('`src/_pytest/mark/structures.py` seems relevant.'); // true
 * hedgedPlace('The cache is probably stale.'); // false
 * ```
 */
export function hedgedPlace(raw: string): boolean {
  const tick = raw.indexOf('`');
  if (tick < 0) return false;
  let s = 0;
  while (s < tick && raw.charCodeAt(s) <= 0x20) s++;
  if (s !== tick) return slashPath(LIKELY_IN.exec(raw)) || slashPath(PATH_SUBJECT.exec(raw)) || inPath(raw);
  const close = raw.indexOf('`', tick + 1);
  if (close < 0 || raw.charCodeAt(close + 1) === 0x3a) return false;
  const path = raw.slice(tick + 1, close);
  // A bare file name ("`pyplot.py` likely wraps `hist`") unless the guess is about its status ("`a.py`
  // seems to pass now"): a path with a slash points wherever the guess goes.
  return isPointer(path) && (path.indexOf('/') > 0 || !STATUS.test(raw));
}

const STATUS = /\b(?:pass(?:es|ed|ing)?|works?|worked|working|fixed|green)\b/i;

/** "The file `a/b.py` seems to be the main file …", "It seems `a/b.py` is the place …": the path is the subject. */
const PATH_SUBJECT = /^\s*(?:the\s+file\s+|it\s+seems\s+(?:that\s+|like\s+)?|\w+ly,?\s+)`([^`\s]+)`/i;
/** "Relevant tests are likely in `path`". */
const LIKELY_IN =
  /^\s*(?:the\s+)?(?:relevant|core|main)\s+[\w ]{0,30}?\b(?:is|are|should\s+be)\s+(?:likely\s+|probably\s+)?in\s+`([^`\s]+)`/i;

/**
 * A grep hit quoted whole: the entry opens with a backtick, then a path with a file extension, then a
 * colon (maybe after a line number) and the matched code.
 */
function grepHit(raw: string, tick: number): boolean {
  for (let i = 0; i < tick; i++) if (raw.charCodeAt(i) > 0x20) return false;
  let e = tick + 1;
  while (e < raw.length && raw.charCodeAt(e) > 0x20 && raw.charCodeAt(e) !== 0x3a) e++;
  if (raw.charCodeAt(e) !== 0x3a || e - tick < 4) return false;
  const path = raw.slice(tick + 1, e);
  return path.indexOf('/') > 0 && isPointer(path);
}

/**
 * A source quoted as what it says: "The PR says "…"", "The reporter said "…"", "RFC 7230 says "…"",
 * "The traceback shows `…`"; "mentions" only before a quoted sentence ("The PR mentions
 * `requests.get`" names code, which the labelled sets call irrelevant). The quote is someone else's
 * words (its "I think" is not the writer's guess). The labellers of sets 9-15 call such a line a place
 * to look, evidence; sets 3-6, labelled before that convention was written down, call a few of them
 * irrelevant (sets/15/LABELLING.md, "Then spent").
 */
const QUOTED_SOURCE = /* @__PURE__ */ opened(
  /(?:the\s+)?(?:pr(?:\s+description)?|issue(?:\s+description)?|(?:pr\s+|issue\s+)?reporter|(?:pr|issue)\s+author|user|instructions?|task|documentation|docs|rfc\s*\d+|traceback|error\s+message|spec|comment|docstring|output)\s+(?:(?:also|\w+ly)\s+)?(?:(?:says|say|said|states|stated|suggests|suggested|assumes|reports|reported|shows|writes|wrote)\s*:?\s*["“`]|mention(?:s|ed)\s*:?\s*["“])/
    .source,
);

/**
 * Whether the entry quotes a source (see {@link QUOTED_SOURCE}). `lead.ts` asks first, before the
 * words are read, so the quoted words cannot make the line a plan, a guess or a problem.
 *
 * @example
 * ```ts
 * quotesSource('The PR says "Attributes should be preserved".'); // true
 * quotesSource('The PR is merged.'); // false
 * quotesSource('The docstring says:'); // true
 * ```
 */
export function quotesSource(raw: string): boolean {
  if (raw.charCodeAt(raw.length - 1) === 0x3a) return REFERENCE_SAYS.test(raw) || SHOWN_NEXT.test(raw);
  return (
    (raw.indexOf('"') >= 0 || raw.indexOf('\u201c') >= 0 || raw.indexOf('`') >= 0) && QUOTED_SOURCE.test(raw)
  );
}

/**
 * "The docstring says:", "But wait, `apply_ufunc` documentation says:", "RFC 7230 says:": a reference
 * to read, introduced before its words; evidence in sets 5, 6, 16 and 18. Not "The PR says:", "The
 * user says:" or "the output says:" (the task or what just ran, which the sets call irrelevant).
 */
const REFERENCE_SAYS = /* @__PURE__ */ opened(
  /(?:the\s+)?(?:`[^`\n]{1,60}`\s+)?(?:(?:documentation|docstring|docs|comment|rfc\s*\d+|spec(?:ification)?|manual)(?:\s+(?:for|of)\s+`[^`\n]{1,60}`)?\s+(?:says|states|reads)|traceback\s+(?:says|shows|indicates))\s*:$/
    .source,
);
/**
 * "The output is:", "My previous `sed -n '255,270p'` output was:", "The patch file I created was:",
 * "However, the previous implementation was:": what ran or was written, shown next; evidence in sets
 * 24 and 28. Only "is / was" before the colon: "The example output shows:" and "the output says:"
 * introduce the task or a reading of it, which the sets call irrelevant.
 */
const SHOWN_NEXT = /* @__PURE__ */ opened(
  /(?:(?:the|my|our)\s+)?(?:(?:previous|current|new|old|actual|full|last)\s+)?(?:`[^`\n]{1,60}`\s+)?(?:output|patch(?:\s+file)?|implementation|diff)(?:\s+(?:i|we)\s+[a-z]+)?\s+(?:is|was|were|are)\s*:$/
    .source,
);

/**
 * "However, the error is in `requests/packages/urllib3/_collections.py`.", "the error occurs in
 * `a/b.py`": where the failure shows, named by a path or file name (by `isPointer`, as every other
 * form here: `xr.merge` is code), is a place to look. Not "The issue is in `_wrap_data` calling `_wrap`" (a function: a
 * diagnosis, a blocker).
 */
const ERROR_IN =
  /\b(?:error|exception|failure|traceback)\s+(?:is|occurs|happens|originates)\s+in\s+`([^`\s]+)`(?:\s+and\s+`[^`\s]+`)?[.:]?\s*$/i;

/**
 * Whether the entry names the file a failure shows in (see {@link ERROR_IN}).
 *
 * @example
 * ```ts
 * errorIn('However, the error is in `lib/io/reader.py`.'); // true
 * errorIn('The issue is in `parse_args`.'); // false
 * errorIn('The error is in `xr.merge`.'); // false: a dotted name without a file extension
 * ```
 */
export function errorIn(raw: string): boolean {
  // A code span first: one character, the cheapest search, and most entries have none.
  if (raw.indexOf('`') < 0 || raw.indexOf(' in `') < 0) return false;
  const m = ERROR_IN.exec(raw);
  return m !== null && isPointer(m[1]!);
}

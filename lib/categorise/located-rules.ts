/**
 * Evidence by where it is, as data: one row per form (id, the question it answers, pattern, what its
 * captured path must be, an example), tried in order by `located.ts`. The shortcut in front of each
 * row is read off its pattern (gates.ts: the words or mark it opens with, the words and marks it
 * cannot match without), never written beside it.
 *
 * The forms: where something is by line number or by path, output quoted as the actual or expected
 * value, what a named file holds, a grep hit, a quoted source or a reference introduced before its
 * words, and where a failure shows. What is a path is `isPointer`'s answer throughout. The labelling
 * conventions of the later sets call these places to look (eval/snapshot/sets/<n>/LABELLING.md).
 */
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
export function inPath(raw: string): boolean {
  const m = IN_PATH.exec(raw);
  return m !== null && (m[2] === undefined || m[1]!.indexOf('/') > 0) && isPointer(m[1]!);
}

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
 * A grep hit quoted whole: the entry opens with a backtick, then a path with a file extension, then a
 * colon (maybe after a line number) and the matched code. {@link grepHit} reads it; this is its shape.
 */
const GREP_HIT = /^\s*`[^\s:]{3,}:/;

/** Whether `raw` is a grep hit (see {@link GREP_HIT}): the path before the colon has a slash and is a pointer. */
function grepHit(raw: string): boolean {
  let tick = 0;
  while (tick < raw.length && raw.charCodeAt(tick) <= 0x20) tick++;
  if (raw.charCodeAt(tick) !== 0x60) return false;
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

/** @internal One form of the table. */
export interface EvidenceRule {
  /** `evidence-<what>`. */
  id: string;
  /**
   * The question the row answers: `located` (`locatesEvidence`, asked of an entry its words left
   * without a category), `quoted` (`quotesSource`) or `error` (`errorIn`), both asked before the words.
   */
  asks: 'located' | 'quoted' | 'error';
  /** What the row reads. */
  pattern: RegExp;
  /** Group 1 must be a path or file name (`isPointer`), or (`path`) one with a slash after its first character. */
  capture?: 'pointer' | 'path';
  /** Read instead of the pattern: what a regex does not say (which group matched, a file's extension). */
  test?: (raw: string) => boolean;
  /** Also needed: this matches too. */
  also?: RegExp;
  /** The line's very last character is a colon (`true`) or is not (`false`). */
  colon?: boolean;
  /** A line the row reads, for the table's test. */
  example: string;
}

/**
 * @internal The table, in the order its rows are tried within each question.
 *
 * @example
 * ```ts
 * EVIDENCE_RULES.filter((r) => r.asks === 'error').length; // 1
 * ```
 */
export const EVIDENCE_RULES: readonly EvidenceRule[] = [
  {
    id: 'evidence-line-at',
    asks: 'located',
    pattern: LINE_AT,
    example: 'Okay, `distance` is defined at line 237.',
  },
  {
    id: 'evidence-place-in',
    asks: 'located',
    pattern: PLACE_IN,
    capture: 'path',
    example: 'So the core logic should be in `lib/matplotlib/axes/_axes.py`.',
  },
  {
    id: 'evidence-quoted-output',
    asks: 'located',
    pattern: QUOTED_OUTPUT,
    also: QUOTE_ENDS,
    example: 'Actual: `Jan 01 1990`',
  },
  {
    id: 'evidence-in-path',
    asks: 'located',
    pattern: IN_PATH,
    test: inPath,
    example: 'In `pylint/lint/base_options.py`, `verbose` definition:',
  },
  {
    id: 'evidence-points-to',
    asks: 'located',
    pattern: POINTS_TO,
    capture: 'path',
    example: 'The PR description points to `seaborn/_core/scales.py`.',
  },
  {
    id: 'evidence-path-holds',
    asks: 'located',
    pattern: PATH_HOLDS,
    capture: 'pointer',
    example: '`src/_pytest/python.py` has `Instance` class.',
  },
  {
    id: 'evidence-grep-hit',
    asks: 'located',
    pattern: GREP_HIT,
    test: grepHit,
    example: '`src/a/b.py:12: def f():`',
  },
  {
    id: 'evidence-reference-says',
    asks: 'quoted',
    pattern: REFERENCE_SAYS,
    colon: true,
    example: 'The docstring says:',
  },
  { id: 'evidence-shown-next', asks: 'quoted', pattern: SHOWN_NEXT, colon: true, example: 'The output is:' },
  {
    id: 'evidence-quoted-source',
    asks: 'quoted',
    pattern: QUOTED_SOURCE,
    colon: false,
    example: 'The PR says "Attributes should be preserved".',
  },
  {
    id: 'evidence-error-in',
    asks: 'error',
    pattern: ERROR_IN,
    capture: 'pointer',
    example: 'However, the error is in `lib/io/reader.py`.',
  },
];

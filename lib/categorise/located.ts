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
 * its own label, and {@link hedgedPlace} only for a hedged entry. The forms are a table
 * (located-rules.ts), each row behind a shortcut read off its pattern (gates.ts); each regex is
 * anchored or bounded, so the checks stay linear.
 */
import { firstWordGate, gateData, requiredGate } from './gates.js';
import { EVIDENCE_RULES, type EvidenceRule, inPath } from './located-rules.js';
import { isPointer } from './pointer.js';

/** The code span a form captured is a path with a slash, by the pointer rules. */
const slashPath = (m: RegExpExecArray | null): boolean =>
  m !== null && m[1]!.indexOf('/') > 0 && isPointer(m[1]!);

/** A row with its shortcuts: its bit in its question's first-word gate and its needed words' gate. */
interface Row extends EvidenceRule {
  bit: number;
  holds: (raw: string) => boolean;
}

/** One question's rows, in order, and the gate of the words they open with. */
function question(asks: EvidenceRule['asks']): { rows: readonly Row[]; opens: (raw: string) => number } {
  const rules = EVIDENCE_RULES.filter((r) => r.asks === asks);
  return {
    rows: rules.map((r, k) => ({ ...r, bit: 1 << k, holds: requiredGate(gateData(r.id)) })),
    opens: firstWordGate(rules.map((r) => gateData(r.id)?.first)),
  };
}
let questions: Record<EvidenceRule['asks'], ReturnType<typeof question>> | undefined;

/** Whether a row of `asks` reads `raw` as evidence. */
function answers(asks: EvidenceRule['asks'], raw: string): boolean {
  questions ??= { located: question('located'), quoted: question('quoted'), error: question('error') };
  const { rows, opens } = questions[asks];
  const first = opens(raw);
  const colon = raw.charCodeAt(raw.length - 1) === 0x3a;
  for (const row of rows) {
    if (!(first & row.bit) || (row.colon !== undefined && row.colon !== colon) || !row.holds(raw)) continue;
    if (row.test) {
      if (row.test(raw)) return true;
      continue;
    }
    const m = row.pattern.exec(raw);
    if (m === null || (row.also && !row.also.test(raw))) continue;
    if (row.capture === undefined) return true;
    const path = m[1]!;
    if ((row.capture === 'pointer' || path.indexOf('/') > 0) && isPointer(path)) return true;
  }
  return false;
}

/**
 * Whether `raw` is evidence by one of the `located` rows of the table: where something is by line
 * number or path, output quoted as the actual or expected value, what a named file holds, a grep hit.
 * The caller asks only for an entry its words left without a category.
 *
 * @example
 * ```ts
 * locatesEvidence('Okay, `distance` is defined at line 237.'); // true
 * locatesEvidence('Actual: `Jan 01 1990`'); // true
 * locatesEvidence('The tests pass.'); // false
 * ```
 */
export function locatesEvidence(raw: string): boolean {
  return answers('located', raw);
}

/**
 * Whether the entry quotes a source ("The PR says "…"") or introduces a reference or what ran before
 * its words ("The docstring says:", "The output is:"). `lead.ts` asks first, before the words are read,
 * so the quoted words cannot make the line a plan, a guess or a problem.
 *
 * @example
 * ```ts
 * quotesSource('The PR says "Attributes should be preserved".'); // true
 * quotesSource('The PR is merged.'); // false
 * quotesSource('The docstring says:'); // true
 * ```
 */
export function quotesSource(raw: string): boolean {
  return answers('quoted', raw);
}

/**
 * Whether the entry names the file a failure shows in ("the error is in `a/b.py`"), by a path or file
 * name (`isPointer`: `xr.merge` is code).
 *
 * @example
 * ```ts
 * errorIn('However, the error is in `lib/io/reader.py`.'); // true
 * errorIn('The issue is in `parse_args`.'); // false
 * errorIn('The error is in `xr.merge`.'); // false: a dotted name without a file extension
 * ```
 */
export function errorIn(raw: string): boolean {
  return answers('error', raw);
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

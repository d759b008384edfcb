/**
 * Problem words that a neighbouring word turns into a name or a case, not a defect that stands: "our
 * RED state", "regression tests", "fail-safe on missing key", "handles errors". Read over the words'
 * flags (`fs`, as `cues.ts` `wordFlags` gives them); each check looks at one neighbour.
 */

import { C_OUT, code, codeOf } from './cues.js';

/**
 * Problem words that the next word turns into the name of a thing, not a defect: a test-first phase
 * ("We have our RED state", "the TDD RED phase"), a kind of test ("26 regression tests pass", "add a
 * regression test"), a design property ("all paths fail-safe on a missing key", "a fail-fast
 * loader": `words` splits the hyphen). Data: each row is the problem words, then the words after
 * them; every word is in `CODES` (cues.ts).
 */
const NAMED_BY_NEXT: readonly (readonly [string, string])[] = [
  ['red', 'state phase'],
  ['regression regressions', 'test tests testing suite suites'],
  ['fail', 'safe fast'],
];
/** Rows of problem words and their neighbours, by word code: the codes each problem word may meet. */
function codesOf(rows: readonly (readonly [string, string])[]): Map<number, Set<number>> {
  const m = new Map<number, Set<number>>();
  // A word missing from CODES (cues.ts) has code 0, the code of every other word: left out.
  for (const [problem, near] of rows)
    for (const w of problem.split(' '))
      if (code(w) > 0)
        m.set(
          code(w),
          new Set(
            near
              .split(' ')
              .map(code)
              .filter((c) => c > 0),
          ),
        );
  return m;
}
/** {@link NAMED_BY_NEXT} by word code: the codes of the words that may follow. */
const NEXT_OF = /* @__PURE__ */ codesOf(NAMED_BY_NEXT);

/**
 * @internal Whether the problem word at `i` only names something with the word after it
 * ({@link NAMED_BY_NEXT}): "our RED state", "regression tests".
 *
 * @example
 * ```ts
 * // flags of "26 regression tests pass": namedByNext(fs, 1, 4) === true
 * ```
 */
export function namedByNext(fs: readonly number[], i: number, n: number): boolean {
  return i + 1 < n && NEXT_OF.get(codeOf(fs[i]!))?.has(codeOf(fs[i + 1]!)) === true;
}

/**
 * Problem words that the word before them turns into a case the code handles, not a defect that
 * stands: a design property ("all LLM paths fail-safe on missing key", "retries on timeout"), what a
 * check skips ("ignore missing docstrings", "filling with `None` if missing"), what code copes with
 * ("handles errors"). Data: each row is the problem words, then the words before them; every word is
 * in `CODES` (cues.ts).
 */
const CASE_AFTER: readonly (readonly [string, string])[] = [
  ['missing', 'on if when ignore ignores ignoring handle handles handling'],
  [
    'error errors failure failures timeout timeouts crash crashes exception exceptions',
    'on ignore ignores ignoring handle handles handling',
  ],
];
/** {@link CASE_AFTER} by word code: the codes of the words that may come before. */
const PREV_OF = /* @__PURE__ */ codesOf(CASE_AFTER);

/** "and", "or": a second case joined to the first ("handles errors and timeouts"). */
const JOINED: ReadonlySet<number> = /* @__PURE__ */ new Set(['and', 'or'].map(code));
/**
 * The problem words a join may make a second case: nouns only. "crash" and "crashes" are verbs as
 * often ("It handles errors and crashes on startup" says it crashes).
 */
const JOINED_CASES: ReadonlySet<number> = /* @__PURE__ */ new Set(
  'missing error errors failure failures timeout timeouts exception exceptions'.split(' ').map(code),
);

/** Whether the word at `i` is a case by the word right before it. */
const byPrevious = (fs: readonly number[], i: number): boolean =>
  i > 0 && PREV_OF.get(codeOf(fs[i]!))?.has(codeOf(fs[i - 1]!)) === true;

/**
 * @internal Whether the problem word at `i` names a case the code handles, by the word before it
 * ({@link CASE_AFTER}): "fail-safe on missing key", "handles errors"; or joined by "and" / "or" to
 * such a case ("handles errors and exceptions", "retries on timeout or failure"), one join back. A
 * problem word with "out" after it is a verb, never a case ("retries on timeout and errors out").
 *
 * @example
 * ```ts
 * // flags of "retries on timeout": caseHandled(fs, 2) === true
 * ```
 */
export function caseHandled(fs: readonly number[], i: number, n = fs.length): boolean {
  // "errors out", "times out": a verb, what the code does ("retries on timeout and errors out").
  if (i + 1 < n && codeOf(fs[i + 1]!) === C_OUT) return false;
  if (byPrevious(fs, i)) return true;
  return i > 2 && JOINED.has(codeOf(fs[i - 1]!)) && JOINED_CASES.has(codeOf(fs[i]!)) && byPrevious(fs, i - 2);
}

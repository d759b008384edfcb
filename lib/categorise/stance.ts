/**
 * What the writer's stance makes of a line, whatever its words: a status written last ("REQ-003
 * (Extract TOC): Not Started.", "Set up CI: Done."), a numbered or titled step ("Step 2: Modify line
 * 1715", "**SessionLive** - add the event"), a step being tried ("If I change it to:"), a reported
 * question, suggestion or criticism ("User questioned the need for X", "Opus suggested an env
 * variable", "User pointed out …"), a constraint on the plan ("So I should NOT modify the tests"), a
 * hedged verdict ("This seems reasonable", "That seems wrong"), a hedged plan ("I should probably
 * remove the import"), a guessed consequence ("If X, Y would …"), a heading over a plan ("Here's
 * what we should do:", "The main priorities are:"), a short lead-in ("To fix both properly:"), a
 * numbered item's status with no separator ("Stage 1 complete."), praise ("Good question!"), an
 * apology alone, a return to a thread ("Back to `f`:"), a verdict of wrong ("Wait, that's not quite
 * right.", "It looks like there's an issue with …") and a question reported as asked ("asked if /
 * whether / for clarification"). Each test is anchored at one end of the line or runs behind a cheap
 * gate, and none backtracks over the line (test/unit/snapshot-stance.test.ts feeds it adversarial
 * text), so the cost per entry stays small and linear.
 *
 * Each rule answers errors seen on spent labelled sets (eval/snapshot/sets/<n>/LABELLING.md) and was kept only
 * if it held on a set no rule had seen, measured once.
 * Rules that broke more spent entries than they fixed were dropped ("You're right" as a conceded
 * problem, "<source> says:" as evidence, any "X should <verb>" as a plan).
 */

import { BLOCKER, NEXT, NONE } from './codes.js';
import { firstWordGate, gateData, requiredGate } from './gates.js';
import { STANCE_RULES, type StanceRule } from './stance-rules.js';

/** The status a writer put last, and the category it gives the line. */
const STATUS: Readonly<Record<string, number>> = {
  done: NONE,
  complete: NONE,
  completed: NONE,
  finished: NONE,
  fixed: NONE,
  resolved: NONE,
  'not started': NEXT,
  'not done': NEXT,
  pending: NEXT,
  todo: NEXT,
  'to do': NEXT,
  'in progress': NEXT,
  ongoing: NEXT,
  planned: NEXT,
  blocked: BLOCKER,
};
/** A separator, then one of the {@link STATUS} words, last on the line (the words are the table's). */
const STATUS_TAIL = /* @__PURE__ */ new RegExp(
  String.raw`(?::|\s[-–—]|\()\s*\*{0,2}(${Object.keys(STATUS).join('|')})\*{0,2}\)?[.!]?\*{0,2}\s*$`,
  'gi',
);
/** The last two letters of each {@link STATUS} word: a line that ends otherwise has no status tail. */
const STATUS_ENDINGS = /* @__PURE__ */ new Set(Object.keys(STATUS).map((w) => pairCode(w, w.length)));
/** The two characters before `k`, lower-cased (ASCII), as one number. */
function pairCode(s: string, k: number): number {
  return ((s.charCodeAt(k - 2) | 0x20) << 16) | (s.charCodeAt(k - 1) | 0x20);
}
/** {@link STATUS_TAIL}'s separators, searched from the tail's start. */
const TAIL_GATE = /[:(]| [-–—]/g;
/** "Stage 1 complete.", "Phase 2 done": a named, numbered item, then its status. */
const NUMBERED_STATUS =
  /^\s*(?:[A-Za-z][\w-]*\s+){1,2}\d+[a-z]?\s+(complete|completed|done|finished)[.!]?\s*$/i;

/** A row of {@link STANCE_RULES} with the gate of the words it cannot match without (needle bits only). */
interface Row extends StanceRule {
  holds: (raw: string) => boolean;
}

const ROWS: readonly Row[] = /* @__PURE__ */ STANCE_RULES.map((rule) => ({
  ...rule,
  holds: requiredGate(gateData(rule.id), { search: false }),
}));
/** Which rows a line's first word lets through, bit k for row k (every row whose first words cannot be listed). */
const OPENS = /* @__PURE__ */ firstWordGate(STANCE_RULES.map((r) => gateData(r.id)?.first));
/** The rows a line's last character lets through, by that character (code below 128), and for any other. */
const BY_END = /* @__PURE__ */ (() => {
  const free = STANCE_RULES.reduce((m, r, k) => (r.ends === undefined ? m | (1 << k) : m), 0);
  const byEnd = new Int32Array(129).fill(free);
  STANCE_RULES.forEach((r, k) => {
    for (const c of r.ends ?? '') byEnd[Math.min(c.charCodeAt(0), 128)]! |= 1 << k;
  });
  return byEnd;
})();
/** The rows a line ending in a question mark may reach. */
const ASKED_OK = /* @__PURE__ */ STANCE_RULES.reduce((m, r, k) => (r.notAsked ? m : m | (1 << k)), 0);

/**
 * The category the writer's stance gives the line, as a `classify.ts` decision code, or -1 when it
 * says nothing. `isVerb` says whether a lower-cased word opens a plan (`run`, `remove`).
 *
 * @example
 * ```ts
 * const isVerb = (w: string) => w === 'modify';
 * stanceCategory('REQ-003 (Extract TOC): Not Started.', isVerb); // 2
 * stanceCategory('Step 1: Modify line 1713 to add `%`.', isVerb); // 2
 * stanceCategory('This seems reasonable.', isVerb); // 5 (nothing left to do)
 * ```
 */
export function stanceCategory(raw: string, isVerb: (w: string) => boolean): number {
  const n = raw.length;
  let e = n;
  while (e > 0 && raw.charCodeAt(e - 1) <= 0x20) e--;
  const last = raw.charCodeAt(e - 1);
  const asked = last === 0x3f;
  // A status written last: it ends in one of the status words' last two letters, with a separator
  // among the last 28 characters.
  if (!asked && n > 8 && statusEnding(raw, e)) {
    const from = e > 28 ? e - 28 : 0;
    TAIL_GATE.lastIndex = from;
    if (TAIL_GATE.test(raw)) {
      STATUS_TAIL.lastIndex = from;
      const m = STATUS_TAIL.exec(raw);
      if (m) return STATUS[m[1]!.toLowerCase().replace(/\s+/g, ' ')] ?? -1;
    }
    // "Stage 1 complete.": a numbered item's status, with no separator.
    const m = n < 40 ? NUMBERED_STATUS.exec(raw) : null;
    if (m) return STATUS[m[1]!.toLowerCase()] ?? -1;
  }
  // Each row runs behind cheap tests, since a 10k-entry snapshot runs this on every entry and nearly
  // none holds any of them: the line's first word and needles, its last character, its length.
  // (A line of white space only has no last character: `BY_END[NaN]` lets no row through.)
  let rows = OPENS(raw) & (BY_END[Math.min(last, 128)] ?? 0) & (asked ? ASKED_OK : -1);
  // In table order: the lowest bit first.
  while (rows !== 0) {
    const k = 31 - Math.clz32(rows & -rows);
    rows &= rows - 1;
    const row = ROWS[k]!;
    if (row.shorterThan !== undefined && n >= row.shorterThan) continue;
    // Past ASCII, BY_END lets through every row that ends in some such character: check which.
    if (row.ends !== undefined && !(last < 128) && row.ends.indexOf(raw.charAt(e - 1)) < 0) continue;
    if (!row.holds(raw)) continue;
    const category = decide(row, raw, isVerb);
    if (category !== undefined) return category;
  }
  return -1;
}

/** The row's answer on a line that passed its gates, or `undefined` when it does not apply. */
function decide(row: Row, raw: string, isVerb: (w: string) => boolean): number | undefined {
  const grouped = row.verb || row.notGroup || typeof row.category !== 'number';
  if (!grouped) {
    if (!(row.test ? row.test(raw) : row.pattern.test(raw))) return undefined;
    return row.unless?.test(raw) ? undefined : (row.category as number);
  }
  const m = row.pattern.exec(raw);
  if (!m || row.unless?.test(raw)) return undefined;
  const group = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
  if (row.verb && !isVerb(group)) return undefined;
  if (row.notGroup?.includes(group)) return undefined;
  return typeof row.category === 'number' ? row.category : (row.category[group] ?? undefined);
}

/** Whether the text before `e` ends (past `.`, `!`, `)`, `*`) in the last two letters of a {@link STATUS} word. */
function statusEnding(raw: string, e: number): boolean {
  let k = e;
  while (k > 0) {
    const c = raw.charCodeAt(k - 1);
    if (c !== 0x2e && c !== 0x21 && c !== 0x29 && c !== 0x2a) break;
    k--;
  }
  return k >= 2 && STATUS_ENDINGS.has(pairCode(raw, k));
}

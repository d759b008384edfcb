/**
 * The built-in kinds' matches, one at a time: the combined expressions run forward from a position
 * (`globalFrom`, remembering each expression's next match in `NextMatches`), or tried exactly at one
 * (`stickyAt`, `execAt`), and a match read as a span (`interpret`). The scanner (scanner.ts) orders
 * them, joins overlaps and looks for glued keys.
 */
import { emailSpan } from './address.js';
import { EscapeCursor, worthTrying } from './escapes.js';
import { deepStart, isJoiner, isKeyChar } from './glued.js';
import { type Alt, type CompiledRules, GENERIC, type Part, type Span } from './rules.js';
import type { MatchLog } from './trace.js';

/** Where a vendor prefix is split (see vendors.ts), and how long the part before it may be. */
const SEPARATORS = '_-.~|';
const MAX_HEAD = 40;

/**
 * What a scan does with a short fixed start after 16 or more word characters (see glued.ts): a sticky
 * try takes it (it starts at a boundary or after a match), a probe refuses it, and the scan looks for
 * a key that ends where it starts (`AKIA…npm_…`), paying for the reading from a budget of characters.
 */
export type DeepStarts = 'take' | 'refuse' | { left: number };

/** The longest key with a fixed length that may end where another starts (a Cloudflare CA key: 176). */
const MAX_BEFORE = 256;

/** A built-in match starting exactly at `pos`, ignoring the left-boundary lookbehinds. */
export function stickyAt(text: string, rules: CompiledRules, pos: number, prevEnd = pos): Span | undefined {
  if (pos >= text.length) return undefined;
  const found = execAt(text, rules, pos, 'sticky');
  return found === undefined ? undefined : interpret(text, rules, found.m, prevEnd, found.alts);
}

/** The first set's match exactly at `pos`, else the next set's. */
export function execAt(
  text: string,
  rules: CompiledRules,
  pos: number,
  which: 'sticky' | 'probe',
): { m: RegExpExecArray; alts: Alt[] } | undefined {
  const c = text.charCodeAt(pos);
  for (const part of rules.parts) {
    if (part.starts && !part.starts.has(c)) continue;
    const re = part[which];
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m !== null) return { m, alts: part.alts };
  }
  return undefined;
}

/**
 * The first built-in match at or after `from`; `prevEnd` bounds how far an address reaches back. The end
 * of an escape (`\n`, `\u003d`) is a word boundary too, though it is a letter or digit: there the kinds
 * are tried without their lookbehinds, as at the end of a match.
 */
export function globalFrom(
  text: string,
  rules: CompiledRules,
  from: number,
  prevEnd: number,
  escapes: EscapeCursor,
  next: NextMatches,
  deep: DeepStarts = 'refuse',
): Span | undefined {
  let boundary = escapes.next(from);
  while (from <= text.length) {
    const found = next.from(from);
    const limit = found === undefined ? text.length : found.m.index;
    for (; boundary >= 0 && boundary <= limit; boundary = escapes.next(boundary + 1)) {
      if (!worthTrying(text, boundary)) continue;
      const span = stickyAt(text, rules, boundary, prevEnd);
      if (span) return span;
    }
    if (found === undefined) return undefined;
    const span = interpret(text, rules, found.m, prevEnd, found.alts, deep);
    if (span) return span;
    from = found.m.index + 1;
  }
  return undefined;
}

/**
 * The next match of each combined expression, remembered: the scan only moves forward, so an
 * expression whose next match lies further on is not run again from every match of the other.
 */
export class NextMatches {
  private readonly at: (RegExpExecArray | null | undefined)[];
  private readonly asked: number[];
  /**
   * `log`: a scan of the same text with the same expressions records its searches there, or a later one
   * reads them instead of searching again (`recording`: which of the two).
   */
  constructor(
    private readonly text: string,
    private readonly globals: readonly Part[],
    private readonly log?: MatchLog,
    private readonly recording = false,
  ) {
    this.at = globals.map(() => undefined);
    this.asked = globals.map(() => -1);
  }

  /** The earliest match at or after `from` (ties: the first expression). */
  from(from: number): { m: RegExpExecArray; alts: Alt[] } | undefined {
    let best: { m: RegExpExecArray; alts: Alt[] } | undefined;
    for (let i = 0; i < this.globals.length; i++) {
      let m = this.at[i];
      if (m === undefined || this.asked[i]! > from || (m !== null && m.index < from)) {
        const known = this.recording ? undefined : this.log?.known(i, from);
        if (known !== undefined) m = known;
        else {
          const re = this.globals[i]!.global;
          re.lastIndex = from;
          m = re.exec(this.text);
          if (this.recording) this.log!.record(i, from, m);
        }
        this.at[i] = m;
        this.asked[i] = from;
      }
      if (m !== null && (best === undefined || m.index < best.m.index))
        best = { m, alts: this.globals[i]!.alts };
    }
    return best;
  }
}

/** The span of a combined expression's match `m`: the alternative that matched names its kind. */
export function interpret(
  text: string,
  rules: CompiledRules,
  m: RegExpExecArray,
  prevEnd: number,
  alts: readonly Alt[] = rules.parts[0]!.alts,
  deep: DeepStarts = 'take',
): Span | undefined {
  const end = m.index + m[0].length;
  for (const alt of alts) {
    if (m[alt.group] === undefined) continue;
    if (alt.email) return emailSpan(text, m.index, end, prevEnd);
    if (alt.secretGroup) {
      const secret = m[alt.group + 1]!;
      const valueStart = end - secret.length;
      let kind = alt.kind;
      if (GENERIC.includes(kind)) {
        for (const c of rules.classify) {
          if (c.test.test(secret)) {
            kind = c.kind;
            break;
          }
        }
      }
      return { start: m.index, valueStart, end, kind };
    }
    let start = m.index;
    // Found from the separator inside its prefix (`glpat-` from its `-`): the head is part of the key.
    if (alt.heads && SEPARATORS.includes(m[0].charAt(0))) {
      // The head's expression ends with the separator; it never reaches back into the previous match.
      const before = text.slice(Math.max(0, prevEnd, start - MAX_HEAD), start + 1);
      let head: RegExp | undefined = alt.deepHead;
      for (const row of alt.heads) {
        row.scan.lastIndex = start;
        if (row.scan.test(text)) {
          head = row.head;
          break;
        }
      }
      const h = head?.exec(before);
      if (h) start -= h[0].length - 1;
      // No row matched: the scan found a short start alone after a run (vendor-scan.ts).
      if (head === alt.deepHead && !(h && deepStart(text, start, alt.deep!))) return undefined;
    }
    if (deep !== 'take' && alt.deep !== undefined && deepStart(text, start, alt.deep))
      return deep === 'refuse' ? undefined : keyBefore(text, rules, start, prevEnd, deep);
    return { start, valueStart: start, end, kind: alt.kind };
  }
  return undefined;
}

/**
 * The key that ends where a short start after a run of word characters begins, maybe with one `_` or
 * `-` between (`AKIA…npm_…`, `A3-…_dapi…`), or undefined: the start is then part of the run. A key of
 * fixed length refuses more of a word after it, so two such keys glued left both in clear; the first is
 * the match, and the scan finds the second where it ends. The key starts where the run does (a setting's
 * name included), within {@link MAX_BEFORE} characters and not before `prevEnd`; the reading is charged
 * to `budget`, which keeps a text full of such starts linear.
 */
function keyBefore(
  text: string,
  rules: CompiledRules,
  start: number,
  prevEnd: number,
  budget: { left: number },
): Span | undefined {
  const c = text.charCodeAt(start - 1);
  // The key may end with its own `_` or `-` (`sq0atp-…-`), or one may stand between the two.
  return (
    endingAt(text, rules, start, prevEnd, budget) ??
    (isJoiner(c) ? endingAt(text, rules, start - 1, prevEnd, budget) : undefined)
  );
}

/** The match that ends at `end`, read in the run of key characters before it (see {@link keyBefore}). */
function endingAt(
  text: string,
  rules: CompiledRules,
  end: number,
  prevEnd: number,
  budget: { left: number },
): Span | undefined {
  if (budget.left <= 0) return undefined;
  const floor = Math.max(0, prevEnd);
  let from = end;
  while (from > floor && end - from <= MAX_BEFORE && isKeyChar(text.charCodeAt(from - 1))) from--;
  budget.left -= end - from + 1;
  if (end - from > MAX_BEFORE || end - from < 16) return undefined;
  const sub = text.slice(from, end);
  const escapes = new EscapeCursor(sub);
  const next = new NextMatches(sub, rules.parts);
  for (let at = 0, round = 0; round < 4 && at < sub.length; round++) {
    // A key right after the one before (`AKIA…-PMAK-…` before the start): tried there, as the scan
    // tries after a match; the expressions refuse it, a start glued to a run. In a chain of keys the
    // one before is found the same way (the budget is shared).
    const c = sub.charCodeAt(at);
    const found =
      (round > 0
        ? (stickyAt(sub, rules, at) ?? (isJoiner(c) ? stickyAt(sub, rules, at + 1) : undefined))
        : undefined) ?? globalFrom(sub, rules, at, at, escapes, next, budget);
    if (found === undefined) return undefined;
    if (found.end === sub.length) {
      // A key that goes on in the text (`sk-proj-…npm_…` is one key) holds the start: no key ends here.
      // Read as the scan reads it there (look backs included): a match refused there is no key that goes on.
      const probe = execAt(text, rules, found.start + from, 'probe');
      const whole = probe && interpret(text, rules, probe.m, prevEnd, probe.alts, 'refuse');
      if (whole !== undefined && whole.end > end) return undefined;
      return { start: found.start + from, valueStart: found.valueStart + from, end, kind: found.kind };
    }
    at = found.end;
  }
  return undefined;
}

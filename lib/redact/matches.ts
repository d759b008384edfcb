/**
 * The built-in kinds' matches, one at a time: the combined expressions run forward from a position
 * (`globalFrom`, remembering each expression's next match in `NextMatches`), or tried exactly at one
 * (`stickyAt`, `execAt`), and a match read as a span (`interpret`). The scanner (scanner.ts) orders
 * them, joins overlaps and looks for glued keys.
 */
import { emailSpan } from './address.js';
import { type EscapeCursor, worthTrying } from './escapes.js';
import { type Alt, type CompiledRules, GENERIC, type Part, type Span } from './rules.js';
import type { MatchLog } from './trace.js';

/** Where a vendor prefix is split (see vendors.ts), and how long the part before it may be. */
const SEPARATORS = '_-.~|';
const MAX_HEAD = 40;

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
    const span = interpret(text, rules, found.m, prevEnd, found.alts);
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
    if (alt.head && SEPARATORS.includes(m[0].charAt(0))) {
      // The head's expression ends with the separator; it never reaches back into the previous match.
      const h = alt.head.exec(text.slice(Math.max(0, prevEnd, start - MAX_HEAD), start + 1));
      if (h) start -= h[0].length - 1;
    }
    return { start, valueStart: start, end, kind: alt.kind };
  }
  return undefined;
}

/**
 * The single-pass scanner: every enabled built-in kind is one alternative of one global regular
 * expression, tried left to right; caller-supplied patterns run beside it and the earliest match wins.
 */
import { withWedges } from './address.js';
import { afterEscape, EscapeCursor } from './escapes.js';
import { isWordDash } from './glued.js';
import { gluedInside } from './inside.js';
import { type DeepStarts, execAt, globalFrom, interpret, NextMatches, stickyAt } from './matches.js';
import type { CompiledRules, CustomRule, Span } from './rules.js';
import type { ScanTrace } from './trace.js';

export type { CompiledRules, CustomRule, Span } from './rules.js';
export { ScanTrace } from './trace.js';

const AT = 64;
const EQUALS = 61;
const COLON = 58;
const DOT = 46;

/**
 * Calls `onSpan` for every region to redact (or keep: allowlisted values are still claimed), in order,
 * never overlapping. Linear in the text for the built-in kinds. `placeholders` holds the start and end
 * of every placeholder already in the text (flat, sorted): no caller pattern may match into one, and no
 * built-in kind can (none matches `[` or `]`). `wedges` holds where the skeleton dropped a placeholder
 * wedged into a key (ascending): an address never reaches across one. `trace`: a scan without caller
 * patterns records its steps there; a scan with patterns, of the same text with the same built-in
 * rules and wedges, replays the steps no pattern changes (see trace.ts).
 */
export function scan(
  text: string,
  rules: CompiledRules,
  placeholders: readonly number[],
  onSpan: (span: Span) => void,
  wedges?: readonly number[],
  trace?: ScanTrace,
): void {
  // Almost every text has no wedge: no closure and no guard for those (a call per line adds up).
  if (wedges === undefined || wedges.length === 0)
    scanAll(text, rules, placeholders, onSpan, undefined, trace);
  else withWedges(wedges, () => scanAll(text, rules, placeholders, onSpan, wedges, trace));
}

function scanAll(
  text: string,
  rules: CompiledRules,
  placeholders: readonly number[],
  onSpan: (span: Span) => void,
  wedges: readonly number[] | undefined,
  trace: ScanTrace | undefined,
): void {
  const { custom } = rules;
  const escapes = new EscapeCursor(text, wedges);
  // A scan without patterns records its searches; one with patterns reads them (see trace.ts).
  const matches = new NextMatches(text, rules.parts, trace?.matches, custom.length === 0);
  // Keys glued after a fixed-length key are looked for by reading back from their start (matches.ts):
  // at most twice the text in all, however many starts it holds.
  const deep = { left: 2 * text.length + 4096 };
  let pos = 0;
  let afterMatch = false;
  if (custom.length === 0) {
    // Fast path: only the combined expression.
    for (;;) {
      const found =
        (afterMatch ? stickyAt(text, rules, pos) : undefined) ??
        earliest(
          afterMatch ? gluedAfter(text, rules, pos) : undefined,
          globalFrom(text, rules, pos, pos, escapes, matches, deep),
        );
      if (!found) return;
      const span = overlapping(text, rules, ungluedAll(text, rules, pos, found, deep), afterMatch ? pos : -1);
      if (trace === undefined) emit(text, rules, span, onSpan);
      else {
        emit(text, rules, span, (s) => {
          trace.span(s);
          onSpan(s);
        });
        // The first step starts at no match; a scan with patterns reads it as after one at 0 (the
        // `prevEnd` of `overlapping`), which changes nothing when its span starts 16 or more in.
        trace.step(afterMatch || span.start >= 16 ? pos : -1, found.start);
      }
      pos = span.end;
      afterMatch = true;
    }
  }
  // With caller patterns: each expression keeps its next match; the earliest wins and the others are
  // searched again only when the winner overlaps them.
  let builtin: Span | undefined;
  let builtinFresh = false;
  const next: (Span | undefined)[] = custom.map(() => undefined);
  const fresh: boolean[] = custom.map(() => false);
  trace?.rewind();
  for (;;) {
    if (
      trace !== undefined &&
      (afterMatch || pos === 0) &&
      (!builtinFresh || (builtin !== undefined && builtin.start < pos))
    ) {
      // A step the scan without patterns took from here, unless a pattern matches at or before its match.
      const k = trace.at(pos);
      if (k >= 0 && !customBy(text, custom, next, fresh, pos, trace.choseAt(k))) {
        pos = trace.replay(k, onSpan);
        // The replayed step ended at its match's end, as an emitted one does: a key may start there.
        afterMatch = true;
        continue;
      }
    }
    if (afterMatch) {
      // A match's end is a boundary: try for a built-in match starting exactly there.
      const s = stickyAt(text, rules, pos);
      const g = s ? undefined : gluedAfter(text, rules, pos);
      if (s || g) {
        builtin = s ?? earliest(g, globalFrom(text, rules, pos, pos, escapes, matches, deep));
        builtinFresh = true;
      }
      afterMatch = false;
    }
    if (!builtinFresh || (builtin !== undefined && builtin.start < pos)) {
      builtin = globalFrom(text, rules, pos, pos, escapes, matches, deep);
      builtinFresh = true;
    }
    let best = builtin;
    let bestCustom = -1;
    for (let i = 0; i < custom.length; i++) {
      let s = next[i];
      if (!fresh[i] || (s !== undefined && s.start < pos)) {
        s = next[i] = nextCustom(text, custom[i]!, pos);
        fresh[i] = true;
      }
      if (s === undefined) continue;
      // Ties go to the caller's patterns, in the order given.
      if (best === undefined || s.start < best.start || (s.start === best.start && bestCustom < 0)) {
        best = s;
        bestCustom = i;
      }
    }
    if (best === undefined) return;
    if (bestCustom >= 0 && overlapsAny(placeholders, best.start, best.end)) {
      // The caller's match would swallow part of a placeholder: look for its next match instead.
      next[bestCustom] = nextCustom(text, custom[bestCustom]!, best.start + 1);
      continue;
    }
    // A key glued before a caller's match goes first (an address ending there had its domain cut by it).
    const glued = ungluedAll(text, rules, pos, best, deep);
    if (bestCustom < 0 || (glued !== best && glued.kind !== 'email'))
      best = overlapping(text, rules, glued, pos);
    emit(text, rules, best, onSpan);
    pos = best.end;
    afterMatch = true;
  }
}

/**
 * Whether a caller pattern's next match (from `pos`, kept in `next` as the scan keeps it) starts at or
 * before `at`, where it would win over a built-in match (ties go to the patterns).
 */
function customBy(
  text: string,
  custom: readonly CustomRule[],
  next: (Span | undefined)[],
  fresh: boolean[],
  pos: number,
  at: number,
): boolean {
  for (let i = 0; i < custom.length; i++) {
    let s = next[i];
    if (!fresh[i] || (s !== undefined && s.start < pos)) {
      s = next[i] = nextCustom(text, custom[i]!, pos);
      fresh[i] = true;
    }
    if (s !== undefined && s.start <= at) return true;
  }
  return false;
}

/**
 * The union of `span` and every built-in match that starts inside it and ends past it, so no part of
 * an overlapping secret stays in clear (`jane@x.sk-ant-…` is one value, not an address and a tail).
 * The longest of them names the kind. Only positions where a kind may start are probed; a run that
 * overlaps itself past its kind's length bound (tens of kilobytes of `a.token=a.token=…`) stops
 * growing once the matches probed are four times the span, which keeps the scan linear.
 * `prevEnd` ends the match before (-1: none): a key glued in the word that starts there is found as
 * {@link gluedAfter} finds it (a probe's look back would count that match's characters as a run).
 */
function overlapping(text: string, rules: CompiledRules, span: Span, prevEnd: number): Span {
  let { valueStart, end, kind } = span;
  let longest = end - valueStart;
  let work = 0;
  const absorb = (other: Span): void => {
    if (other.end - other.valueStart > longest) {
      longest = other.end - other.valueStart;
      kind = other.kind;
    }
    valueStart = Math.min(valueStart, other.valueStart);
    end = Math.max(end, other.end);
  };
  if (prevEnd >= 0 && span.start < prevEnd + 16) {
    const g = gluedAfter(text, rules, prevEnd);
    const inside = g !== undefined && g.start > span.start && g.start < end;
    if (inside && !(g.end <= end && g.valueStart >= valueStart)) absorb(g);
  }
  // Nothing that can reach past an address starts in its local part (no kind fits in `[\w.%+-]` and
  // then crosses the `@`): probe from the domain on, or a megabyte-long local part costs a probe per dot.
  const first = kind === 'email' ? text.indexOf('@', span.start) + 1 : span.start + 1;
  // An address's last label may end in a glued key (`jane@corp.ioxoxb-…`: the "TLD" `ioxoxb` is `io`
  // and the key's start): every position of that label is probed, at most 63.
  const tld = kind === 'email' ? text.lastIndexOf('.', end - 1) + 1 : end;
  for (let p = first; p < end && work <= 4 * (end - span.start); p++) {
    // A setting is found from its separator, which follows its name's last letter: `=` and `:` are
    // probed wherever they are (`Bearer abc.6password=<value>` left the value in clear when they were not).
    // A setting's name is probed at every position too: a key glued inside it (`\\nioxoxb-…_key=…`,
    // where the escape let the name start before the key) is redacted with the value.
    const c = text.charCodeAt(p);
    if (c !== EQUALS && c !== COLON && p < tld && p >= valueStart && !mayStart(text, p)) continue;
    // After an escape the kinds start without their lookbehinds, as in the scan.
    const escaped = afterEscape(text, p);
    const found = execAt(text, rules, p, escaped ? 'sticky' : 'probe');
    if (found === undefined) continue;
    const m = found.m;
    work += m[0].length;
    const other = interpret(text, rules, m, span.start, found.alts, escaped ? 'take' : 'refuse');
    // A match inside the span's context (a setting's name) is redacted too: the value starts there.
    if (other === undefined || (other.end <= end && other.valueStart >= valueStart)) continue;
    absorb(other);
  }
  // A key glued after this one whose start the match swallowed (`sk-…sk-…`): redacted with it.
  for (let round = 0, from = span.start + 1; round < UNGLUE_ROUNDS; round++) {
    const g = gluedInside(text, rules, from, end);
    if (g === undefined) break;
    absorb(g);
    from = g.start + 1;
  }
  return end === span.end && valueStart === span.valueStart
    ? span
    : { start: span.start, valueStart, end, kind };
}

/**
 * Calls `onSpan` with `span`, after the keys glued at the end of the text it keeps in clear (a setting's
 * name): a later pass reads that text with a placeholder after it, and a key id there (`AKIA…` before
 * `sk-ant-…_key=…`, the name read from the key's start) then ends at a boundary. Each is its own span.
 */
function emit(text: string, rules: CompiledRules, span: Span, onSpan: (span: Span) => void): void {
  if (span.valueStart === span.start) {
    onSpan(span);
    return;
  }
  const before: Span[] = [];
  let to = span.valueStart;
  for (let round = 0; round < UNGLUE_ROUNDS; round++) {
    const g = gluedBefore(text, rules, span.start, to);
    if (g === undefined) break;
    before.push(g);
    to = g.start;
  }
  if (before.length === 0) {
    onSpan(span);
    return;
  }
  for (let i = before.length - 1; i >= 0; i--) onSpan(before[i]!);
  onSpan({ start: span.valueStart, valueStart: span.valueStart, end: span.end, kind: span.kind });
}

/** The key glued at the end of `text[from, to)`: a {@link beforePlaceholder} match that ends at `to`. */
function gluedBefore(text: string, rules: CompiledRules, from: number, to: number): Span | undefined {
  const found = beforePlaceholder(text, rules, from, to);
  return found !== undefined && found.end === to ? found : undefined;
}

/** Whether a built-in kind could start at `p`: at an `@`, after a non-alphanumeric, or after an escape. */
function mayStart(text: string, p: number): boolean {
  if (text.charCodeAt(p) === AT) return true;
  const c = text.charCodeAt(p - 1);
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return !alnum || afterEscape(text, p);
}

/** Whether [start, end) meets any of the sorted flat [start, end) pairs. */
function overlapsAny(pairs: readonly number[], start: number, end: number): boolean {
  let lo = 0;
  let hi = pairs.length / 2;
  // First pair whose end is after `start`.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pairs[2 * mid + 1]! <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < pairs.length / 2 && pairs[2 * lo]! < end;
}

function nextCustom(text: string, rule: CustomRule, from: number): Span | undefined {
  const re = rule.regex;
  re.lastIndex = from;
  for (;;) {
    const m = re.exec(text);
    if (m === null) return undefined;
    const end = m.index + m[0].length;
    if (end > m.index) return { start: m.index, valueStart: m.index, end, kind: rule.kind };
    // Empty matches redact nothing; step past them.
    if (re.lastIndex >= text.length) return undefined;
    re.lastIndex = m.index + 1;
  }
}

/**
 * A key glued to the word that follows a match's end (`[openai-key-1]_sk-ant-…` on a second pass): the
 * scan refuses a glued key after 16 word characters, but those that belong to a match do not count, so
 * the 15 positions after the end are tried for a glued kind, as a second pass would (the placeholder's
 * `]` is a boundary). Stops where the word does.
 */
function gluedAfter(text: string, rules: CompiledRules, pos: number): Span | undefined {
  const glued = rules.glued;
  if (!glued) return undefined;
  for (let p = pos + 1; p < pos + 16 && p < text.length; p++) {
    if (!isWordDash(text.charCodeAt(p - 1))) return undefined;
    if (!glued.starts.has(text.charCodeAt(p))) continue;
    glued.sticky.lastIndex = p;
    const m = glued.sticky.exec(text);
    if (m === null) continue;
    const span = interpret(text, rules, m, p, glued.alts);
    if (span) return span;
  }
  return undefined;
}

/**
 * A key glued to the word before it (`jane@corp.ioAKIA…`) leaves, once replaced, a boundary where its
 * word went on: a second pass may then find something that ends there (the address `jane@corp.io`).
 * So the text between the last match's end and the glued key is scanned as the second pass will see
 * it — a placeholder after it — and a match there comes first.
 */
function unglue(text: string, rules: CompiledRules, pos: number, span: Span, deep: DeepStarts): Span {
  return beforePlaceholder(text, rules, pos, span.start, deep) ?? span;
}

/**
 * The first match in `text[from, to)` read as a later pass reads it once a placeholder stands at `to`
 * (the key glued there, or the match before it, then ends at a boundary), in `text`'s positions; or
 * undefined when nothing is glued at `to` or nothing ends by it. `deep`: the scan's reading back
 * (matches.ts), so keys glued in a row before `to` (`ico-…-ntn_…` before `_ops_…`) are found there too.
 */
function beforePlaceholder(
  text: string,
  rules: CompiledRules,
  from: number,
  to: number,
  deep: DeepStarts = 'refuse',
): Span | undefined {
  // After a `.` too: a key whose characters hold dots (`…Q~….`) may end there.
  const c = text.charCodeAt(to - 1);
  if (to <= from || !(isWordDash(c) || c === DOT)) return undefined;
  const sub = `${text.slice(from, to)}[x-1]`;
  const found = globalFrom(sub, rules, 0, 0, new EscapeCursor(sub), new NextMatches(sub, rules.parts), deep);
  if (found === undefined || found.end > to - from) return undefined;
  return {
    start: found.start + from,
    valueStart: found.valueStart + from,
    end: found.end + from,
    kind: found.kind,
  };
}

/**
 * {@link unglue} again on what it found, which may itself be glued (`jane@corp.ioAKIA…sk-ant-…`: the
 * Anthropic key, then the AWS key id glued before it, then the address before that). At most
 * {@link UNGLUE_ROUNDS} rounds, each over a shorter stretch, so the scan stays linear.
 */
function ungluedAll(text: string, rules: CompiledRules, pos: number, span: Span, deep: DeepStarts): Span {
  let s = span;
  for (let round = 0; round < UNGLUE_ROUNDS; round++) {
    const u = unglue(text, rules, pos, s, deep);
    if (u === s) break;
    s = u;
  }
  return s;
}

const UNGLUE_ROUNDS = 4;

/** The span that starts first (the second on a tie: the scan's own order). */
function earliest(a: Span | undefined, b: Span | undefined): Span | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.start < b.start ? a : b;
}

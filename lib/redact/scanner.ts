/**
 * The single-pass scanner: every enabled built-in kind is one alternative of one global regular
 * expression, tried left to right; caller-supplied patterns run beside it and the earliest match wins.
 */
import { afterEscape, BACKSLASH, ESCAPE_LETTERS, EscapeCursor, worthTrying } from './escapes.js';
import { isLocalChar, KIND_SPECS, type KindSpec } from './kinds.js';

/** A caller-supplied pattern, normalised to a global regular expression. */
export interface CustomRule {
  kind: string;
  regex: RegExp;
}

/** Everything one configuration needs to scan, built once and reused for every call. */
export interface CompiledRules {
  /** Combined expression with each kind's left-boundary lookbehind, flags `g`. */
  global: RegExp;
  /** The same without the lookbehinds, flags `y`: tried right after a match, whose end is a boundary. */
  sticky: RegExp;
  /** The combined expression with its lookbehinds, flags `y`: what may start inside a claimed span. */
  probe: RegExp;
  /** Per alternative: its capturing group and kind. */
  alts: Alt[];
  /** Anchored tests that reclassify a bearer token as a more specific kind (`Bearer sk-ant-…`). */
  classify: { kind: string; test: RegExp }[];
  /** Names whose placeholders (`[email-3]`) are recognised in the input. */
  knownKinds: ReadonlySet<string>;
  custom: CustomRule[];
}

interface Alt {
  group: number;
  kind: string;
  secretGroup: boolean;
  email: boolean;
}

/** One region of the text the scanner claimed. */
export interface Span {
  /** Where the claimed region starts (context such as `Bearer ` included). */
  start: number;
  /** Where the secret value starts (after any context) and ends. */
  valueStart: number;
  end: number;
  kind: string;
}

const AT = 64;

/**
 * Kinds a bearer token or a named secret (`GH_TOKEN=ghp_…`) is reported as when its whole value has
 * their shape (`Bearer sk-ant-…`).
 */
const CLASSIFIABLE: readonly string[] = [
  'anthropic-key',
  'openai-key',
  'github-token',
  'stripe-key',
  'google-api-key',
  'slack-token',
  'aws-access-key',
  'jwt',
];
/** Kinds whose value is reclassified by {@link CLASSIFIABLE}. */
const GENERIC: readonly string[] = ['bearer-token', 'secret'];

/** Builds the expressions for a set of enabled built-in kinds, custom rules and known kind names. */
export function compileRules(
  enabled: ReadonlySet<string>,
  custom: CustomRule[],
  knownKinds: readonly string[],
): CompiledRules {
  const specs = KIND_SPECS.filter((s) => enabled.has(s.kind));
  const alts: Alt[] = [];
  const withBoundary: string[] = [];
  const withoutBoundary: string[] = [];
  let group = 1;
  for (const spec of specs) {
    withBoundary.push(`(${spec.lookbehind}${spec.scan ?? spec.source})`);
    withoutBoundary.push(`(${spec.source})`);
    alts.push({ group, kind: spec.kind, secretGroup: spec.secretGroup, email: spec.kind === 'email' });
    group += spec.secretGroup ? 2 : 1;
  }
  // With every built-in kind off, an expression that never matches keeps the scanner simple.
  const never = '(?!)';
  return {
    global: new RegExp(withBoundary.join('|') || never, 'g'),
    sticky: new RegExp(withoutBoundary.join('|') || never, 'y'),
    probe: new RegExp(withBoundary.join('|') || never, 'y'),
    alts,
    classify: specs
      .filter((s: KindSpec) => CLASSIFIABLE.includes(s.kind))
      .map((s) => ({ kind: s.kind, test: new RegExp(`^(?:${s.source})$`) })),
    knownKinds: new Set(knownKinds),
    custom,
  };
}

/** A placeholder-shaped token at a given position (kind names are checked against the known ones). */
const PLACEHOLDER = /\[([a-z][a-z0-9_-]{0,63})-([1-9][0-9]{0,8})\]/y;

/**
 * Calls `onPlaceholder` for every placeholder of a known kind already in `text`. Jumps from `[` to `[`
 * with `indexOf`, which is an order of magnitude faster than a regular-expression search.
 */
export function findPlaceholders(
  text: string,
  knownKinds: ReadonlySet<string>,
  onPlaceholder: (kind: string, n: number, start: number, end: number) => void,
): void {
  const re = PLACEHOLDER;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) {
    if (i + 1 >= text.length) break;
    const c = text.charCodeAt(i + 1);
    if (c < 97 || c > 122) continue;
    re.lastIndex = i;
    const m = re.exec(text);
    if (m !== null && knownKinds.has(m[1]!)) onPlaceholder(m[1]!, Number(m[2]), i, re.lastIndex);
  }
}

/**
 * Calls `onSpan` for every region to redact (or keep: allowlisted values are still claimed), in order,
 * never overlapping. Linear in the text for the built-in kinds. `placeholders` holds the start and end
 * of every placeholder already in the text (flat, sorted): no caller pattern may match into one, and no
 * built-in kind can (none matches `[` or `]`).
 */
export function scan(
  text: string,
  rules: CompiledRules,
  placeholders: readonly number[],
  onSpan: (span: Span) => void,
): void {
  const { custom } = rules;
  const escapes = new EscapeCursor(text);
  let pos = 0;
  let afterMatch = false;
  if (custom.length === 0) {
    // Fast path: only the combined expression.
    for (;;) {
      const found =
        (afterMatch ? stickyAt(text, rules, pos) : undefined) ?? globalFrom(text, rules, pos, pos, escapes);
      if (!found) return;
      const span = overlapping(text, rules, found);
      onSpan(span);
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
  for (;;) {
    if (afterMatch) {
      // A match's end is a boundary: try for a built-in match starting exactly there.
      const s = stickyAt(text, rules, pos);
      if (s) {
        builtin = s;
        builtinFresh = true;
      }
      afterMatch = false;
    }
    if (!builtinFresh || (builtin !== undefined && builtin.start < pos)) {
      builtin = globalFrom(text, rules, pos, pos, escapes);
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
    if (bestCustom < 0) best = overlapping(text, rules, best);
    onSpan(best);
    pos = best.end;
    afterMatch = true;
  }
}

/**
 * The union of `span` and every built-in match that starts inside it and ends past it, so no part of
 * an overlapping secret stays in clear (`jane@x.sk-ant-…` is one value, not an address and a tail).
 * The longest of them names the kind. Only positions where a kind may start are probed; a run that
 * overlaps itself past its kind's length bound (tens of kilobytes of `a.token=a.token=…`) stops
 * growing once the matches probed are four times the span, which keeps the scan linear.
 */
function overlapping(text: string, rules: CompiledRules, span: Span): Span {
  const probe = rules.probe;
  let { valueStart, end, kind } = span;
  let longest = end - valueStart;
  let work = 0;
  // Nothing that can reach past an address starts in its local part (no kind fits in `[\w.%+-]` and
  // then crosses the `@`): probe from the domain on, or a megabyte-long local part costs a probe per dot.
  const first = kind === 'email' ? text.indexOf('@', span.start) + 1 : span.start + 1;
  for (let p = first; p < end && work <= 4 * (end - span.start); p++) {
    if (!mayStart(text, p)) continue;
    // After an escape the kinds start without their lookbehinds, as in the scan.
    const re = afterEscape(text, p) ? rules.sticky : probe;
    re.lastIndex = p;
    const m = re.exec(text);
    if (m === null) continue;
    work += m[0].length;
    const other = interpret(text, rules, m, span.start);
    // A match inside the span's context (a setting's name) is redacted too: the value starts there.
    if (other === undefined || (other.end <= end && other.valueStart >= valueStart)) continue;
    if (other.end - other.valueStart > longest) {
      longest = other.end - other.valueStart;
      kind = other.kind;
    }
    valueStart = Math.min(valueStart, other.valueStart);
    end = Math.max(end, other.end);
  }
  return end === span.end && valueStart === span.valueStart
    ? span
    : { start: span.start, valueStart, end, kind };
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

/** A built-in match starting exactly at `pos`, ignoring the left-boundary lookbehinds. */
function stickyAt(text: string, rules: CompiledRules, pos: number, prevEnd = pos): Span | undefined {
  if (pos >= text.length) return undefined;
  const sticky = rules.sticky;
  sticky.lastIndex = pos;
  const m = sticky.exec(text);
  return m === null ? undefined : interpret(text, rules, m, prevEnd);
}

/**
 * The first built-in match at or after `from`; `prevEnd` bounds how far an address reaches back. The end
 * of an escape (`\n`, `\u003d`) is a word boundary too, though it is a letter or digit: there the kinds
 * are tried without their lookbehinds, as at the end of a match.
 */
function globalFrom(
  text: string,
  rules: CompiledRules,
  from: number,
  prevEnd: number,
  escapes: EscapeCursor,
): Span | undefined {
  const re = rules.global;
  let boundary = escapes.next(from);
  while (from <= text.length) {
    re.lastIndex = from;
    const m = re.exec(text);
    const limit = m === null ? text.length : m.index;
    for (; boundary >= 0 && boundary <= limit; boundary = escapes.next(boundary + 1)) {
      if (!worthTrying(text, boundary)) continue;
      const span = stickyAt(text, rules, boundary, prevEnd);
      if (span) return span;
    }
    if (m === null) return undefined;
    const span = interpret(text, rules, m, prevEnd);
    if (span) return span;
    from = m.index + 1;
  }
  return undefined;
}

function interpret(
  text: string,
  rules: CompiledRules,
  m: RegExpExecArray,
  prevEnd: number,
): Span | undefined {
  const end = m.index + m[0].length;
  for (const alt of rules.alts) {
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
    return { start: m.index, valueStart: m.index, end, kind: alt.kind };
  }
  return undefined;
}

/**
 * Walks back from `@` over the local part; `undefined` when it is empty or `git` (an SSH remote). The
 * whole run is taken, however long: a run cut at 64 characters would leave its head in clear, and what
 * a second pass sees before the placeholder would differ from what this one saw.
 */
function emailSpan(text: string, at: number, end: number, prevEnd: number): Span | undefined {
  let start = at;
  while (start > prevEnd && isLocalChar(text.charCodeAt(start - 1))) start--;
  // `\njane@x.io` in escaped text (JSON, logs): the `n` belongs to the escape, not to the address.
  if (start < at && start > prevEnd && text.charCodeAt(start - 1) === BACKSLASH) {
    let slashes = 0;
    for (let i = start - 1; i >= prevEnd && text.charCodeAt(i) === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 1 && ESCAPE_LETTERS.includes(text.charAt(start))) start++;
  }
  if (start === at) return undefined;
  if (at - start === 3 && text.startsWith('git', start)) return undefined;
  // `\\n@pytest.fixture` in text escaped twice (JSON inside JSON): a lone escape letter after
  // backslashes is the end of a line break, not someone's address.
  if (
    at - start === 1 &&
    start > prevEnd &&
    text.charCodeAt(start - 1) === BACKSLASH &&
    ESCAPE_LETTERS.includes(text.charAt(start))
  )
    return undefined;
  return { start, valueStart: start, end, kind: 'email' };
}

/**
 * The single-pass scanner: every enabled built-in kind is one alternative of one global regular
 * expression, tried left to right; caller-supplied patterns run beside it and the earliest match wins.
 */
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

/** Longest email local part (RFC 5321); longer runs keep their head. */
const MAX_LOCAL = 64;

const BACKSLASH = 92;
/** Letters that follow a backslash in an escape (`\n`, `\t`, …): `\njane@x.io` is `jane@x.io`. */
const ESCAPE_LETTERS = 'nrtbfv';

/** Kinds a bearer token is reported as when it has their shape (`Bearer sk-ant-…`). */
const CLASSIFIABLE: readonly string[] = ['anthropic-key', 'openai-key', 'github-token', 'slack-token', 'jwt'];

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
    withBoundary.push(`(${spec.lookbehind}${spec.source})`);
    withoutBoundary.push(`(${spec.source})`);
    alts.push({ group, kind: spec.kind, secretGroup: spec.secretGroup, email: spec.kind === 'email' });
    group += spec.secretGroup ? 2 : 1;
  }
  // With every built-in kind off, an expression that never matches keeps the scanner simple.
  const never = '(?!)';
  return {
    global: new RegExp(withBoundary.join('|') || never, 'g'),
    sticky: new RegExp(withoutBoundary.join('|') || never, 'y'),
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
  let pos = 0;
  let afterMatch = false;
  if (custom.length === 0) {
    // Fast path: only the combined expression.
    for (;;) {
      const span = (afterMatch ? stickyAt(text, rules, pos) : undefined) ?? globalFrom(text, rules, pos, pos);
      if (!span) return;
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
      builtin = globalFrom(text, rules, pos, pos);
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
    onSpan(best);
    pos = best.end;
    afterMatch = true;
  }
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
function stickyAt(text: string, rules: CompiledRules, pos: number): Span | undefined {
  if (pos >= text.length) return undefined;
  const sticky = rules.sticky;
  sticky.lastIndex = pos;
  const m = sticky.exec(text);
  return m === null ? undefined : interpret(text, rules, m, pos);
}

/** The first built-in match at or after `from`; `prevEnd` bounds how far an address reaches back. */
function globalFrom(text: string, rules: CompiledRules, from: number, prevEnd: number): Span | undefined {
  const re = rules.global;
  while (from <= text.length) {
    re.lastIndex = from;
    const m = re.exec(text);
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
      if (kind === 'bearer-token') {
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

/** Walks back from `@` over the local part; `undefined` when it is empty or `git` (an SSH remote). */
function emailSpan(text: string, at: number, end: number, prevEnd: number): Span | undefined {
  const limit = Math.max(prevEnd, at - MAX_LOCAL);
  let start = at;
  while (start > limit && isLocalChar(text.charCodeAt(start - 1))) start--;
  // `\njane@x.io` in escaped text (JSON, logs): the `n` belongs to the escape, not to the address.
  if (start < at && start > prevEnd && text.charCodeAt(start - 1) === BACKSLASH) {
    let slashes = 0;
    for (let i = start - 1; i >= prevEnd && text.charCodeAt(i) === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 1 && ESCAPE_LETTERS.includes(text.charAt(start))) start++;
  }
  if (start === at) return undefined;
  if (at - start === 3 && text.startsWith('git', start)) return undefined;
  return { start, valueStart: start, end, kind: 'email' };
}

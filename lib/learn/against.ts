/**
 * The existing AGENTS.md / CLAUDE.md: its instruction lines (what a proposal must not repeat) and the
 * terms a rule rejects or asks for (what a contradiction is made of).
 */
import { contentWords } from '../core/index.js';
import type { ExistingLine } from './types.js';

/** One sentence of an instruction line, with the line it sits on. */
export interface AgainstSentence extends ExistingLine {
  sentence: string;
}

/**
 * The instruction sentences of a markdown file: headings, blank lines, fenced code and HTML comments
 * left out, list markers and the evidence notes this module writes (`_(3 sessions …)_`) stripped.
 */
export function againstSentences(text: string | undefined): AgainstSentence[] {
  const out: AgainstSentence[] = [];
  if (typeof text !== 'string' || !text) return out;
  let fenced = false;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(?:```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || /^\s*#/.test(raw) || !raw.trim()) continue;
    const body = withoutEvidenceNote(withoutComments(raw))
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
      .trim();
    if (!body) continue;
    for (const sentence of body.split(/(?<=[.!?;])\s+/)) {
      if (sentence.trim()) out.push({ line: i + 1, text: raw.trim(), sentence: sentence.trim() });
    }
  }
  return out;
}

/** Regex `.`'s complement: the line terminators. */
function isTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/**
 * `line.replace(/<!--.*?-->/g, ' ')` in one pass: each `-->` and line terminator is found once and
 * kept while later openers need it (the regex ran to the end of the line from every unclosed `<!--`).
 */
function withoutComments(line: string): string {
  let out = '';
  let from = 0;
  let close = -1; // the first `-->` at or after the body of the opener at hand
  let stop = -1; // the first line terminator there (`.` stops at it)
  let open = line.indexOf('<!--');
  while (open >= 0) {
    const body = open + 4;
    if (close < body) close = line.indexOf('-->', body);
    if (close < 0) break; // no later opener is closed either
    if (stop < body) {
      stop = body;
      while (stop < line.length && !isTerminator(line.charCodeAt(stop))) stop++;
    }
    if (stop < close) {
      open = line.indexOf('<!--', stop + 1);
      continue;
    }
    out += `${line.slice(from, open)} `;
    from = close + 3;
    open = line.indexOf('<!--', from);
  }
  return from === 0 ? line : out + line.slice(from);
}

const SPACE = /\s/;

/**
 * `line.replace(/\s*_\([^)]*\)_\s*$/, '')` from the end: the note closes the line with `)_`, its
 * `_(` is the first after the `)` before that one, and the spaces before it go too. The regex tried
 * `\s*` from every space of a run and `[^)]*` from every `_(` (quadratic in both).
 */
function withoutEvidenceNote(line: string): string {
  let end = line.length;
  while (end > 0 && SPACE.test(line[end - 1]!)) end--;
  if (end < 3 || line[end - 1] !== '_' || line[end - 2] !== ')') return line;
  const close = end - 2;
  const open = line.indexOf('_(', line.lastIndexOf(')', close - 1) + 1);
  if (open < 0 || open + 2 > close) return line;
  let start = open;
  while (start > 0 && SPACE.test(line[start - 1]!)) start--;
  return line.slice(0, start);
}

/** `term.replace(/[.+/@-]+$/, '')` without trying the run from each of its characters. */
function withoutTrailingPunctuation(term: string): string {
  let end = term.length;
  while (end > 0 && '.+/@-'.includes(term[end - 1]!)) end--;
  return term.slice(0, end);
}

/**
 * A lookup of the first sentence that says everything `rule` says: every content word of the rule is
 * in it (a shorter paraphrase the file already has). Word sets are built once.
 */
export function coverIndex(
  sentences: readonly AgainstSentence[],
): (rule: string) => AgainstSentence | undefined {
  const sets = sentences.map((s) => new Set(contentWords(s.sentence)));
  const signs = sentences.map((s) => negated(s.sentence));
  return (rule) => {
    const need = contentWords(rule);
    if (need.length < 2) return undefined;
    const sign = negated(rule);
    const i = sets.findIndex((have, j) => signs[j] === sign && need.every((w) => have.has(w)));
    return i < 0 ? undefined : sentences[i];
  };
}

const TERM = String.raw`[\w.@/+-]+(?:\s+[\w.@/+-]+){0,2}?`;
const STOP = String.raw`(?=\s*(?:[.,;:!?)]|$|\s(?:for|in|to|when|because|unless|with|on|and|or)\b))`;
/** "use X instead of Y", "prefer X over Y", "use X, not Y": Y is rejected, X asked for. */
const ALTERNATIVE = new RegExp(
  String.raw`\b(?:use|prefer|run|choose|pick|call|install)\s+\`?(${TERM})\`?\s*(?:,\s*)?(?:instead of|rather than|over|not)\s+(?:using\s+|use\s+)?\`?(${TERM})\`?${STOP}`,
  'i',
);
/** "don't use Y", "never use Y", "avoid Y": Y is rejected. */
const REJECT = new RegExp(
  String.raw`\b(?:don['’]?t|do not|never|avoid|stop)\s+(?:use\s+|using\s+)?\`?(${TERM})\`?${STOP}`,
  'i',
);
/** "use X": X is asked for. */
const ASK = new RegExp(String.raw`^\s*(?:always\s+)?(?:use|prefer)\s+\`?(${TERM})\`?${STOP}`, 'i');
const NEGATION = /\b(?:not|never|avoid|don['’]?t|do not|no|instead of|rather than|stop)\b|n['’]t\b/i;

/**
 * True when the text says what not to do. Content words leave "not", "no" and "do" out, so two texts
 * with the same words and a different answer here say opposite things and are never one rule.
 */
export function negated(text: string): boolean {
  return NEGATION.test(text);
}

/** What an instruction rejects and asks for, lower-cased. */
export function stance(text: string): { rejects: string[]; asks: string[] } {
  const rejects: string[] = [];
  const asks: string[] = [];
  const alt = ALTERNATIVE.exec(text);
  if (alt) {
    asks.push(alt[1]!.toLowerCase());
    rejects.push(alt[2]!.toLowerCase());
  } else {
    const rej = REJECT.exec(text);
    if (rej) rejects.push(rej[1]!.toLowerCase());
    const ask = ASK.exec(text);
    if (ask && !NEGATION.test(text)) asks.push(ask[1]!.toLowerCase());
  }
  // A term may end a sentence: "npm." names npm.
  const clean = withoutTrailingPunctuation;
  return { rejects: rejects.map(clean).filter(meaningful), asks: asks.map(clean).filter(meaningful) };
}

const VAGUE = new Set([
  'it',
  'this',
  'that',
  'them',
  'the',
  'a',
  'an',
  'any',
  'these',
  'those',
  'one',
  'more',
]);
function meaningful(term: string): boolean {
  return /\p{L}/u.test(term) && !VAGUE.has(term.split(/\s+/)[0]!);
}

function mentions(text: string, term: string): boolean {
  const lower = text.toLowerCase();
  let at = lower.indexOf(term);
  while (at >= 0) {
    const before = at === 0 ? '' : lower[at - 1]!;
    const after = lower[at + term.length] ?? '';
    if (!/[\w@/-]/.test(before) && !/[\w@/-]/.test(after)) return true;
    at = lower.indexOf(term, at + 1);
  }
  return false;
}

/**
 * True when `rule` and the file's `sentence` say opposite things: the rule rejects a term the
 * sentence asks for without any negation ("Use pnpm, not npm." against "Run npm install first."), or
 * the sentence rejects what the rule asks for ("Never use yarn." against "Use yarn for installs.").
 */
export function contradicts(rule: string, sentence: string): boolean {
  const r = stance(rule);
  if (!NEGATION.test(sentence) && r.rejects.some((t) => mentions(sentence, t))) return true;
  const s = stance(sentence);
  return r.asks.some((t) => s.rejects.includes(t));
}

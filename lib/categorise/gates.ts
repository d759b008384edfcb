/**
 * The shortcuts in front of the categoriser's rules, read off each rule's pattern instead of being
 * kept by hand beside it (regex-source.ts reads the pattern):
 * - `firstWords` / `firstWordGate`: the words a pattern anchored at the line's start can open with
 *   (or the mark it opens with), so a line that opens otherwise is not tried;
 * - `requiredWords`: the words no match can do without, which `stance.ts` turns into needle bits
 *   (needles.ts) that the snapshot's word table already knows for each text.
 * A pattern whose words cannot be listed gets no shortcut and is always tried, so a derivation can cost
 * time, never a match (test/unit/categorise-gates.test.ts checks it on generated lines).
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import { mayHold, needleOf } from './needles.js';
import { isLetter, type Node, parseSource, Unknown } from './regex-source.js';

/** More first words than this: no gate (it would hardly spare a call). */
const MAX_WORDS = 64;

/**
 * Where a match can be, as far as the first word goes: `open` words still being spelt (a letter may
 * follow), `done` words already ended; `anchored` once `^` was read. `null` when the words cannot be
 * listed.
 */
interface State {
  anchored: boolean;
  open: Set<string>;
  done: Set<string>;
}

function step(s: State, node: Node): State | null {
  switch (node.t) {
    case 'start':
      return { ...s, anchored: true };
    case 'empty':
      return s;
    case 'boundary': {
      // A word boundary after letters: the word is over (neither a letter nor a digit comes next).
      if (!s.open.has('') || s.open.size > 1) {
        const done = new Set(s.done);
        for (const w of s.open) if (w !== '') done.add(w);
        return { anchored: s.anchored, open: s.open.has('') ? new Set(['']) : new Set(), done };
      }
      return s;
    }
    case 'end':
      // The line ends: every word spelt so far is its first word (an empty one included).
      return { anchored: s.anchored, open: new Set(), done: union(s.done, s.open) };
    case 'group': {
      let out: State | null = null;
      for (const alt of node.alts) {
        let a: State = s;
        for (const n of alt) {
          const next = step(a, n);
          if (!next) return null;
          a = next;
        }
        out = out ? merge(out, a) : a;
      }
      return out ?? s;
    }
    case 'repeat': {
      let cur: State = s;
      let acc: State | null = null;
      // Up to eight rounds past the minimum; an unbounded repeat must have stopped adding words by then.
      const last = Math.min(node.max, node.min + 8);
      for (let k = 0; k <= last; k++) {
        if (k >= node.min) {
          const before = acc;
          acc = acc ? merge(acc, cur) : cur;
          if (k > node.min && before && same(before, acc)) return acc;
        }
        if (k === last) break;
        const next = step(cur, node.node);
        if (!next) return null;
        cur = next;
      }
      return node.max === Infinity ? null : acc;
    }
    default:
      break;
  }
  // A character: nothing may be read before the anchor.
  if (!s.anchored) return null;
  if (s.open.size === 0) return s; // the first word is over on every path
  if (node.t === 'unknown') return null;
  if (node.t === 'space' || node.t === 'other') {
    const done = new Set(s.done);
    for (const w of s.open) if (w !== '') done.add(w);
    // A line that opens with another character: that character stands for its first word ('' for any).
    if (node.t === 'other' && s.open.has('')) for (const c of node.chars ?? ['']) done.add(c);
    // White space before any letter is skipped (a line's first word is read after it).
    const skipped = s.open.has('') && (node.t === 'space' || node.space === true);
    return { anchored: true, open: skipped ? new Set(['']) : new Set<string>(), done };
  }
  const cs = node.t === 'letter' ? node.c : node.cs;
  const open = new Set<string>();
  for (const w of s.open) for (const c of cs) open.add(w + c);
  return open.size + s.done.size > MAX_WORDS ? null : { anchored: true, open, done: s.done };
}

const union = (a: Set<string>, b: Set<string>) => new Set([...a, ...b]);
const merge = (a: State, b: State): State => ({
  anchored: a.anchored && b.anchored,
  open: union(a.open, b.open),
  done: union(a.done, b.done),
});
const same = (a: State, b: State) =>
  a.open.size === b.open.size && a.done.size === b.done.size && [...b.open].every((w) => a.open.has(w));

/**
 * @internal The lower-cased words a pattern anchored at the line's start can open with, read after the
 * white space that opens the line (`''` when it can open with another character), in the order found;
 * `undefined` when they cannot be listed. A line that opens with another word cannot match.
 *
 * @example
 * ```ts
 * firstWords(/^\s*(?:so,?\s+)?to\s+([a-z]+):\s*$/i); // ['so', 'to']
 * firstWords(/\bshould\b/); // undefined: not anchored
 * ```
 */
export function firstWords(pattern: RegExp): string[] | undefined {
  if (pattern.multiline) return undefined;
  let alts: Node[][];
  try {
    alts = parseSource(pattern.source);
  } catch (e) {
    if (e instanceof Unknown) return undefined;
    throw e;
  }
  const s = step({ anchored: false, open: new Set(['']), done: new Set() }, { t: 'group', alts });
  // A pattern that ends inside its first word cannot say where the word ends.
  if (!s || s.open.size > 0 || s.done.size > MAX_WORDS) return undefined;
  return [...s.done];
}

/**
 * @internal FNV-1a of the run of ASCII letters from `i`, lower-cased: the hash of the word that opens
 * the line, without building it. A hash of that word's spelling and nothing else, so equal words
 * (in any case) hash alike.
 *
 * @example
 * ```ts
 * firstWordHash('So, done', 0) === firstWordHash('so', 0); // true
 * ```
 */
export function firstWordHash(raw: string, i: number): number {
  let h = FNV_OFFSET | 0;
  for (; i < raw.length; i++) {
    const c = raw.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h;
}

/**
 * @internal A gate for forms anchored at the line's start: bit k set for form k when the line's first
 * word (after white space) is one it can open with, every bit for a form whose words cannot be listed
 * and for a line that opens with a character past ASCII (`\s` skips some of those). Up to 31 forms.
 *
 * @example
 * ```ts
 * const gate = firstWordGate([/^\s*sorry\b/i, /^\s*step\s*\d/i]);
 * gate('  Step 2: run it'); // 0b10
 * ```
 */
export function firstWordGate(patterns: readonly RegExp[]): (raw: string) => number {
  const byWord = new Map<number, number>();
  // Bits by the ASCII character that opens a line when it is no letter; `anyOther` for any such.
  const byChar = new Int32Array(128);
  let anyOther = 0;
  let always = 0;
  patterns.forEach((p, k) => {
    const words = firstWords(p);
    if (!words) always |= 1 << k;
    else
      for (const w of words) {
        const c = w.charCodeAt(0);
        if (w === '') anyOther |= 1 << k;
        else if (!isLetter(w[0]!)) {
          if (c < 128) byChar[c]! |= 1 << k;
        } else byWord.set(firstWordHash(w, 0), (byWord.get(firstWordHash(w, 0)) ?? 0) | (1 << k));
      }
  });
  const all = (1 << patterns.length) - 1;
  return (raw) => {
    let i = 0;
    while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
    const c = raw.charCodeAt(i);
    if (c >= 0x80) return all;
    const l = c | 0x20;
    if (l >= 0x61 && l <= 0x7a) return (byWord.get(firstWordHash(raw, i)) ?? 0) | always;
    // Another character, or none (an empty line): what may open with it, or with anything.
    return (c >= 0 ? byChar[c]! : 0) | anyOther | always;
  };
}

/** The shortest word a gate may need: shorter ones are in nearly every line. */
const MIN_NEED = 3;
/** More spellings than this in a run of letters: the run is not tracked. */
const MAX_SPELLINGS = 16;
/** A mark needed is one of at most this many characters. */
const MAX_MARKS = 3;

/**
 * What a piece of pattern needs in a line: `spells`, every string it can match when those are a few
 * strings of letters only (else `null`); `needs`, sets of words of which a match holds one each.
 */
interface Need {
  spells: Set<string> | null;
  needs: string[][];
}

const ZERO_WIDTH = new Set(['start', 'end', 'boundary', 'empty']);

/** `after`: whatever follows `node` in the pattern ends a word of the line. */
function need(node: Node, after = false): Need {
  if (ZERO_WIDTH.has(node.t)) return { spells: new Set(['']), needs: [] };
  if (node.t === 'letter') return { spells: new Set([node.c]), needs: [] };
  if (node.t === 'letters') return { spells: new Set(node.cs), needs: [] };
  if (node.t === 'group') return alternativesNeed(node.alts, after);
  // A mark of a few known characters (a backtick, a quote): one of them is in every match.
  if (node.t === 'other' && node.chars !== undefined && node.chars.length <= MAX_MARKS && !node.space) {
    return { spells: null, needs: [[...node.chars]] };
  }
  if (node.t !== 'repeat') return { spells: null, needs: [] };
  // Once or not at all: what follows the repeat follows its one match.
  const inner = need(node.node, node.max === 1 && after);
  if (node.min === 0) {
    return { spells: node.max === 1 && inner.spells ? union(inner.spells, new Set([''])) : null, needs: [] };
  }
  let spells: Set<string> | null = node.min === node.max ? new Set(['']) : null;
  for (let k = 0; spells && k < node.min; k++) spells = cross(spells, inner.spells);
  return { spells, needs: inner.needs };
}

/** Each spelling of `a` followed by each of `b`; `null` past {@link MAX_SPELLINGS} or when either is unknown. */
function cross(a: Set<string> | null, b: Set<string> | null): Set<string> | null {
  if (!a || !b || a.size * b.size > MAX_SPELLINGS) return null;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

/**
 * Sets of words whose every word ends a word of the line (white space, a word boundary, the end or a
 * mark other than a digit follows it): only such a word can be gated by its ending ("ed").
 */
const WORD_ENDS = new WeakSet<string[]>();

/** Whether what `node` matches ends a word of the line, as the snapshot's words are cut (letters and digits). */
const endsWord = (node: Node): boolean =>
  node.t === 'space' ||
  node.t === 'boundary' ||
  node.t === 'end' ||
  (node.t === 'other' && node.chars !== undefined && !/\d/.test(node.chars)) ||
  (node.t === 'repeat' && node.min >= 1 && endsWord(node.node));

function sequenceNeed(nodes: readonly Node[], after = false): Need {
  const needs: string[][] = [];
  let run: Set<string> | null = new Set(['']);
  let lettersOnly = true;
  const close = (ends: boolean) => {
    if (run && [...run].every((w) => w.length >= MIN_NEED)) {
      const ws = [...run];
      if (ends) WORD_ENDS.add(ws);
      needs.push(ws);
    }
    run = new Set(['']);
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    // A word boundary or the end after letters: the run is over, and it ends a word.
    if ((node.t === 'boundary' || node.t === 'end') && run && [...run].some((w) => w !== '')) {
      close(true);
      continue;
    }
    const x = need(node, i + 1 < nodes.length ? endsWord(nodes[i + 1]!) : after);
    if (x.spells) {
      run = cross(run, x.spells);
      continue;
    }
    lettersOnly = false;
    close(endsWord(node));
    needs.push(...x.needs);
  }
  const spells = lettersOnly ? run : null;
  close(after);
  return { spells, needs };
}

/** The set of `needs` a gate gains most from: the one whose shortest word is longest (a mark is one character). */
function bestNeed(needs: readonly string[][]): string[] | undefined {
  let best: string[] | undefined;
  for (const ws of needs) if (!best || shortest(ws) > shortest(best)) best = ws;
  return best;
}
const shortest = (ws: readonly string[]) => Math.min(...ws.map((w) => w.length));

function alternativesNeed(alts: readonly Node[][], after = false): Need {
  const each = alts.map((alt) => sequenceNeed(alt, after));
  let spells: Set<string> | null = new Set();
  for (const e of each) spells = spells && e.spells ? union(spells, e.spells) : null;
  if (spells && spells.size > MAX_SPELLINGS) spells = null;
  // One set every alternative meets: a word it needs (its best set) or one of its own spellings.
  if (each.length === 1) return each[0]!;
  // Per alternative its best set of words and its best set of marks: each kind gives the group a set
  // when every alternative has one (a quote mark in every alternative is needed however the words go).
  const needs: string[][] = [];
  for (const marks of [false, true]) {
    const picks = each.map((e) =>
      bestNeed(e.needs.filter((ws) => ws.every((w) => w.length === 1) === marks)),
    );
    if (!picks.every((p) => p !== undefined)) continue;
    const union = [...new Set(picks.flat() as string[])];
    if (picks.every((p) => WORD_ENDS.has(p!))) WORD_ENDS.add(union);
    needs.push(union);
  }
  return { spells, needs };
}

/**
 * @internal Sets of lower-case words a line must hold (inside its words, in any case) for `pattern` to
 * match: one of each set. Read off the pattern as `firstWords` is: a literal run of at least three
 * letters that every match spells, or a mark of one of a few characters (a backtick, a quote), or one
 * of those per alternative; `[]` when nothing is sure.
 *
 * @example
 * ```ts
 * requiredWords(/\bshould\s+probably\s+([a-z]+)/i); // [['should'], ['probably']]
 * requiredWords(/\b(?:asked|asking|asks)\s+(?:if|whether)\b/i); // [['asked', 'asking', 'asks']]
 * ```
 */
export function requiredWords(pattern: RegExp): string[][] {
  try {
    const { needs } = alternativesNeed(parseSource(pattern.source));
    // The same set twice (two backticks) gates no better than once.
    const seen = new Set<string>();
    return needs.filter((ws) => !seen.has(ws.join('\n')) && seen.add(ws.join('\n')));
  } catch (e) {
    if (e instanceof Unknown) return [];
    throw e;
  }
}

/** Sets a gate reads at most: the first ones the pattern needs, best first. */
const MAX_GATE_SETS = 2;

/**
 * @internal The gate of `requiredWords(pattern)`: whether a line holds one word or mark of each set (the
 * best two), so that a line without them is not tried. A set whose words each hold a needle
 * (needles.ts) is read from the word table's bits (`mayHold`, no search); any other set by one
 * case-insensitive search of its words and marks (unless `search` is false: a pattern anchored at the
 * line's start fails as fast as the search would). Always true for a pattern that needs nothing.
 *
 * @example
 * ```ts
 * const gate = requiredGate(/\bshould\s+probably\s+([a-z]+)/i);
 * gate('We should probably drop it'); // true
 * gate('We should drop it'); // false
 * ```
 */
export function requiredGate(pattern: RegExp, { search = true } = {}): (raw: string) => boolean {
  const sets = requiredWords(pattern)
    .map((ws) => {
      const ends = WORD_ENDS.has(ws);
      // One needle a word guarantees, the rarer kind first: the set holds when one of them is there.
      const bits = ws.reduce((b, w) => (b < 0 || !needleOf(w, ends) ? -1 : b | needleOf(w, ends)), 0);
      // What a check costs: needle bits nothing, marks a native `indexOf` each, words one search.
      const cost = bits > 0 ? 0 : ws.every((w) => w.length === 1) ? 1 : 2;
      return { ws, bits, cost };
    })
    .filter(({ cost }) => search || cost === 0)
    // The cheapest first, then the longest words (the rarest).
    .sort((a, b) => a.cost - b.cost || shortest(b.ws) - shortest(a.ws))
    .slice(0, MAX_GATE_SETS);
  const checks = sets.map(({ ws, bits, cost }): ((raw: string) => boolean) => {
    if (cost === 0) return (raw) => mayHold(raw, bits);
    if (cost === 1) return (raw) => ws.some((mark) => raw.indexOf(mark) >= 0);
    const words = new RegExp(ws.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
    return (raw) => words.test(raw);
  });
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0]!;
  const [a, b] = checks as [(raw: string) => boolean, (raw: string) => boolean];
  return (raw) => a(raw) && b(raw);
}

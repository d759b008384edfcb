/**
 * What a categoriser pattern needs, read off the pattern (`npm run gates` writes it to
 * lib/categorise/gates-data.ts, and test/unit/categorise-gates.test.ts checks that the file is what
 * this gives for today's patterns):
 * - `firstWords`: the words a pattern anchored at the line's start can open with (or the mark it opens
 *   with), so a line that opens otherwise is not tried;
 * - `requiredWords`: the words and marks no match can do without, and which of them end a word.
 * A pattern whose words cannot be listed gets no shortcut and is always tried, so a derivation can
 * cost time, never a match. It runs here, at build time, not in the library: reading ~40 patterns
 * took 20-50 ms, too much for a first call in an edge function.
 */
import { type Node, parseSource, Unknown } from './regex-source.js';

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

/**
 * The sets of {@link requiredWords} with, for each, whether all its words end a word of the line (only
 * such a word may be gated by its ending, "ed").
 *
 * @example
 * ```ts
 * requiredSets(/\b(?:asked|asks)\s+if\b/i); // { needs: [['asked', 'asks']], ends: [true] }
 * ```
 */
export function requiredSets(pattern: RegExp): { needs: string[][]; ends: boolean[] } {
  const needs = requiredWords(pattern);
  return { needs, ends: needs.map((ws) => WORD_ENDS.has(ws)) };
}

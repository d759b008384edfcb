/**
 * The shortcuts in front of the categoriser's rules, from what each rule's pattern needs: the words
 * (or the mark) a pattern anchored at the line's start can open with, and the words and marks no
 * match can do without. They are read off the patterns at build time (tools/shared/gate-derive.ts,
 * `npm run gates`), kept in gates-data.ts by each rule's id, and checked against the patterns by a
 * test, so none is written by hand beside a regex. A rule without data is always tried: a shortcut
 * can cost time, never a match. Stale data (a pattern changed, `npm run gates` not run) could turn
 * away a line the new pattern matches: test/unit/categorise-gates.test.ts fails until the file is
 * regenerated.
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import { GATES, type GateData } from './gates-data.js';

export type { GateData } from './gates-data.js';

import { mayHold, needleOf } from './needles.js';

const isLetter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const shortest = (ws: readonly string[]) => Math.min(...ws.map((w) => w.length));

/**
 * @internal What the gates know of a rule, by its id (`undefined` for a rule that has none).
 *
 * @example
 * ```ts
 * gateData('none-apology')?.first; // ['i', 'my', 'apologies', 'sorry']
 * ```
 */
export function gateData(id: string): GateData | undefined {
  return GATES[id];
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
 * @internal A gate for forms anchored at the line's start, from the words each can open with
 * (`GateData.first`; a mark for a line that opens with that character, `''` for any such): bit k set
 * for form k when the line's first word (after white space) is one of its words, every bit for a form
 * without a list and for a line that opens with a character past ASCII (`\s` skips some of those). Up
 * to 31 forms.
 *
 * @example
 * ```ts
 * const gate = firstWordGate([['sorry'], ['step', '-']]);
 * gate('  Step 2: run it'); // 0b10
 * gate('- step 2'); // 0b10
 * ```
 */
export function firstWordGate(
  lists: readonly (readonly string[] | null | undefined)[],
): (raw: string) => number {
  const byWord = new Map<number, number>();
  // Bits by the ASCII character that opens a line when it is no letter; `anyOther` for any such.
  const byChar = new Int32Array(128);
  let anyOther = 0;
  let always = 0;
  lists.forEach((words, k) => {
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
  const all = (1 << lists.length) - 1;
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

/** Sets a gate reads at most: the first ones the pattern needs, best first. */
const MAX_GATE_SETS = 2;

/**
 * @internal The gate of what a pattern needs (`GateData.needs`): whether a line holds one word or mark
 * of each set (the best two), so that a line without them is not tried. A set whose words each hold a needle
 * (needles.ts) is read from the word table's bits (`mayHold`, no search); any other set by one
 * case-insensitive search of its words and marks (unless `search` is false: a pattern anchored at the
 * line's start fails as fast as the search would). Always true for a pattern that needs nothing.
 *
 * @example
 * ```ts
 * const gate = requiredGate({ first: null, needs: [['should'], ['probably']], ends: [true, true] });
 * gate('We should probably drop it'); // true
 * gate('We should drop it'); // false
 * ```
 */
export function requiredGate(data: GateData | undefined, { search = true } = {}): (raw: string) => boolean {
  const sets = (data?.needs ?? [])
    .map((ws, k) => {
      const ends = data!.ends[k]!;
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

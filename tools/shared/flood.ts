/**
 * Words made to share an FNV-1a hash, as an attacker would make them: from one hash state, two
 * different 8-letter blocks that lead to the same next state (a birthday search over random blocks),
 * chained `m` times, give 2^m distinct words whose hashes agree in the low `bits` bits (all 32 for a
 * full collision). The snapshot's tables hash words, terms and keys with FNV-1a (vocab.ts, lsh.ts).
 */
import { FNV_OFFSET, FNV_PRIME } from '../../lib/core/index';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** FNV-1a of `s` continued from state `h` (int32). */
export function fnvFrom(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a of `s` (int32), as `Vocabulary` hashes a lower-case word. */
export const fnv = (s: string): number => fnvFrom(FNV_OFFSET | 0, s);

/** A small deterministic generator of letters (no Math.random: the same words on every run). */
function letters(seed: number): () => string {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return LETTERS[(x >>> 16) % 26]!;
  };
}

/** 2^m distinct lower-case words of 8·m letters whose FNV-1a hashes agree in their low `bits` bits. */
export function collidingWords(m: number, bits = 32, seed = 1): string[] {
  const next = letters(seed);
  const mask = bits >= 32 ? -1 : (1 << bits) - 1;
  let h = FNV_OFFSET | 0;
  const pairs: [string, string][] = [];
  for (let k = 0; k < m; k++) {
    const seen = new Map<number, string>();
    for (;;) {
      let b = '';
      for (let j = 0; j < 8; j++) b += next();
      const x = fnvFrom(h, b);
      const o = seen.get(x & mask);
      if (o !== undefined && o !== b && (bits < 32 || fnvFrom(h, o) === x)) {
        pairs.push([o, b]);
        // Both blocks lead on from their own state; for a partial collision the low bits agree, which
        // is all the next block's low bits depend on.
        h = x;
        break;
      }
      seen.set(x & mask, b);
    }
  }
  const out: string[] = [];
  for (let pick = 0; pick < 1 << m; pick++) {
    let w = '';
    for (let k = 0; k < m; k++) w += pairs[k]![(pick >> k) & 1];
    out.push(w);
  }
  return out;
}

/** As many random lower-case words of the same lengths (the control: no shared hash). */
export function randomWords(like: readonly string[], seed = 2): string[] {
  const next = letters(seed);
  return like.map((w) => {
    let s = '';
    for (let i = 0; i < w.length; i++) s += next();
    return s;
  });
}

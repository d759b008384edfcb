/**
 * Hints that spare the classifier's substring searches. Its forms each run behind a native
 * `indexOf` gate ("should", "ask", "seem"…), and a 10k-entry snapshot asks about a dozen of them per
 * distinct text, nearly always in vain. The words of an ASCII text are already interned in the
 * snapshot's vocabulary, each with the needles its lower-cased spelling holds (computed once per
 * word), so `classifyFlags` can say which needles a text cannot hold before the forms look.
 *
 * A needle of letters only lies inside one run of letters, so inside one word: a needle none of the
 * words holds (in any case) is in no case in the text, and the search it gates would fail. A hint is
 * kept with its text and applies to that text only, so a stale one is never wrong.
 */

/** The needles, bit k for needle k (lower case, as the words are). */
const NEEDLES = [
  'should',
  'would',
  'ask',
  'must',
  'seem',
  'look',
  'appear',
  'probably',
  'ine',
  'ignores',
  'otential',
  'ossible',
  'still',
] as const;

/** @internal Needle bits. */
export const N_SHOULD = 1 << 0;
/** @internal */
export const N_WOULD = 1 << 1;
/** @internal */
export const N_ASK = 1 << 2;
/** @internal */
export const N_MUST = 1 << 3;
/** @internal */
export const N_SEEM = 1 << 4;
/** @internal */
export const N_LOOK = 1 << 5;
/** @internal */
export const N_APPEAR = 1 << 6;
/** @internal */
export const N_PROBABLY = 1 << 7;
/** @internal */
export const N_INE = 1 << 8;
/** @internal */
export const N_IGNORES = 1 << 9;
/** @internal */
export const N_POSSIBLE = (1 << 10) | (1 << 11);
/** @internal */
export const N_STILL = 1 << 12;
/** @internal "ed" then the end of a word, or an apostrophe inside one ("need's"): where `ed\b` can match. */
export const N_ED_END = 1 << 13;
/** @internal Every bit: nothing known. */
export const ALL_NEEDLES = (1 << 14) - 1;

/**
 * @internal The needles a lower-cased word (as `words` gives it) holds.
 *
 * @example
 * ```ts
 * needlesOf("shouldn't") === N_SHOULD; // true
 * needlesOf('tested') === N_ED_END; // true
 * ```
 */
export function needlesOf(word: string): number {
  let bits = 0;
  for (let k = 0; k < NEEDLES.length; k++) if (word.indexOf(NEEDLES[k]!) >= 0) bits |= 1 << k;
  if (word.endsWith('ed') || word.indexOf("ed'") >= 0) bits |= N_ED_END;
  return bits;
}

let hintText = '';
let hintBits = ALL_NEEDLES;

/**
 * @internal Records that `text` holds no needle outside `bits` (the needles of its words).
 *
 * @example
 * ```ts
 * hint('Run the suite', needlesOf('run') | needlesOf('the') | needlesOf('suite'));
 * ```
 */
export function hint(text: string, bits: number): void {
  hintText = text;
  hintBits = bits;
}

/**
 * @internal Whether `text` may hold one of the needles `bits`: false only when the hint is for this
 * text and rules them all out. A search it gates runs as before otherwise.
 *
 * @example
 * ```ts
 * if (mayHold(raw, N_SHOULD) && raw.indexOf('should') > 0) … ;
 * ```
 */
export function mayHold(text: string, bits: number): boolean {
  return (hintBits & bits) !== 0 || hintText !== text;
}

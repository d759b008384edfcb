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

/** Bit of a needle: its place in {@link NEEDLES}, so the list alone decides the bits. */
const bit = (needle: (typeof NEEDLES)[number]): number => 1 << NEEDLES.indexOf(needle);

/** @internal Needle bits. */
export const N_SHOULD = bit('should');
/** @internal */
export const N_WOULD = bit('would');
/** @internal */
export const N_ASK = bit('ask');
/** @internal */
export const N_MUST = bit('must');
/** @internal */
export const N_SEEM = bit('seem');
/** @internal */
export const N_LOOK = bit('look');
/** @internal */
export const N_APPEAR = bit('appear');
/** @internal */
export const N_PROBABLY = bit('probably');
/** @internal */
export const N_INE = bit('ine');
/** @internal */
export const N_IGNORES = bit('ignores');
/** @internal "potential" or "possible". */
export const N_POSSIBLE = bit('otential') | bit('ossible');
/** @internal */
export const N_STILL = bit('still');
/** @internal "ed" then the end of a word, or an apostrophe inside one ("need's"): where `ed\b` can match. */
export const N_ED_END = 1 << NEEDLES.length;
/** @internal Every bit: nothing known. */
export const ALL_NEEDLES = (N_ED_END << 1) - 1;

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

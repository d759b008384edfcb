/**
 * Hints that spare the classifier's searches. Its rules each run behind a gate read off their
 * patterns (gates.ts): the words a pattern cannot match without, checked here, by bit, for the needles
 * inside them. A 10k-entry snapshot asks about a dozen of them per distinct text, nearly always in
 * vain. The words of an ASCII text are already interned in the snapshot's vocabulary, each with the
 * needles its lower-cased spelling holds (computed once per word), so a gate can say which needles a
 * text cannot hold before a pattern looks.
 *
 * A needle of letters only lies inside one run of letters, so inside one word: a needle none of the
 * words holds (in any case) is in no case in the text, and the search it gates would fail. A hint is
 * kept with its text and applies to that text only, so a stale one is never wrong. The needles are
 * the words (or parts of words) the rules need most often; a rule that needs a word holding none of
 * them is gated by a search instead.
 */

/** The needles, bit k for needle k (lower case, as the words are); bit 13 for a word ending in "ed". */
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

/** "ed" then the end of a word, or an apostrophe inside one ("need's"): where `ed\b` can match. */
const N_ED_END = 1 << NEEDLES.length;
/** Every bit: nothing known. */
const ALL_NEEDLES = (N_ED_END << 1) - 1;

/**
 * @internal The needles a lower-cased word (as `words` gives it) holds. With `ends` false, the word is
 * a run of letters that may go on in the text (a pattern's `declared[a-z]*`): its ending in "ed" says
 * nothing then, and only the needles inside it count.
 *
 * @example
 * ```ts
 * needlesOf("shouldn't") === needlesOf('should'); // true: the bit of "should"
 * needlesOf('tested') !== 0; // true: a word that ends in "ed"
 * needlesOf('tested', false); // 0
 * ```
 */
export function needlesOf(word: string, ends = true): number {
  let bits = 0;
  for (let k = 0; k < NEEDLES.length; k++) if (word.indexOf(NEEDLES[k]!) >= 0) bits |= 1 << k;
  if (ends && (word.endsWith('ed') || word.indexOf("ed'") >= 0)) bits |= N_ED_END;
  return bits;
}

/**
 * @internal One needle whose presence a line holding `word` guarantees, as its bit: one inside the word
 * when there is one (the rarer kind), else the ending "ed" when `ends` says the word ends there; 0 when
 * the word guarantees none.
 *
 * @example
 * ```ts
 * needleOf('asked') === needleOf('ask'); // true: "ask", not the ending
 * needleOf('declared') !== 0; // true: the ending "ed"
 * needleOf('declared', false); // 0
 * ```
 */
export function needleOf(word: string, ends = true): number {
  const bits = needlesOf(word, ends);
  const inside = bits & ~N_ED_END;
  return inside !== 0 ? inside & -inside : bits;
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
 * @internal Whether `text` may hold one of the needles `bits`. The hint for `text` answers when there
 * is one (the snapshot leaves it for every ASCII text it reads); otherwise the text's needles are found
 * once, from its lower-cased spelling, and kept as its hint, so the next gate on the same text is free.
 *
 * @example
 * ```ts
 * if (mayHold(raw, needlesOf('should')) && PATTERN.test(raw)) … ;
 * ```
 */
export function mayHold(text: string, bits: number): boolean {
  if (hintText !== text) hint(text, needlesOfText(text));
  return (hintBits & bits) !== 0;
}

/**
 * "ed" that ends a word: what follows is no letter or digit (an apostrophe inside a word, "need's", is
 * no letter either, so that case is in too). Read on a lower-cased text.
 */
const ED_END = /ed(?![a-z0-9])/;

/** The needles of a text of any script, by its lower-cased spelling: a bit wherever `needlesOf` of its words would set one. */
function needlesOfText(text: string): number {
  const lower = text.toLowerCase();
  let bits = 0;
  for (let k = 0; k < NEEDLES.length; k++) if (lower.indexOf(NEEDLES[k]!) >= 0) bits |= 1 << k;
  return ED_END.test(lower) ? bits | N_ED_END : bits;
}

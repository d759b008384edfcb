/**
 * The discourse words an entry may open with before what it says ("So, …", "But wait, …", "OK, …"),
 * shared by the anchored forms of `forms.ts`, `located.ts` and `stance.ts`, which each had a list of
 * their own that differed by a word or two for no reason (moving them to this one list changed no
 * category of the 8,784 pool texts). Four forms keep their own openers, as part of what they mean:
 * "No, that's not right" (`NOT_RIGHT`), "Here, my actual output is …" (`QUOTED_OUTPUT`), "Now back
 * to …" (`BACK_TO`) and praise (`PRAISE`, no opener at all).
 */

/**
 * @internal The opening words: {@link OPENERS} is built from them, and gates that look at a line's
 * first word before running a form built with {@link opened} (`stance.ts`) use them as they are.
 *
 * @example
 * ```ts
 * OPENER_WORDS.includes('wait'); // true
 * ```
 */
export const OPENER_WORDS: readonly string[] = [
  'so',
  'but',
  'and',
  'also',
  'wait',
  'however',
  'hmm',
  'ok',
  'okay',
  'ah',
  'oh',
  'now',
];

/**
 * @internal Any number of openers, each maybe followed by a comma: a regex source to put after `^\s*`.
 *
 * @example
 * ```ts
 * new RegExp(`^\\s*${OPENERS}done`, 'i').test('OK so, done'); // true
 * ```
 */
export const OPENERS = `(?:(?:${OPENER_WORDS.join('|')}),?\\s+)*`;

/**
 * @internal A case-insensitive regex anchored at the line's start, openers allowed, then `body`.
 *
 * @example
 * ```ts
 * opened(String.raw`it\s+ignores\s`).test('So, it ignores x'); // true
 * ```
 */
// @__NO_SIDE_EFFECTS__
export function opened(body: string): RegExp {
  return new RegExp(String.raw`^\s*` + OPENERS + body, 'i');
}

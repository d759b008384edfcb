/**
 * The markers of eight more languages, loaded on first use: the lists live in `languages.ts`, a chunk of
 * its own, so the entry's eager code stays English-only and small.
 */
import { DEFAULT_MARKERS, type MarkerSet } from './markers.js';
import { type CompiledMarkers, compileMarkers } from './scanner.js';

/**
 * {@link DEFAULT_MARKERS} plus the common corrections, approvals and friction of Spanish, Portuguese,
 * French, German, Russian, Italian, Chinese and Japanese, compiled. The non-English lists load on first call (a separate file,
 * kept out of the entry's eager code); pass the result as `markers`.
 *
 * @example
 * ```ts
 * const markers = await loadLanguageMarkers();
 * heuristicReflect(messages, { markers }); // also reads "no funciona", "не работает", "还是不对", "まだ動かない"
 * ```
 */
export async function loadLanguageMarkers(): Promise<CompiledMarkers> {
  return compileMarkers(await loadLanguageMarkerSet());
}

/**
 * The lists {@link loadLanguageMarkers} compiles, not compiled: `base` (default {@link DEFAULT_MARKERS})
 * with the common corrections, approvals and friction of Spanish, Portuguese, French, German,
 * Russian, Italian, Chinese and Japanese appended to every list, loaded on first call. For lists a person edits (the playground's
 * Tune panel) or extends; pass the result, or your lists built on it, as `markers`.
 *
 * @example
 * ```ts
 * const lists = await loadLanguageMarkerSet();
 * lists.correction.includes('no funciona'); // true
 * heuristicReflect(messages, { markers: { ...lists, friction: [...lists.friction, 'ffs'] } });
 * ```
 */
export async function loadLanguageMarkerSet(base: MarkerSet = DEFAULT_MARKERS): Promise<MarkerSet> {
  const { withLanguages } = await import('./languages.js');
  return withLanguages(base);
}

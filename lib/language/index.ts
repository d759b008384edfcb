/**
 * `rearview/language`: which language a person's turn is written in, as far as the readers of
 * `rearview/heuristic` care (English, or one of the eight languages `loadLanguageMarkers` adds), so
 * that a tool can say when a session needs those markers. Pure functions, no dependency, about 1 KB.
 *
 * @module
 */
export {
  guessLanguage,
  LANGUAGE_NAMES,
  nameLanguages,
  OTHER_LANGUAGES,
  type OtherLanguage,
  type OtherLanguages,
  otherLanguages,
  rankLanguages,
} from './guess.js';

/**
 * Token estimation without a tokenizer: no WASM, no vocabulary download, no dependency.
 *
 * `estimateTokens` makes one pass over the UTF-16 code units and mimics the pre-tokenizer of modern
 * byte-pair encoders (o200k_base, cl100k_base): it cuts the text into the same kind of pieces (words
 * split at lower→upper case changes, a single punctuation mark glued to the word after it, digit
 * groups of at most three, punctuation runs that swallow the newlines after them, indentation, CJK,
 * emoji), counts the pieces per class and weighs the counts with coefficients fitted on real agent
 * transcripts against gpt-tokenizer's o200k_base (`npx tsx bench/calibrate-tokens.ts --fit`).
 *
 * Measured against o200k_base (gpt-tokenizer 4.0.0) with `npx tsx bench/calibrate-tokens.ts` on the
 * real transcripts of `../shared/data`, each cut per message and into fixed 4 KB chunks. Relative
 * error is (estimate − exact) / exact; "mean" (of the absolute error) and "worst" are over chunks of
 * at least 200 tokens, "total" is the error of the summed count:
 *
 *   data set              chunks per message / 4 KB   mean          worst          total
 *   claude-code-console   733 / 553                   3.4% / 2.9%   +34% / +16%    −1.6% / −1.6%
 *   claude-code-jsonl     200 / 312                   3.6% / 2.4%   −26% / −19%     0.0% /  0.0%
 *   mini-swe-agent        432 / 598                   4.5% / 4.1%   −27% / −22%    −2.6% / −2.7%
 *   swe-agent             229 / 230                   4.7% / 3.1%   −50% / +13%    +0.2% /  0.0%
 *   sharegpt              793 / 456                   3.6% / 3.0%   −43% / −19%    +1.3% / +1.4%
 *
 * Over every non-empty message, tiny ones included, the mean error is 5–8%. The worst cases are
 * text the vocabulary handles unusually well or badly: long box-drawing rules, cipher text, rare
 * scripts, Slavic languages. CJK, emoji and non-English words are almost absent from the data, so
 * their weights are set by hand from a few probe sentences (Chinese and Japanese prose land within
 * about 10%, short snippets within 30%).
 *
 * It is an estimate: use it for budgets and thresholds, and plug an exact counter into
 * {@link countTokens} (or any option that takes a {@link TokenCounter}) when the count must be exact.
 */

/**
 * Counts the tokens of a text, exactly (a real tokenizer, a provider's count endpoint) or not.
 * May be synchronous or asynchronous. Wherever rearview lets token counts drive a decision, it
 * accepts one of these and falls back to {@link estimateTokens} when none is given.
 *
 * @example
 * ```ts
 * import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
 * const exact: TokenCounter = (text) => o200k(text);
 * const remote: TokenCounter = async (text) => (await api.countTokens(text)).tokens;
 * ```
 */
export type TokenCounter = (text: string) => number | Promise<number>;

// Character classes. The four letter classes come first so `cls <= XOTHER` means "letter", and
// everything from PUNCT on joins punctuation runs.
const LOWER = 0;
const UPPER = 1;
const XLATIN = 2; // accented and extended Latin letters, combining marks
const XOTHER = 3; // letters of widely used scripts: Greek, Cyrillic, Hebrew, Arabic, Indic, Thai…
const DIGIT = 4;
const SPACE = 5;
const NEWLINE = 6;
const CJK = 7; // Han, kana, Hangul, CJK punctuation, fullwidth forms
const RARE = 8; // scripts the vocabulary barely knows (CJK extension A, Yi, Mongolian…): bytes
const PUNCT = 9; // ASCII punctuation, symbols and control characters
const XSYM = 10; // non-ASCII symbols and punctuation in the BMP (box drawing, arrows, ⏺, …)
const HIGH = 11; // high surrogate: an astral character (emoji…) when a low surrogate follows
const LOW = 12; // lone low surrogate

/**
 * Names of the feature slots counted by {@link tokenFeatures}, in the order of {@link TOKEN_WEIGHTS}.
 * Exposed for the calibration script.
 *
 * @example
 * ```ts
 * const f = tokenFeatures('Hello, world!');
 * TOKEN_FEATURES.filter((_, i) => f[i]); // ['word5', 'bareWord', 'punct1']: Hello and world, 1, , and !
 * ```
 * @internal
 */
export const TOKEN_FEATURES = [
  'word1',
  'word2',
  'word3',
  'word4',
  'word5',
  'word6',
  'word7',
  'word8',
  'word9',
  'word10',
  'word11',
  'word12',
  'word13',
  'word14',
  'word15plus',
  'wordCharsOver14',
  'capsWord',
  'capsChars',
  'punctPrefixedShortWord',
  'punctPrefixedLongWord',
  'bareWord',
  'afterDigitsCharsOver2',
  'intlWord',
  'intlWordChars',
  'digitGroups',
  'punct1',
  'punct2',
  'punct3',
  'punct4plus',
  'punctCharsOver4',
  'repeatSeqs',
  'repeatChars',
  'symbolRepeatChars',
  'spacePrefixedPunct',
  'punctNewlines',
  'symbolChars',
  'emoji',
  'spacePieces',
  'spaceChars',
  'newlinePieces',
  'newlineChars',
  'cjkChars',
  'rareChars',
] as const;

const F_WORD = 0; // word1 … word14 are slots 0 … 13
const F_WORD15 = 14;
const F_WORD_OVER14 = 15;
const F_CAPS = 16;
const F_CAPS_CHARS = 17;
const F_PREFIXED_SHORT = 18;
const F_PREFIXED_LONG = 19;
const F_BARE = 20;
const F_AFTER_DIGITS = 21;
const F_INTL = 22;
const F_INTL_CHARS = 23;
const F_DIGITS = 24;
const F_PUNCT = 25; // punct1 … punct4plus are slots 25 … 28
const F_PUNCT_OVER4 = 29;
const F_REPEAT_SEQS = 30;
const F_REPEAT_CHARS = 31;
const F_SYMBOL_REPEAT_CHARS = 32;
const F_SPACE_PUNCT = 33;
const F_PUNCT_NL = 34;
const F_SYMBOL = 35;
const F_EMOJI = 36;
const F_SPACE_PIECES = 37;
const F_SPACE_CHARS = 38;
const F_NL_PIECES = 39;
const F_NL_CHARS = 40;
const F_CJK = 41;
const F_RARE = 42;
const FEATURE_COUNT = 43;

/**
 * Weight of each feature of {@link TOKEN_FEATURES} in thousandths of a token: integers, so every
 * runtime computes the identical sum. Fitted by `npx tsx bench/calibrate-tokens.ts --fit` (word1 …
 * word14 measured word by word, the rest fitted on whole chunks), except wordCharsOver14, word15plus,
 * intlWord, emoji, cjkChars and rareChars, which the data is too thin to fit and are set by hand.
 *
 * @example
 * ```ts
 * TOKEN_WEIGHTS[TOKEN_FEATURES.indexOf('digitGroups')]; // 1109: a group of ≤ 3 digits ≈ 1.1 tokens
 * ```
 * @internal
 */
export const TOKEN_WEIGHTS: readonly number[] = [
  // WEIGHTS-BEGIN
  1000, 1000, 1005, 1023, 1030, 1053, 1066, 1103, 1146, 1190, 1190, 1190, 1215, 1215, 1500, 500, 850, 66, 45,
  489, 371, 1000, 600, 81, 1109, 855, 562, 489, 1505, 506, 411, 88, 252, 209, 0, 821, 1300, 812, 0, 1350, 0,
  750,
  2500,
  // WEIGHTS-END
];

/** Classes of the 128 ASCII code units, so the hot path is one table load. */
const ASCII_CLASSES: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(128).fill(PUNCT);
  for (let c = 0x61; c <= 0x7a; c++) table[c] = LOWER;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = UPPER;
  for (let c = 0x30; c <= 0x39; c++) table[c] = DIGIT;
  table[0x20] = SPACE;
  table[0x09] = SPACE;
  table[0x0b] = SPACE;
  table[0x0c] = SPACE;
  table[0x0a] = NEWLINE;
  table[0x0d] = NEWLINE;
  return table;
})();

function classOf(c: number): number {
  return c < 0x80 ? ASCII_CLASSES[c]! : classOfNonAscii(c);
}

function classOfNonAscii(c: number): number {
  if (c < 0x2000) {
    if (c < 0xc0) return c === 0xa0 ? SPACE : XSYM;
    if (c < 0x370) return c === 0xd7 || c === 0xf7 ? XSYM : XLATIN;
    if (c < 0x0f00) return c < 0x0700 || c >= 0x0900 ? XOTHER : RARE;
    if (c < 0x1200) return c < 0x1000 ? RARE : c < 0x1100 ? XOTHER : CJK;
    if (c < 0x1e00) return c === 0x1680 ? SPACE : RARE;
    return XLATIN;
  }
  if (c < 0x3000) {
    if (c <= 0x200a || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f) return SPACE;
    if (c < 0x2c00) return XSYM;
    if (c < 0x2e00) return RARE;
    return c < 0x2e80 ? XSYM : CJK;
  }
  if (c < 0xd800) {
    if (c < 0x3040) return c === 0x3000 ? SPACE : CJK;
    if (c < 0x3400 || (c >= 0x4e00 && c < 0xa000) || c >= 0xac00) return CJK;
    return RARE;
  }
  if (c < 0xe000) return c < 0xdc00 ? HIGH : LOW;
  if (c < 0xf900) return RARE;
  if (c < 0xfb00) return CJK;
  if (c < 0xfe00) return XOTHER;
  if (c < 0xfe70) return XSYM;
  if (c < 0xff00) return c === 0xfeff ? SPACE : XOTHER;
  if (c < 0xfff0) return CJK;
  return XSYM;
}

function addWord(f: Float64Array, len: number, upper: number, intl: boolean, prefix: number): void {
  if (intl) {
    f[F_INTL]!++;
    f[F_INTL_CHARS]! += len;
  } else if (upper === len && len > 1) {
    f[F_CAPS]!++;
    f[F_CAPS_CHARS]! += len;
  } else if (len <= 14) f[F_WORD + len - 1]!++;
  else {
    f[F_WORD15]!++;
    f[F_WORD_OVER14]! += len - 14;
  }
  if (prefix === 1) f[len <= 3 ? F_PREFIXED_SHORT : F_PREFIXED_LONG]!++;
  else if (prefix === 2) f[F_BARE]!++;
  else if (prefix === 3 && len > 2) f[F_AFTER_DIGITS]! += len - 2;
}

function addSpaces(f: Float64Array, len: number): void {
  f[F_SPACE_PIECES]!++;
  f[F_SPACE_CHARS]! += len;
}

/**
 * Counts the pieces of `text` per class into a fresh vector laid out as {@link TOKEN_FEATURES}.
 * One pass, no allocation besides the returned vector. Exposed for the calibration script.
 *
 * @example
 * ```ts
 * const f = tokenFeatures('if (x) {\n  return 42;\n}');
 * f[TOKEN_FEATURES.indexOf('digitGroups')]; // 1
 * ```
 * @internal
 */
export function tokenFeatures(text: string): Float64Array {
  const f = new Float64Array(FEATURE_COUNT);
  const n = text.length;
  let i = 0;
  let k = n > 0 ? classOf(text.charCodeAt(0)) : 0;
  // The whitespace run before this piece gave it its last space (` foo`, ` (`).
  let spacePrefix = false;
  // A lone punctuation mark was glued to the word that starts here (`.foo`, `_bar`).
  let punctPrefix = false;
  while (i < n) {
    if (k <= XOTHER) {
      // A word; `camelCase` splits into `camel` + `Case`, `HTTPServer` stays whole. Letters right after
      // digits are mostly hashes and ids (`3f9a`), which the vocabulary knows badly.
      const before = i > 0 ? text.charCodeAt(i - 1) : 0;
      let prefix = punctPrefix ? 1 : spacePrefix ? 0 : before >= 0x30 && before <= 0x39 ? 3 : 2;
      let start = i;
      let upper = 0;
      let intl = false;
      let prevLower = false;
      for (;;) {
        if (k === UPPER) {
          if (prevLower) {
            addWord(f, i - start, upper, intl, prefix);
            prefix = 2;
            start = i;
            upper = 0;
            intl = false;
            prevLower = false;
          }
          upper++;
        } else {
          prevLower = true;
          if (k !== LOWER) intl = true;
        }
        // Fast path: the rest of a run of ASCII lower-case letters.
        let c = 0;
        while (++i < n) {
          c = text.charCodeAt(i);
          if (c < 0x61 || c > 0x7a) break;
          prevLower = true;
        }
        if (i >= n) break;
        k = classOf(c);
        if (k > XOTHER) break;
      }
      const len = i - start;
      addWord(f, len, upper, intl, prefix);
      spacePrefix = false;
      punctPrefix = false;
    } else if (k === DIGIT) {
      const start = i;
      let c = 0;
      while (++i < n) {
        c = text.charCodeAt(i);
        if (c < 0x30 || c > 0x39) break;
      }
      if (i < n) k = classOf(c);
      f[F_DIGITS]! += ((i - start + 2) / 3) | 0;
      spacePrefix = false;
    } else if (k === SPACE || k === NEWLINE) {
      // `\s*[\r\n]+` up to the last newline, then spaces whose last one joins the next piece.
      const start = i;
      let afterNewline = -1;
      let newlines = 0;
      for (;;) {
        if (k === NEWLINE) {
          newlines++;
          afterNewline = i + 1;
        }
        // Fast path: the rest of a run of plain spaces (indentation).
        let c = 0;
        while (++i < n) {
          c = text.charCodeAt(i);
          if (c !== 0x20) break;
        }
        if (i >= n) break;
        k = classOf(c);
        if (k !== SPACE && k !== NEWLINE) break;
      }
      if (newlines > 0) {
        f[F_NL_PIECES]!++;
        f[F_NL_CHARS]! += newlines;
      }
      const trailing = i - (newlines > 0 ? afterNewline : start);
      if (trailing > 0) {
        if (i >= n) addSpaces(f, trailing);
        else {
          if (trailing > 1) addSpaces(f, trailing - 1);
          // Digits take no prefix: the last space stands alone.
          if (k === DIGIT) addSpaces(f, 1);
          else spacePrefix = true;
        }
      }
    } else if (k === CJK || k === RARE) {
      f[k === CJK ? F_CJK : F_RARE]!++;
      if (++i < n) k = classOf(text.charCodeAt(i));
      spacePrefix = false;
    } else {
      // Punctuation and symbols, emoji included. Repeats (`----`, `────`) merge cheaply; astral
      // characters (emoji…) are counted on their own and not as part of the run's length.
      const start = i;
      let len = 0;
      let symbols = 0;
      let prev = -1;
      let repeating = false;
      for (;;) {
        let c = text.charCodeAt(i);
        if (k === HIGH && i + 1 < n) {
          const d = text.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
          }
        }
        if (c > 0xffff) {
          f[c >= 0x1f000 && c < 0x1fb00 ? F_EMOJI : F_RARE]!++;
          repeating = false;
        } else if (c === prev) {
          if (!repeating) f[F_REPEAT_SEQS]!++;
          f[c < 0x80 ? F_REPEAT_CHARS : F_SYMBOL_REPEAT_CHARS]!++;
          repeating = true;
        } else {
          len++;
          repeating = false;
          if (k !== PUNCT) symbols++;
        }
        prev = c;
        if (++i >= n) break;
        k = classOf(text.charCodeAt(i));
        if (k < PUNCT) break;
      }
      f[F_SYMBOL]! += symbols;
      if (i - start === 1 && !spacePrefix && i < n && k <= XOTHER) {
        // `[^\r\n\p{L}\p{N}]?` in front of a word: one mark joins the word's piece.
        punctPrefix = true;
      } else {
        if (len > 0) {
          if (len <= 4) f[F_PUNCT + len - 1]!++;
          else {
            f[F_PUNCT + 3]!++;
            f[F_PUNCT_OVER4]! += len - 4;
          }
          if (spacePrefix) f[F_SPACE_PUNCT]!++;
        }
        // `[\r\n/]*`: the newlines right after a punctuation run belong to it.
        while (k === NEWLINE) {
          f[F_PUNCT_NL]!++;
          if (++i >= n) break;
          k = classOf(text.charCodeAt(i));
        }
      }
      spacePrefix = false;
    }
  }
  return f;
}

/**
 * Estimates how many tokens `text` takes for a modern BPE tokenizer. Calibrated on o200k_base
 * (GPT-4o and later); other vocabularies, Claude's included, count somewhat differently, so treat it
 * as an approximation of any model's count and pass an exact {@link TokenCounter} where it matters.
 *
 * One linear pass, no allocation per character, no dependency, identical integer result in every
 * runtime. Returns 0 for the empty string and for anything that is not a string; never throws.
 * See the module comment for the measured error.
 *
 * @example
 * ```ts
 * estimateTokens('');                           // 0
 * estimateTokens('Hello, world!');              // 4
 * estimateTokens('const answer = 42;\n');       // 6
 * if (estimateTokens(transcript) > 100_000) compact(transcript);
 * ```
 */
export function estimateTokens(text: string): number {
  if (typeof text !== 'string' || text.length === 0) return 0;
  const f = tokenFeatures(text);
  let milli = 0;
  for (let j = 0; j < FEATURE_COUNT; j++) milli += f[j]! * TOKEN_WEIGHTS[j]!;
  const tokens = Math.round(milli / 1000);
  return tokens > 0 ? tokens : 1;
}

/**
 * Counts the tokens of `text` with `counter` when one is given, else with {@link estimateTokens}.
 * This is the seam for exact counts: pass a real tokenizer (or a provider's count endpoint) wherever
 * a token count decides something, such as a budget or a compaction threshold.
 *
 * The counter's answer is used as is when it is a finite number ≥ 0 (rounded to an integer);
 * anything else (NaN, a negative number, not a number) falls back to the estimate. Errors thrown or
 * rejected by the counter propagate, so a broken counter is noticed rather than silently replaced.
 *
 * @example
 * ```ts
 * import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
 *
 * await countTokens('Hello, world!');                  // 4, estimated
 * await countTokens('Hello, world!', (t) => o200k(t)); // 4, exact
 *
 * // Or a provider's count endpoint, asynchronously:
 * const viaApi: TokenCounter = async (t) =>
 *   (await client.messages.countTokens({ model, messages: [{ role: 'user', content: t }] })).input_tokens;
 * await countTokens(prompt, viaApi);
 * ```
 */
export async function countTokens(text: string, counter?: TokenCounter): Promise<number> {
  if (typeof counter === 'function') {
    const counted = await counter(text);
    if (typeof counted === 'number' && counted >= 0 && counted !== Number.POSITIVE_INFINITY) {
      return Math.round(counted);
    }
  }
  return estimateTokens(text);
}

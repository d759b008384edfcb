/**
 * Text helpers that behave exactly like the Python the reference design was written in: `str.split()`,
 * `re.sub(r"\s+", " ", t).strip()`, `str.lower()` and `re.sub(r"[^\w\s]+", " ", t)`, so summaries,
 * prompts and token counts are byte-identical to Python's and to every JavaScript runtime.
 */

/**
 * Python's whitespace (`str.isspace()`, and `\s` in a `str` pattern). JavaScript's `\s` differs: it
 * includes U+FEFF and lacks U+001C–U+001F and U+0085, so it is spelled out.
 */
const WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const WS_RUN = /* @__PURE__ */ new RegExp(`[${WS}]+`, 'gu');
const WS_ONLY = /* @__PURE__ */ new RegExp(`^[${WS}]*$`, 'u');
/** Python's `[^\w\s]+`: `\w` is letters, numbers (Nd, Nl, No) and `_`. */
const NON_WORD_RUN = /* @__PURE__ */ new RegExp(`[^\\p{L}\\p{N}_${WS}]+`, 'gu');

/**
 * Python's `str.split()`: the non-empty runs between whitespace.
 *
 * @example
 * ```ts
 * splitWhitespace('  a\tb\u0085c '); // ['a', 'b', 'c']
 * ```
 */
export function splitWhitespace(text: string): string[] {
  return text.split(WS_RUN).filter((t) => t !== '');
}

/** True when `text` is empty or only whitespace (Python's `not text.strip()`). */
export function isBlank(text: string): boolean {
  return WS_ONLY.test(text);
}

/**
 * Collapses whitespace runs to one space and trims (`keepPunct`); otherwise also lowercases and
 * replaces every run of characters that are neither word characters nor whitespace by a space.
 *
 * @example
 * ```ts
 * normalizeText('Hello,  World!'); // 'hello world'
 * normalizeText('Hello,  World!', { keepPunct: true }); // 'Hello, World!'
 * ```
 */
export function normalizeText(text: string, options: { keepPunct?: boolean } = {}): string {
  if (!text) return '';
  const collapsed = splitWhitespace(text).join(' ');
  if (options.keepPunct) return collapsed;
  return splitWhitespace(collapsed.toLowerCase().replace(NON_WORD_RUN, ' ')).join(' ');
}

/**
 * The first `maxTokens` whitespace tokens of `text`, joined by single spaces; `''` when `maxTokens`
 * is 0 or less.
 *
 * @example
 * ```ts
 * truncateTokens('a b c d', 2); // 'a b'
 * ```
 */
export function truncateTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0 || !text) return '';
  return splitWhitespace(text).slice(0, maxTokens).join(' ');
}

/**
 * Number of whitespace tokens (Python's `len(text.split())`).
 *
 * @example
 * ```ts
 * countWhitespaceTokens('  a b\tc\n'); // 3
 * countWhitespaceTokens(''); // 0
 * ```
 */
export function countWhitespaceTokens(text: string): number {
  return splitWhitespace(text).length;
}

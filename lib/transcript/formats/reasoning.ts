/**
 * A reasoning model's thoughts written as text, in one place for every reader: the tags that open
 * them (`<think>`, `<thinking>`, aider's `<thinking-content-<hex>>`) and the closing tag each needs.
 * Line readers (aider, SpecStory) ask {@link reasoningClose} of a line; the message converter asks
 * {@link leadingReasoningEnd} of a whole reply. A model whose chat template opens the block itself
 * (DeepSeek-R1's distills) writes only its end: {@link LONE_CLOSE} is that line. Only the aider reader
 * reads it so far (the one format whose shared histories show it).
 */

/**
 * A line that only closes a `<think>` or `<thinking>` block (spaces around it allowed): with no opening
 * tag before it, what came before it was the reasoning. `new RegExp(LONE_CLOSE.source, 'm')` finds one
 * inside a text.
 *
 * @example
 * ```ts
 * LONE_CLOSE.test('</think>'); // true
 * LONE_CLOSE.test('the </think> tag'); // false
 * ```
 */
export const LONE_CLOSE = /^[ \t]*<\/think(?:ing)?>[ \t]*$/;

/** aider's wrapper: `<thinking-content-` then a hex digest and `>`. */
const THINKING_CONTENT = /^<thinking-content-[0-9a-f]{1,64}>/;

/**
 * The closing tag of the reasoning block `text` opens (after leading whitespace), or undefined when
 * it opens none.
 *
 * @example
 * ```ts
 * reasoningClose('<think>'); // '</think>'
 * reasoningClose('<thinking-content-7bbe>'); // '</thinking-content-'
 * reasoningClose('The <think> tag'); // undefined
 * ```
 */
export function reasoningClose(text: string): string | undefined {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++;
  if (text.charCodeAt(i) !== 0x3c || !text.startsWith('<think', i)) return undefined; // one check for most lines
  if (text.startsWith('<think>', i)) return '</think>';
  if (text.startsWith('<thinking>', i)) return '</thinking>';
  return THINKING_CONTENT.test(text.slice(i, i + 90)) ? '</thinking-content-' : undefined;
}

/**
 * Where the reply after a leading reasoning block starts (past its closing tag and the spaces after
 * it), or -1 when `text` opens with none or never closes it. One `indexOf`: linear.
 *
 * @example
 * ```ts
 * leadingReasoningEnd('<think>plan</think>\n\nHello'); // 21
 * leadingReasoningEnd('<think>cut off'); // -1
 * ```
 */
export function leadingReasoningEnd(text: string): number {
  const close = reasoningClose(text);
  if (close === undefined) return -1;
  const at = text.indexOf(close, text.indexOf('>') + 1);
  if (at < 0) return -1;
  const gt = text.indexOf('>', at + close.length - 1);
  if (gt < 0) return -1;
  let end = gt + 1;
  while (end < text.length && text.charCodeAt(end) <= 0x20) end++;
  return end;
}

/**
 * A reasoning model's thoughts written as text, in one place for every reader: the tags that open
 * them (`<think>`, `<thinking>`, aider's `<thinking-content-<hex>>`) and the closing tag each needs.
 * Line readers (aider, SpecStory) ask {@link reasoningClose} of a line; the message converter asks
 * {@link leadingReasoningEnd} of a whole reply.
 */

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

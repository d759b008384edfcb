/**
 * Message helpers shared by the heuristics and the session facade: the text of a message's content
 * and its default trace reference.
 *
 * @module
 */

/**
 * The text of a message's content: a string, or the text blocks of an Anthropic-style block array.
 *
 * @example
 * ```ts
 * contentText([{ type: 'text', text: 'a' }, { type: 'tool_use' }, { type: 'text', text: 'b' }]); // 'a\nb'
 * ```
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let text: string | undefined;
  for (const block of content) {
    const t =
      typeof block === 'string'
        ? block
        : block !== null && typeof block === 'object' && (block as { type?: unknown }).type === 'text'
          ? (block as { text?: unknown }).text
          : undefined;
    if (typeof t === 'string') text = text === undefined ? t : `${text}\n${t}`;
  }
  return text;
}

/**
 * The trace reference of a message: `message:{id}`, or `message:m{index}` when it has no string id.
 *
 * @example
 * ```ts
 * defaultRef({ role: 'user', content: 'hi' }, 3); // 'message:m3'
 * ```
 */
export function defaultRef(message: { id?: unknown }, index: number): string {
  const id = (message as { id?: unknown }).id;
  return `message:${typeof id === 'string' && id !== '' ? id : `m${index}`}`;
}

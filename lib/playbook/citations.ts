/**
 * Citation extraction: which key points the assistant said it used.
 *
 * @module
 */

/**
 * The citation pattern, `\[((?:pat|mis|pref|ctx|oth)-\d+|kpt_\d+)\]`: a bracketed section id
 * (`[pat-001]`) or legacy id (`[kpt_001]`); group 1 is the id without brackets. A fresh RegExp is
 * made per call, so its `lastIndex` is never shared.
 *
 * @example
 * ```ts
 * new RegExp(CITATION_PATTERN, 'g').exec('see [mis-002]')?.[1]; // 'mis-002'
 * ```
 */
export const CITATION_PATTERN = String.raw`\[((?:pat|mis|pref|ctx|oth)-\d+|kpt_\d+)\]`;

/** A message as extract sees it: a role and string content or an array of content blocks. */
export interface CitableMessage {
  role: string;
  content: unknown;
}

/**
 * The key point ids cited in assistant messages: only `role === 'assistant'`
 * is scanned — user messages are echoes from the human, not the model's reasoning —, each id appears
 * once, in order of first citation. Content may be a string or an array of content
 * blocks whose `text` is scanned (Anthropic format). Anything malformed is ignored; never throws.
 *
 * @example
 * ```ts
 * extractCitedIds([
 *   { role: 'user', content: 'What about [pat-003]?' },
 *   { role: 'assistant', content: 'Based on [pat-001] and [mis-002]… again [pat-001]' },
 * ]); // ['pat-001', 'mis-002']
 * ```
 */
export function extractCitedIds(messages: readonly CitableMessage[]): string[] {
  const seen = new Set<string>();
  if (!Array.isArray(messages)) return [];
  const re = new RegExp(CITATION_PATTERN, 'g');
  const scan = (text: unknown) => {
    if (typeof text !== 'string' || text.indexOf('[') < 0) return;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) seen.add(m[1]!);
  };
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || message.role !== 'assistant') continue;
    const content = message.content;
    if (typeof content === 'string') scan(content);
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (typeof block === 'string') scan(block);
        else if (typeof block === 'object' && block !== null) scan((block as { text?: unknown }).text);
      }
    }
  }
  return [...seen];
}

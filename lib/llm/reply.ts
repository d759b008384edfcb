/**
 * A model client's reply read defensively: callers pass their own `LlmClient`, whose reply may not
 * have the documented shape, and the reducers must turn that into a typed error, never a TypeError.
 */
import { describeKind, isObject, LlmError } from '../core/index.js';
import type { LlmUsage } from './types.js';

/**
 * The text (required) and whatever usage figures a model client's reply gives; throws
 * `LlmError('llm_invalid_response')` when the reply has no string `text`.
 *
 * @example
 * ```ts
 * const { text, usage } = readReply(await llm.complete(request));
 * usage.inputTokens; // a number, or undefined when the client gave none
 * ```
 */
export function readReply(response: unknown): { text: string; usage: Partial<LlmUsage> } {
  const text = isObject(response) ? response.text : undefined;
  if (typeof text !== 'string') {
    throw new LlmError(
      'llm_invalid_response',
      `The model client's reply has no text: got ${describeKind(response)}${isObject(response) ? ` with text ${describeKind(text)}` : ''}`,
    );
  }
  const usage = isObject(response) && isObject(response.usage) ? response.usage : {};
  return { text, usage: usage as Partial<LlmUsage> };
}

/**
 * `rearview/llm-reflect`: reflection with a model. The reference design's prompt, a robust parser for
 * the reply, a merge without duplicates, and `llmReflect`, which asks the model (a client of
 * `rearview/llm`, passed in) and merges its insights with `heuristicReflect`'s; with `escalate`, only
 * the turns the heuristics are unsure about go to the model. Reflection without a model call is
 * `rearview/heuristic`.
 *
 * @example
 * ```ts
 * import { llmReflect } from 'rearview/llm-reflect';
 * const insights = await llmReflect(messages, { llm: anthropicClient({ apiKey }), escalate: true });
 * ```
 *
 * @module
 */

export type { EscalationOptions } from './escalate.js';
export { insightPrompt, type PromptOptions, parseReflectionResponse } from './prompt.js';
export { type LlmReflectOptions, llmReflect, mergeInsights } from './reflect.js';

/**
 * `llmReflect`'s body, imported on its first call: bundles that never call a model do not carry it,
 * and escalation is imported from here in turn. What it uses from the eager half comes in as a kit
 * (see {@link LlmKit}) rather than through imports.
 */
import type { EscalateKit } from './escalate.js';
import type { LlmReflectOptions, mergeInsights, parseReflectionResponse, reflectionPrompt } from './llm.js';
import type { heuristicReflect } from './reflect.js';
import type { MessageLike, ReflectionInsight } from './types.js';

/**
 * @internal The eager functions `llmReflect`'s body calls, passed in by `llmReflect`. A lazily
 * imported module that imported them would make bundlers move them into a chunk shared with the
 * entry, and the cross-chunk imports and exports would cost the entry bytes.
 */
export interface LlmKit extends EscalateKit {
  reflectionPrompt: typeof reflectionPrompt;
  parseReflectionResponse: typeof parseReflectionResponse;
  mergeInsights: typeof mergeInsights;
  heuristicReflect: typeof heuristicReflect;
}

/** @internal `llmReflect`: see its documentation in `llm.ts`. */
export async function callLlm(
  messages: readonly MessageLike[],
  options: LlmReflectOptions,
  kit: LlmKit,
): Promise<ReflectionInsight[]> {
  const escalate = options.escalate;
  if (escalate) {
    // Imported on first use: the escalation code (and the redactor) stays out of plain calls.
    const { escalateReflect } = await import('./escalate.js');
    return escalateReflect(messages, { ...options, escalate }, kit);
  }
  const response = await options.llm.complete({
    messages: [{ role: 'user', content: kit.reflectionPrompt(messages, options) }],
    maxTokens: options.maxTokens ?? 2048,
    temperature: 0,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
  return kit.mergeInsights(
    kit.parseReflectionResponse(response.text),
    kit.heuristicReflect(messages, options),
  );
}

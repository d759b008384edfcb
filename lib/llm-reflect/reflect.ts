/**
 * `llmReflect`: the model's insights (one call with {@link insightPrompt}, or, with `escalate`, a
 * verdict on the uncertain turns only) merged with `heuristicReflect`'s by {@link mergeInsights}.
 * Only `import type` from `rearview/llm`: the client is passed in.
 */
import {
  type HeuristicOptions,
  heuristicReflect,
  type MessageLike,
  type ReflectionInsight,
} from '../heuristic/index.js';
import type { LlmClient } from '../llm/index.js';
import type { EscalationOptions } from './escalate.js';
import { insightPrompt, type PromptOptions, parseReflectionResponse } from './prompt.js';

function factKey(insight: ReflectionInsight): string {
  return `${insight.category}\u0000${insight.fact
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()}`;
}

/**
 * Merges two insight lists without duplicates: an insight of `secondary` that has the same category
 * as one of `primary` and the same fact (ignoring case and punctuation) or the same first trace
 * reference (the turn it is about) is folded into it, adding its trace references. Order: `primary`,
 * then what is left of `secondary`.
 *
 * @example
 * ```ts
 * mergeInsights(fromModel, heuristicReflect(messages));
 * ```
 */
export function mergeInsights(
  primary: readonly ReflectionInsight[],
  secondary: readonly ReflectionInsight[],
): ReflectionInsight[] {
  const out: ReflectionInsight[] = [];
  const byFact = new Map<string, ReflectionInsight>();
  const byRef = new Map<string, ReflectionInsight>();
  for (const insight of [...primary, ...secondary]) {
    const first = insight.traceRefs[0];
    const refKey = first === undefined ? undefined : `${insight.category}\u0000${first}`;
    const twin = byFact.get(factKey(insight)) ?? (refKey === undefined ? undefined : byRef.get(refKey));
    if (twin) {
      for (const ref of insight.traceRefs) if (!twin.traceRefs.includes(ref)) twin.traceRefs.push(ref);
      continue;
    }
    const copy = { ...insight, tags: [...insight.tags], traceRefs: [...insight.traceRefs] };
    out.push(copy);
    byFact.set(factKey(copy), copy);
    if (refKey !== undefined) byRef.set(refKey, copy);
  }
  return out;
}

/**
 * Options of {@link llmReflect}.
 *
 * @example
 * ```ts
 * const options: LlmReflectOptions = { llm: anthropicClient({ apiKey }), maxTokens: 1500 };
 * ```
 */
export interface LlmReflectOptions extends HeuristicOptions, PromptOptions {
  /** Any client: `anthropicClient()` (redacts by default), `fixtureClient()`, a test double. */
  llm: LlmClient;
  /** Upper bound on the reply's tokens. Default 2048. */
  maxTokens?: number;
  signal?: AbortSignal;
  model?: string;
  /**
   * Escalation mode: decide locally what the heuristics are sure about and send only the uncertain
   * turns (scores in the band, default `DEFAULT_ESCALATION_BAND`), redacted and batched, to the model
   * for a verdict. No uncertain turn, no call. Off by default (one call over the whole conversation).
   */
  escalate?: boolean | EscalationOptions;
}

/**
 * Asks the model for insights with {@link insightPrompt} and merges them with
 * {@link heuristicReflect}'s (the model's first; a heuristic insight about the same turn and category
 * only adds its trace references). A reply that cannot be read contributes nothing; a failed call
 * rejects with the client's `LlmError`. With `escalate`, only the turns the heuristics are unsure
 * about are sent (see {@link LlmReflectOptions.escalate}).
 *
 * @example
 * ```ts
 * const insights = await llmReflect(messages, { llm: anthropicClient({ apiKey }) });
 * ```
 */
export async function llmReflect(
  messages: readonly MessageLike[],
  options: LlmReflectOptions,
): Promise<ReflectionInsight[]> {
  const escalate = options.escalate;
  if (escalate) {
    // Imported on first use: the escalation code and the redactor stay out of plain calls.
    const { escalateReflect } = await import('./escalate.js');
    return escalateReflect(messages, { ...options, escalate });
  }
  const response = await options.llm.complete({
    messages: [{ role: 'user', content: insightPrompt(messages, options) }],
    maxTokens: options.maxTokens ?? 2048,
    temperature: 0,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
  return mergeInsights(parseReflectionResponse(response.text), heuristicReflect(messages, options));
}

/**
 * The model half of the reference design: the reflection prompt, a robust parser for the reply, and `llmReflect`,
 * which merges the model's insights with the heuristic ones (its body, in `llm-call.ts`, is imported on
 * first call). Only `import type` from `rearview/llm`: the client is passed in, so importing
 * `heuristicReflect` alone never pulls this code or an SDK.
 */
import { contentText, defaultRef, extractJson, truncateUtf8 } from '../core/index.js';
import type { LlmClient } from '../llm/index.js';
import type { EscalationOptions } from './escalate.js';
import { type HeuristicOptions, heuristicReflect, scoreTurns, turnInsights } from './reflect.js';
import { DEFAULT_ESCALATION_BAND } from './score.js';
import type { InsightCategory, InsightConfidence, MessageLike, ReflectionInsight } from './types.js';

/**
 * Options of {@link reflectionPrompt}.
 *
 * @example
 * ```ts
 * reflectionPrompt(messages, { maxMessageBytes: 1000 });
 * ```
 */
export interface PromptOptions {
  /** Each message is cut to this many UTF-8 bytes in the prompt. Default 2000. */
  maxMessageBytes?: number;
  /** Same as {@link HeuristicOptions.ref}, so the model cites the references the heuristics use. */
  ref?: (message: MessageLike, index: number) => string;
}

/**
 * The reference design's reflection prompt. Each turn is shown as `[message:{id}] role: text` and the model is
 * asked to cite those references in `trace_refs`.
 *
 * @example
 * ```ts
 * const prompt = reflectionPrompt([{ role: 'user', content: 'No, use REST.' }]);
 * ```
 */
export function reflectionPrompt(messages: readonly MessageLike[], options: PromptOptions = {}): string {
  const max = options.maxMessageBytes ?? 2000;
  const refOf = typeof options.ref === 'function' ? options.ref : defaultRef;
  const turns: string[] = [];
  if (Array.isArray(messages)) {
    messages.forEach((m, i) => {
      if (m === null || typeof m !== 'object') return;
      const text = contentText(m.content);
      if (text === undefined) return;
      const cut = truncateUtf8(text, max);
      turns.push(`[${refOf(m, i)}] ${String(m.role)}: ${cut}${cut.length < text.length ? ' […]' : ''}`);
    });
  }
  return `Analyze this conversation session for learning opportunities.

## Conversation
${turns.join('\n')}

Look for:
1. **Corrections**: Where the user corrected or redirected the assistant
2. **Anti-patterns**: Approaches that failed or were rejected
3. **Preferences**: User-stated preferences about how to work
4. **Friction**: Things the user had to repeat or explain multiple times

For each finding, extract an actionable insight. In "trace_refs", list the [message:…] references of the turns it comes from.

Respond with ONLY a JSON object:
\`\`\`json
{
  "insights": [
    {
      "fact": "What was observed",
      "recommendation": "What to do differently",
      "category": "correction|anti_pattern|gotcha|preference|friction",
      "confidence": "high|medium|low",
      "tags": ["tag1", "tag2"],
      "trace_refs": ["message:…"]
    }
  ]
}
\`\`\``;
}

const CATEGORIES: readonly InsightCategory[] = [
  'correction',
  'anti_pattern',
  'gotcha',
  'preference',
  'friction',
];
const CONFIDENCES: readonly InsightConfidence[] = ['high', 'medium', 'low'];

function category(value: unknown): InsightCategory | undefined {
  if (value === undefined || value === null) return 'correction';
  if (typeof value !== 'string') return undefined;
  let v = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (v === 'antipattern') v = 'anti_pattern';
  if (!CATEGORIES.includes(v as InsightCategory) && v.endsWith('s')) v = v.slice(0, -1);
  return CATEGORIES.includes(v as InsightCategory) ? (v as InsightCategory) : undefined;
}

function confidence(value: unknown): InsightConfidence {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return CONFIDENCES.includes(v as InsightConfidence) ? (v as InsightConfidence) : 'medium';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function insightsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') {
    const list = (value as { insights?: unknown }).insights;
    if (Array.isArray(list)) return list;
  }
  return undefined;
}

/**
 * Reads the insights from a model reply: fenced, wrapped in prose or raw JSON, `{ "insights": [...] }`
 * or a bare array. Items without a non-empty `fact` and `recommendation` or with an unknown category
 * are skipped, the others kept; `category` defaults to `correction` and `confidence` to `medium`, as
 * in the reference design. Never throws: anything unreadable gives `[]`.
 *
 * @example
 * ```ts
 * parseReflectionResponse('```json\n{"insights":[{"fact":"f","recommendation":"r"}]}\n```').length; // 1
 * ```
 */
export function parseReflectionResponse(text: string): ReflectionInsight[] {
  try {
    if (typeof text !== 'string') return [];
    let list = insightsOf(extractJson(text));
    if (!list) {
      // The first JSON in the reply may be something else (an example, a quoted object).
      const key = text.indexOf('"insights"');
      const brace = key < 0 ? -1 : text.lastIndexOf('{', key);
      if (brace >= 0) list = insightsOf(extractJson(text.slice(brace)));
    }
    const out: ReflectionInsight[] = [];
    for (const item of list ?? []) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const i = item as Record<string, unknown>;
      const fact = typeof i.fact === 'string' ? i.fact.trim() : '';
      const recommendation = typeof i.recommendation === 'string' ? i.recommendation.trim() : '';
      const cat = category(i.category);
      if (!fact || !recommendation || !cat) continue;
      out.push({
        fact,
        recommendation,
        category: cat,
        confidence: confidence(i.confidence),
        tags: strings(i.tags),
        traceRefs: strings(i.trace_refs ?? i.traceRefs),
      });
    }
    return out;
  } catch {
    return [];
  }
}

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
 * Asks the model for insights with {@link reflectionPrompt} and merges them with
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
  // The body is imported on first call (see llm-call.ts): it is not part of the entry's eager code.
  const { callLlm } = await import('./llm-call.js');
  return callLlm(messages, options, {
    reflectionPrompt,
    parseReflectionResponse,
    mergeInsights,
    heuristicReflect,
    extractJson,
    truncateUtf8,
    scoreTurns,
    turnInsights,
    band: DEFAULT_ESCALATION_BAND,
  });
}

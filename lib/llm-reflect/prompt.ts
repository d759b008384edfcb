/**
 * The model half of the reference design's reflection: the prompt and a robust parser for the reply.
 * Pure functions, no client: `llmReflect` (reflect.ts) sends the prompt.
 */
import { contentText, defaultRef, extractJson, truncateUtf8 } from '../core/index.js';
import type {
  InsightCategory,
  InsightConfidence,
  MessageLike,
  ReflectionInsight,
} from '../heuristic/index.js';

/**
 * Options of {@link insightPrompt}.
 *
 * @example
 * ```ts
 * insightPrompt(messages, { maxMessageBytes: 1000 });
 * ```
 */
export interface PromptOptions {
  /** Each message is cut to this many UTF-8 bytes in the prompt. Default 2000. */
  maxMessageBytes?: number;
  /** Same as `heuristicReflect`'s `ref` option, so the model cites the references the heuristics use. */
  ref?: (message: MessageLike, index: number) => string;
}

/**
 * The reference design's reflection prompt. Each turn is shown as `[message:{id}] role: text` and the model is
 * asked to cite those references in `trace_refs`.
 *
 * @example
 * ```ts
 * const prompt = insightPrompt([{ role: 'user', content: 'No, use REST.' }]);
 * ```
 */
export function insightPrompt(messages: readonly MessageLike[], options: PromptOptions = {}): string {
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

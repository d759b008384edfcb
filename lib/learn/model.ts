/**
 * The optional model pass: one request that rewrites each proposed rule as a short imperative or
 * drops it. Its cost is estimated before (and may be declined) and reported after.
 */
import { estimateTokens, extractJson } from '../core/index.js';
import { judgeKeyPoint } from '../playbook/index.js';
import { createRedactor } from '../redact/index.js';
import type { LearnedRule, LearnLlm, LlmCost } from './types.js';

const SYSTEM =
  "You edit rules for an AGENTS.md file. Each rule was read from a person's corrections to a coding agent. " +
  'Reply with JSON only: an array of {"id": string, "text": string | null}. Rewrite each rule as one short, ' +
  'self-contained imperative sentence that keeps its meaning; use null for a rule that is a one-off task, ' +
  'is unclear without its session, or is not an instruction.';
const OUT_TOKENS_PER_RULE = 40;

/**
 * The request for `rules`: the system prompt and one line per rule, redacted (a person's edit in a
 * review list may hold what the sessions' redaction never saw), and its estimated cost.
 */
function request(
  rules: readonly LearnedRule[],
  redactText: (t: string) => string,
): { system: string; user: string; maxTokens: number; cost: LlmCost } {
  const user = redactText(rules.map((r) => JSON.stringify({ id: r.id, text: r.text })).join('\n'));
  const maxTokens = Math.min(8000, 64 + rules.length * OUT_TOKENS_PER_RULE);
  const estimatedInputTokens = estimateTokens(SYSTEM) + estimateTokens(user) + 8;
  return { system: SYSTEM, user, maxTokens, cost: { estimatedInputTokens, maxOutputTokens: maxTokens } };
}

/**
 * What asking a model to review `rules` would cost, without asking: the estimated input tokens and
 * the most output tokens the request allows. Show it before {@link refineRules}.
 *
 * @example
 * ```ts
 * const { estimatedInputTokens, maxOutputTokens } = estimateRefine(result.rules);
 * ```
 */
export function estimateRefine(rules: readonly LearnedRule[]): LlmCost {
  const redactor = createRedactor();
  return request(rules, (t) => redactor.redactText(t)).cost;
}

/**
 * Asks `llm`, in one request, to rewrite each rule as one imperative sentence or drop it: the model
 * pass of `learn` for rules already proposed (a review list the person is going through, say). The
 * rules are redacted before they are sent; each rewrite passes {@link judgeRule} (one it refuses keeps
 * the rule's text); `confirmLlm` sees the estimate first. Never rejects: a failed or declined call
 * returns the rules as they were, with `cost.skipped` saying why.
 *
 * @example
 * ```ts
 * const { rules, cost } = await refineRules(result.rules, { llm: anthropicClient({ apiKey }) });
 * // cost: { estimatedInputTokens, maxOutputTokens, inputTokens, outputTokens, rewritten, dropped, refused }
 * ```
 */
export async function refineRules(
  rules: readonly LearnedRule[],
  options: {
    llm: LearnLlm;
    confirmLlm?: (cost: LlmCost) => boolean | Promise<boolean>;
    signal?: AbortSignal;
  },
): Promise<{ rules: LearnedRule[]; cost: LlmCost }> {
  const redactor = createRedactor();
  const refined = await refineWithModel(
    [...rules],
    options.llm,
    options.confirmLlm,
    (t) => redactor.redactText(t),
    options.signal,
  );
  return { rules: refined.rules, cost: refined.cost };
}

/**
 * Sends the rules to `llm` once (after `confirm` accepts the estimated cost) and applies its edits.
 * A failed or declined call keeps the rules as they are and says why in `cost.skipped`. A rewrite
 * passes the same judge as every proposed rule: one it refuses (the model's reply is untrusted text)
 * leaves the rule as it was, counted in `cost.refused`.
 */
export async function refineWithModel(
  rules: LearnedRule[],
  llm: LearnLlm,
  confirm: ((cost: LlmCost) => boolean | Promise<boolean>) | undefined,
  redactText: (t: string) => string,
  signal: AbortSignal | undefined,
): Promise<{ rules: LearnedRule[]; cost: LlmCost; dropped: number }> {
  const req = request(rules, redactText);
  const cost = req.cost;
  try {
    if (confirm && !(await confirm({ ...cost }))) {
      cost.skipped = 'declined';
      return { rules, cost, dropped: 0 };
    }
    const reply = await llm.complete({
      system: req.system,
      messages: [{ role: 'user', content: req.user }],
      maxTokens: req.maxTokens,
      temperature: 0,
      ...(signal ? { signal } : {}),
    });
    cost.inputTokens = reply.usage?.inputTokens ?? 0;
    cost.outputTokens = reply.usage?.outputTokens ?? 0;
    const edits = new Map<string, string | null>();
    const parsed = extractJson(reply.text);
    if (Array.isArray(parsed)) {
      for (const e of parsed as { id?: unknown; text?: unknown }[]) {
        if (e && typeof e.id === 'string' && (typeof e.text === 'string' || e.text === null)) {
          edits.set(e.id, typeof e.text === 'string' ? e.text.replace(/\s+/g, ' ').trim() || null : null);
        }
      }
    }
    let dropped = 0;
    let rewritten = 0;
    let refused = 0;
    const out: LearnedRule[] = [];
    for (const r of rules) {
      if (!edits.has(r.id)) {
        out.push(r);
        continue;
      }
      const edit = edits.get(r.id);
      if (edit === null || edit === undefined) {
        dropped++;
        continue;
      }
      const text = redactText(edit.slice(0, 200));
      if (text === r.text) out.push(r);
      else if (judgeKeyPoint(text) !== undefined) {
        refused++;
        out.push(r);
      } else {
        rewritten++;
        out.push({ ...r, text });
      }
    }
    Object.assign(cost, { rewritten, dropped, refused });
    return { rules: out, cost, dropped };
  } catch (err) {
    cost.skipped = `failed: ${redactText(err instanceof Error ? err.message : String(err))}`;
    return { rules, cost, dropped: 0 };
  }
}

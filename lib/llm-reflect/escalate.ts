/**
 * `llmReflect`'s escalation mode, imported on first use: turns the heuristics are sure about are
 * decided locally; only turns whose score falls in the uncertain band go to the model, redacted and
 * batched, for a verdict. Most conversations then cost no call at all.
 */
import { extractJson, truncateUtf8 } from '../core/index.js';
import {
  DEFAULT_ESCALATION_BAND,
  type HeuristicOptions,
  type MessageLike,
  type ReflectionInsight,
  type ScoredTurn,
  scoreTurns,
  turnInsights,
} from '../heuristic/index.js';
import { type LlmClient, redactRequest } from '../llm/index.js';

/**
 * How `llmReflect` escalates (its `escalate` option).
 *
 * @example
 * ```ts
 * await llmReflect(messages, { llm, escalate: { band: [0.3, 0.75], batchSize: 20 } });
 * ```
 */
export interface EscalationOptions {
  /**
   * `[low, high)`: a turn with some category scored in this band is uncertain and goes to the model;
   * scores from `high` up are kept without asking, below `low` dropped. Default
   * {@link DEFAULT_ESCALATION_BAND}.
   */
  band?: readonly [number, number];
  /** Uncertain turns per model call. Default 20. */
  batchSize?: number;
}

/** @internal The options `escalateReflect` reads (a subset of `LlmReflectOptions`). */
export interface EscalateCall extends HeuristicOptions {
  llm: LlmClient;
  escalate: true | EscalationOptions;
  maxTokens?: number;
  signal?: AbortSignal;
  model?: string;
}

const CATEGORIES = ['correction', 'preference', 'approval', 'friction'] as const;

/** The verdict prompt for a batch of uncertain turns (already redacted). */
function verdictPrompt(turns: readonly { ref: string; before: string; text: string }[]): string {
  const shown = turns
    .map((t) => `[${t.ref}]\n${t.before ? `(the assistant had said: ${t.before})\n` : ''}user: ${t.text}`)
    .join('\n\n');
  return `Each item below is one user turn from a conversation with a coding assistant. For each, decide which of these apply to what the user says:
- correction: the user says or implies the assistant's last action or answer was wrong, unwanted or must be undone, or reports that it fails;
- preference: a lasting rule for the future about how to work;
- approval: approval of what the assistant just did, with nothing else asked;
- friction: the user has to repeat themself or a problem keeps coming back.
None may apply.

${shown}

Respond with ONLY a JSON object: {"verdicts": [{"ref": "<the reference in brackets>", "categories": ["correction"]}]}`;
}

/** The categories the model gave each reference; anything unreadable gives nothing. */
function readVerdicts(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const value = extractJson(text) as { verdicts?: unknown } | undefined;
  const list = value !== null && typeof value === 'object' ? value.verdicts : undefined;
  if (!Array.isArray(list)) return out;
  for (const v of list) {
    if (v === null || typeof v !== 'object') continue;
    const { ref, categories } = v as { ref?: unknown; categories?: unknown };
    if (typeof ref !== 'string' || !Array.isArray(categories)) continue;
    out.set(ref, new Set(categories.filter((c): c is string => typeof c === 'string')));
  }
  return out;
}

/** @internal `llmReflect` with `escalate`: see {@link EscalationOptions}. */
export async function escalateReflect(
  messages: readonly MessageLike[],
  options: EscalateCall,
): Promise<ReflectionInsight[]> {
  const settings = options.escalate === true ? {} : options.escalate;
  const [low, high] = settings.band ?? DEFAULT_ESCALATION_BAND;
  const size = Math.max(1, settings.batchSize ?? 20);
  const decided = new Map<number, ReflectionInsight[]>();
  const uncertain: ScoredTurn[] = [];
  scoreTurns(messages, options, (turn) => {
    const local: ReflectionInsight[] = [];
    turnInsights(turn, high, local);
    decided.set(turn.index, local);
    if (CATEGORIES.some((c) => turn.scores[c] >= low && turn.scores[c] < high)) uncertain.push(turn);
  });
  for (let b = 0; b < uncertain.length; b += size) {
    const batch = uncertain.slice(b, b + size);
    const prompt = verdictPrompt(
      // Local labels, not the trace references: an id can look like a secret and come back redacted.
      batch.map((t, k) => ({
        ref: `t${k + 1}`,
        // The reply the turn answers, for context (carried by the scan: no search by reference).
        before: t.lastOtherText === undefined ? '' : truncateUtf8(t.lastOtherText, 300),
        text: truncateUtf8(t.text, 1500),
      })),
    );
    // Redacted here, whatever the client does: one placeholder map for the whole batch.
    const response = await options.llm.complete(
      redactRequest({
        messages: [{ role: 'user', content: prompt }],
        maxTokens: options.maxTokens ?? 1024,
        temperature: 0,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.model ? { model: options.model } : {}),
      }),
    );
    const verdicts = readVerdicts(response.text);
    for (const [k, turn] of batch.entries()) {
      const said = verdicts.get(`t${k + 1}`);
      if (!said) continue;
      // The model's verdict settles the uncertain categories: kept at the band's top score, or dropped.
      const scores = { ...turn.scores };
      for (const c of CATEGORIES) {
        if (scores[c] >= high) continue;
        scores[c] = said.has(c) ? high : 0;
      }
      const out: ReflectionInsight[] = [];
      turnInsights({ ...turn, scores }, high, out);
      for (const insight of out)
        if (turn.scores[insight.category as (typeof CATEGORIES)[number]] < high)
          insight.tags.push('escalated');
      decided.set(turn.index, out);
    }
  }
  // `scoreTurns` visits in message order, so the map already is.
  return [...decided.values()].flat();
}

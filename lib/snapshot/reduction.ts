/**
 * `computeTrajectoryReduction`: the seed's flow (design 000, §5) at an iteration boundary. The
 * deterministic snapshot is always computed; the reflected one replaces it only when every gate
 * passes. Never rejects: every failure falls back to the deterministic snapshot with its reason.
 */
import { countTokens, describeError, isRearviewError, RearviewError } from '../core/index.js';
import { type LlmResponse, withRedaction } from '../llm/index.js';
import { classify } from './classify.js';
import {
  CATEGORIES,
  deterministicSnapshotWithTrace,
  MAX_CATEGORY_ITEMS,
  MAX_TEXT_LENGTH,
} from './deterministic.js';
import {
  buildReflectionPrompt,
  currentIteration,
  indexSources,
  type ParsedReflection,
  parseReflection,
  validateReflection,
} from './reflect.js';
import { clip, comparableKey, contentTerms, squash, words } from './text.js';
import type {
  ActiveContextSnapshot,
  ReflectionSkippedReason,
  RetiredTrajectoryRecord,
  SnapshotInput,
  TracedItem,
  TrajectoryReduction,
  TrajectoryReductionDiagnostics,
  TrajectoryReductionOptions,
} from './types.js';

/**
 * Default of `minSnapshotTokens`: 400 tokens (the seed's `MIN_SNAPSHOT_TOKENS`). A smaller
 * deterministic snapshot is kept as is, with reason `below_threshold`.
 *
 * @example
 * ```ts
 * await computeTrajectoryReduction(input, { llm, minSnapshotTokens: MIN_SNAPSHOT_TOKENS * 2 });
 * ```
 */
export const MIN_SNAPSHOT_TOKENS = 400;
/**
 * Default of `minSavingsTokens`: 100 tokens (the seed's `MIN_SAVINGS_TOKENS`). A reflection saving
 * less is rejected with reason `insufficient_savings`.
 *
 * @example
 * ```ts
 * await computeTrajectoryReduction(input, { llm, minSavingsTokens: MIN_SAVINGS_TOKENS / 2 });
 * ```
 */
export const MIN_SAVINGS_TOKENS = 100;

/**
 * How a snapshot is serialized for token counts: compact JSON, fields in their fixed order.
 *
 * @example
 * ```ts
 * estimateTokens(snapshotJson(deterministicSnapshot(input))); // what the gates compare by default
 * ```
 */
export function snapshotJson(s: ActiveContextSnapshot): string {
  return JSON.stringify({
    currentObjective: s.currentObjective,
    openHypotheses: s.openHypotheses,
    blockers: s.blockers,
    nextActions: s.nextActions,
    unresolvedQuestions: s.unresolvedQuestions,
    requiredEvidenceLinks: s.requiredEvidenceLinks,
  });
}

function defaultNow(): number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf ? perf.now() : Date.now();
}

/**
 * Computes the active-context snapshot for the current iteration: the seed's ten steps.
 *
 * 4. the deterministic snapshot under `minSnapshotTokens` → `below_threshold`; no `llm` → `no_llm`;
 * 5. the seed's prompt ({@link buildReflectionPrompt}); 6. one call (`api_error`, `timeout`, `aborted`);
 * 7. `extractJson` (`parse_error`, `invalid_schema`); 8. savings gate against the deterministic
 * snapshot (`insufficient_savings`); 9. every item traces to an entry or task (`validation_failed`),
 * then the caps; 10. retirements against `previous` and the diagnostics.
 *
 * @example
 * ```ts
 * const { snapshot, retired, diagnostics } = await computeTrajectoryReduction(
 *   { objective, entries, tasks, previous },
 *   { llm: anthropicClient({ apiKey }), minSnapshotTokens: 400, minSavingsTokens: 100 },
 * );
 * console.log(diagnostics.logLine); // [TRAJECTORY] reflection=used …
 * ```
 */
export async function computeTrajectoryReduction(
  input: SnapshotInput,
  options: TrajectoryReductionOptions = {},
): Promise<TrajectoryReduction> {
  const minSnapshotTokens = options.minSnapshotTokens ?? MIN_SNAPSHOT_TOKENS;
  const minSavingsTokens = options.minSavingsTokens ?? MIN_SAVINGS_TOKENS;
  const maxItems = options.maxCategoryItems ?? MAX_CATEGORY_ITEMS;
  const maxText = options.maxTextLength ?? MAX_TEXT_LENGTH;
  const count = (text: string) => countTokens(text, options.countTokens);
  const now = options.now ?? defaultNow;

  // Steps 1–3: entries, previous snapshot and objective arrive in `input`.
  const det = deterministicSnapshotWithTrace(input, options);
  const deterministicTokens = await count(snapshotJson(det.snapshot));
  const d: TrajectoryReductionDiagnostics = {
    path: 'deterministic',
    reflectionUsed: false,
    reflectionInvoked: false,
    reflectionInputTokens: null,
    reflectionOutputTokens: null,
    reflectionLatencyMs: null,
    reflectionSkippedReason: null,
    reflectionError: null,
    deterministicTokens,
    reflectedTokens: null,
    savingsTokens: null,
    snapshotTokens: deterministicTokens,
    dropped: [],
    deterministicDropped: det.dropped,
    rejectedItems: [],
    cappedItems: 0,
    entryCount: input.entries?.length ?? 0,
    taskCount: input.tasks?.length ?? 0,
    retiredCount: 0,
    logLine: '',
  };

  const finish = (snapshot: ActiveContextSnapshot, kept: TracedItem[]): TrajectoryReduction => {
    const retired = computeRetirements(
      input.previous ?? null,
      snapshot,
      input,
      options.nearDuplicateThreshold,
    );
    d.retiredCount = retired.length;
    d.logLine = logLine(d);
    return { snapshot, retired, diagnostics: d, kept };
  };
  const fallback = (reason: ReflectionSkippedReason, error?: string): TrajectoryReduction => {
    d.reflectionSkippedReason = reason;
    d.reflectionError = error ?? null;
    return finish(det.snapshot, det.kept);
  };

  // Step 4: threshold.
  if (deterministicTokens < minSnapshotTokens) {
    return fallback('below_threshold', `${deterministicTokens} < ${minSnapshotTokens} tokens`);
  }
  const llm = options.llm ? withRedaction(options.llm, options.redact) : undefined;
  if (!llm) return fallback('no_llm');

  // Step 5: prompt. Step 6: one call, timed.
  const prompt = buildReflectionPrompt(input);
  let response: LlmResponse;
  const started = now();
  d.reflectionInvoked = true;
  try {
    response = await callWithTimeout(
      (signal) =>
        llm.complete({
          messages: [{ role: 'user', content: prompt }],
          maxTokens: options.maxTokens ?? 2048,
          temperature: options.temperature ?? 0,
          ...(options.model ? { model: options.model } : {}),
          ...(signal ? { signal } : {}),
        }),
      options.timeoutMs,
      options.signal,
    );
  } catch (err) {
    d.reflectionLatencyMs = now() - started;
    d.reflectionInputTokens = await count(prompt);
    const code = isRearviewError(err) ? err.code : err instanceof Error ? err.name : 'error';
    const message = describeError(err);
    const reason: ReflectionSkippedReason =
      code === 'reflection_timeout' || code === 'llm_timeout'
        ? 'timeout'
        : code === 'llm_aborted'
          ? 'aborted'
          : 'api_error';
    return fallback(reason, `${code}: ${message}`);
  }
  d.reflectionLatencyMs = now() - started;
  d.reflectionInputTokens = response.usage.inputTokens > 0 ? response.usage.inputTokens : await count(prompt);
  d.reflectionOutputTokens =
    response.usage.outputTokens > 0 ? response.usage.outputTokens : await count(response.text);

  // Step 7: parse.
  const parsed = parseReflection(response.text);
  if (!parsed.ok) return fallback(parsed.reason, parsed.error);
  d.dropped = parsed.value.dropped;

  // Step 8: acceptance gate on the reflected snapshot as returned.
  const reflected = toSnapshot(parsed.value, det.snapshot.currentObjective);
  d.reflectedTokens = await count(snapshotJson(reflected));
  d.savingsTokens = deterministicTokens - d.reflectedTokens;
  if (d.savingsTokens < minSavingsTokens) {
    return fallback('insufficient_savings', `saves ${d.savingsTokens} < ${minSavingsTokens} tokens`);
  }

  // Step 9: validation, then the caps.
  const { rejected, traced } = validateReflection(parsed.value, indexSources(input));
  if (rejected.length) {
    d.rejectedItems = rejected;
    return fallback(
      'validation_failed',
      `${rejected.length} item(s) do not trace to a source: ${clip(rejected[0]!.text, 80)} (${rejected[0]!.why})`,
    );
  }
  const snapshot: ActiveContextSnapshot = {
    currentObjective: clip(reflected.currentObjective, maxText),
    openHypotheses: [],
    blockers: [],
    nextActions: [],
    unresolvedQuestions: [],
    requiredEvidenceLinks: [],
  };
  if (snapshot.currentObjective !== reflected.currentObjective) d.cappedItems++;
  const kept: TracedItem[] = [];
  for (const c of CATEGORIES) {
    const items = parsed.value.lists[c];
    const seen = new Set<string>();
    for (const item of items) {
      const key = comparableKey(item.text);
      if (seen.has(key)) continue; // a repeated item is not a new fact
      if (snapshot[c].length >= maxItems) {
        d.cappedItems++;
        continue;
      }
      seen.add(key);
      const text = clip(item.text, maxText);
      if (text !== item.text) d.cappedItems++;
      snapshot[c].push(text);
      kept.push({ category: c, text, sources: traced.get(item) ?? [] });
    }
  }

  // Step 10.
  d.path = 'reflected';
  d.reflectionUsed = true;
  d.snapshotTokens = await count(snapshotJson(snapshot));
  return finish(snapshot, kept);
}

function toSnapshot(p: ParsedReflection, objective: string): ActiveContextSnapshot {
  return {
    currentObjective: p.currentObjective || objective,
    openHypotheses: p.lists.openHypotheses.map((i) => i.text),
    blockers: p.lists.blockers.map((i) => i.text),
    nextActions: p.lists.nextActions.map((i) => i.text),
    unresolvedQuestions: p.lists.unresolvedQuestions.map((i) => i.text),
    requiredEvidenceLinks: p.lists.requiredEvidenceLinks.map((i) => i.text),
  };
}

async function callWithTimeout<T>(
  fn: (signal: AbortSignal | undefined) => Promise<T>,
  timeoutMs: number | undefined,
  outer: AbortSignal | undefined,
): Promise<T> {
  if (outer?.aborted) throw new RearviewError('llm_aborted', 'The reflection was aborted by the caller');
  if (timeoutMs === undefined) return fn(outer);
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new RearviewError('reflection_timeout', `No reply within ${timeoutMs} ms`);
      reject(err); // settles the race before the aborted call can
      controller.abort(err);
    }, timeoutMs);
  });
  try {
    return await Promise.race([fn(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

/**
 * Step 10's retirements: items of the previous snapshot the current one no longer holds (compared by
 * comparable key, or as a near duplicate of a current item of the same category). `resolved` when a
 * current entry reports it fixed or gone and shares its words; `superseded` otherwise. Independent of
 * which path produced `current` (safety invariant 4).
 *
 * @example
 * ```ts
 * computeRetirements(previous, snapshot, input); // [{ category: 'blockers', text: 'CI is red', reason: 'resolved', … }]
 * ```
 */
export function computeRetirements(
  previous: ActiveContextSnapshot | null,
  current: ActiveContextSnapshot,
  input: SnapshotInput,
  threshold = 0.6,
): RetiredTrajectoryRecord[] {
  if (!previous) return [];
  const iteration = currentIteration(input);
  let resolvers: { id: string; terms: Set<string> }[] | undefined;
  const out: RetiredTrajectoryRecord[] = [];
  for (const c of CATEGORIES) {
    const now = (current[c] ?? []).map((t) => ({ key: comparableKey(t), terms: contentTerms(words(t)) }));
    const keys = new Set(now.map((n) => n.key));
    for (const text of previous[c] ?? []) {
      const key = comparableKey(text);
      if (key === '' || keys.has(key)) continue;
      const terms = contentTerms(words(text));
      if (now.some((n) => overlap(terms, n.terms) / Math.max(1, union(terms, n.terms)) >= threshold))
        continue;
      resolvers ??= (input.entries ?? []).flatMap((e, i) => {
        const v = squash(String(e.value ?? ''));
        return classify(words(v), v).resolved
          ? [{ id: `m${i + 1}`, terms: new Set(contentTerms(words(v))) }]
          : [];
      });
      const by = resolvers
        .filter((r) => {
          const shared = terms.filter((t) => r.terms.has(t)).length;
          return shared >= 2 || (shared >= 1 && shared * 2 >= terms.length);
        })
        .map((r) => r.id);
      out.push(
        by.length
          ? { category: c, text, reason: 'resolved', iteration, resolvedBy: by }
          : { category: c, text, reason: 'superseded', iteration },
      );
    }
  }
  return out;
}

function overlap(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (const t of a) if (b.includes(t)) n++;
  return n;
}

function union(a: readonly string[], b: readonly string[]): number {
  return a.length + b.length - overlap(a, b);
}

function logLine(d: TrajectoryReductionDiagnostics): string {
  const parts = [`[TRAJECTORY] reflection=${d.reflectionUsed ? 'used' : 'skipped'}`];
  if (d.reflectionSkippedReason) parts.push(`reason=${d.reflectionSkippedReason}`);
  parts.push(`snapshot_tokens=${d.snapshotTokens}`, `deterministic_tokens=${d.deterministicTokens}`);
  if (d.reflectedTokens !== null) parts.push(`reflected_tokens=${d.reflectedTokens}`);
  if (d.reflectionInputTokens !== null) parts.push(`in=${d.reflectionInputTokens}`);
  if (d.reflectionOutputTokens !== null) parts.push(`out=${d.reflectionOutputTokens}`);
  if (d.reflectionLatencyMs !== null) parts.push(`latency_ms=${Math.round(d.reflectionLatencyMs)}`);
  parts.push(`retired=${d.retiredCount}`);
  return parts.join(' ');
}

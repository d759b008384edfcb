/**
 * `computeTrajectoryReduction`: the reference design's flow (design 000, §5) at an iteration boundary. The
 * deterministic snapshot is always computed; the reflected one replaces it only when every gate
 * passes. Never rejects: every failure falls back to the deterministic snapshot with its reason.
 */

import { comparableKey } from '../categorise/index.js';
import {
  clip,
  describeError,
  errorName,
  estimateTokens,
  guardedClock,
  guardedCounter,
  isObject,
  EarlyStop as Stop,
  withDeadline,
} from '../core/index.js';
import { readReply, withRedaction } from '../llm/index.js';
import { MIN_SAVINGS_TOKENS, MIN_SNAPSHOT_TOKENS, REPLY_FIELDS, snapshotJson } from './constants.js';
import {
  CATEGORIES,
  deterministicSnapshotWithTrace,
  MAX_CATEGORY_ITEMS,
  MAX_TEXT_LENGTH,
} from './deterministic.js';
import { newDiagnostics, positive, readInput, safeDeterministic } from './guards.js';
import type { TrajectoryReductionOptions } from './options.js';
import {
  indexSources,
  type ParsedReflection,
  parseReflection,
  type ReflectedItem,
  reflectedSnapshotPrompt,
  validateReflection,
} from './reflect.js';
import { computeRetirements } from './retire.js';
import type {
  ActiveContextSnapshot,
  ReflectionSkippedReason,
  RetiredTrajectoryRecord,
  SnapshotInput,
  SnapshotTrace,
  TracedItem,
  TrajectoryReduction,
  TrajectoryReductionDiagnostics,
} from './types.js';

export { computeRetirements } from './retire.js';
export { MIN_SAVINGS_TOKENS, MIN_SNAPSHOT_TOKENS, REPLY_FIELDS, snapshotJson };

function defaultNow(): number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf ? perf.now() : Date.now();
}

/**
 * Computes the active-context snapshot for the current iteration: the reference design's ten steps.
 *
 * 4. the deterministic snapshot under `minSnapshotTokens` → `below_threshold`; no `llm` → `no_llm`;
 * 5. the reference design's prompt ({@link reflectedSnapshotPrompt}); 6. one call (`api_error`, `timeout`, `aborted`);
 * 7. `extractJson` (`parse_error`, `invalid_schema`); 8. savings gate against the deterministic
 * snapshot (`insufficient_savings`); 9. every item traces to an entry or task (`validation_failed`),
 * then the caps; 10. retirements against `previous` and the diagnostics.
 *
 * Never rejects. The call is raced against `signal` and `timeoutMs`, so a client that ignores its
 * signal cannot keep it pending. A `countTokens` or `now` that throws stops at the deterministic
 * snapshot (`callback_error`, figures the counter could not give are estimated); input of the wrong
 * shape (entries, tasks or previous not what the types say, or anything that makes the deterministic
 * path throw) gives `invalid_input` with the deterministic snapshot of what could be read, or an
 * empty one.
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
  const opts: TrajectoryReductionOptions = isObject(options) ? options : {};
  const read = readInput(input);
  const run: Run = { input: read.input, d: newDiagnostics(read.entryCount, read.taskCount) };
  try {
    if (read.problem) throw new Stop('invalid_input', read.problem);
    return await reduce(run, opts);
  } catch (err) {
    return bail(run, opts, err);
  }
}

/** What one call has computed so far, for {@link bail}. */
interface Run {
  input: SnapshotInput;
  d: TrajectoryReductionDiagnostics;
  det?: SnapshotTrace;
  /** Tokens of `det` by the caller's counter, once it gave them. */
  detTokens?: number;
}

async function reduce(run: Run, options: TrajectoryReductionOptions): Promise<TrajectoryReduction> {
  const { input, d } = run;
  const minSnapshotTokens = options.minSnapshotTokens ?? MIN_SNAPSHOT_TOKENS;
  const minSavingsTokens = options.minSavingsTokens ?? MIN_SAVINGS_TOKENS;
  const maxItems = options.maxCategoryItems ?? MAX_CATEGORY_ITEMS;
  const maxText = options.maxTextLength ?? MAX_TEXT_LENGTH;
  const count = guardedCounter(options.countTokens);
  const now = guardedClock(options.now ?? defaultNow);
  const signal = options.signal;
  const checkAbort = () => {
    if (signal?.aborted) throw new Stop('aborted', 'llm_aborted: The reflection was aborted by the caller');
  };

  // Steps 1–3: entries, previous snapshot and objective arrive in `input`.
  const det = deterministicSnapshotWithTrace(input, options);
  run.det = det;
  d.deterministicDropped = det.dropped;
  const deterministicTokens = await count(snapshotJson(det.snapshot));
  run.detTokens = d.deterministicTokens = d.snapshotTokens = deterministicTokens;

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

  // Step 5: prompt. Step 6: one call, timed, raced against the signal and the time limit.
  const prompt = reflectedSnapshotPrompt(input);
  const started = now();
  d.reflectionInvoked = true;
  let reply: ReturnType<typeof readReply>;
  try {
    reply = readReply(
      await withDeadline(
        (inner) =>
          llm.complete({
            messages: [{ role: 'user', content: prompt }],
            maxTokens: options.maxTokens ?? 2048,
            temperature: options.temperature ?? 0,
            ...(options.model ? { model: options.model } : {}),
            signal: inner,
          }),
        { signal, timeoutMs: options.timeoutMs, what: 'The reflection call' },
      ),
    );
  } catch (err) {
    d.reflectionLatencyMs = now() - started;
    d.reflectionInputTokens = await count(prompt);
    const code = errorName(err);
    const reason: ReflectionSkippedReason =
      code === 'llm_timeout' ? 'timeout' : code === 'llm_aborted' ? 'aborted' : 'api_error';
    return fallback(reason, `${code}: ${describeError(err)}`);
  }
  d.reflectionLatencyMs = now() - started;
  d.reflectionInputTokens = positive(reply.usage.inputTokens) ?? (await count(prompt));
  d.reflectionOutputTokens = positive(reply.usage.outputTokens) ?? (await count(reply.text));
  checkAbort();

  // Step 7: parse.
  const parsed = parseReflection(reply.text);
  if (!parsed.ok) return fallback(parsed.reason, parsed.error);
  d.dropped = parsed.value.dropped;

  // Step 8: acceptance gate on the reflected snapshot as returned.
  const reflected = toSnapshot(parsed.value, det.snapshot.currentObjective);
  d.reflectedTokens = await count(snapshotJson(reflected));
  d.savingsTokens = deterministicTokens - d.reflectedTokens;
  checkAbort();
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
  const { snapshot, kept } = capped(parsed.value, reflected, traced, maxItems, maxText, d);

  // Step 10.
  const snapshotTokens = await count(snapshotJson(snapshot));
  checkAbort();
  d.path = 'reflected';
  d.reflectionUsed = true;
  d.snapshotTokens = snapshotTokens;
  return finish(snapshot, kept);
}

/** Step 9's caps: repeated items dropped, at most `maxItems` per category of `maxText` characters. */
function capped(
  parsed: ParsedReflection,
  reflected: ActiveContextSnapshot,
  traced: Map<ReflectedItem, string[]>,
  maxItems: number,
  maxText: number,
  d: TrajectoryReductionDiagnostics,
): { snapshot: ActiveContextSnapshot; kept: TracedItem[] } {
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
    const seen = new Set<string>();
    for (const item of parsed.lists[c]) {
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
  return { snapshot, kept };
}

/**
 * The result of a call that stopped early: the deterministic snapshot (computed again without the
 * caller's caps if the first attempt never finished, or empty if even that throws), estimated token
 * figures where the caller's counter gave none, and the reason. Never throws.
 */
function bail(run: Run, options: TrajectoryReductionOptions, err: unknown): TrajectoryReduction {
  const { d, input } = run;
  const stop = err instanceof Stop ? err : undefined;
  const det = run.det ?? safeDeterministic(input);
  d.path = 'deterministic';
  d.reflectionUsed = false;
  d.reflectionSkippedReason = (stop?.reason as ReflectionSkippedReason | undefined) ?? 'invalid_input';
  d.reflectionError = stop ? stop.message : `${errorName(err)}: ${describeError(err)}`;
  d.deterministicDropped = det.dropped;
  d.deterministicTokens = run.detTokens ?? estimateTokens(snapshotJson(det.snapshot));
  d.snapshotTokens = d.deterministicTokens;
  let retired: RetiredTrajectoryRecord[] = [];
  try {
    retired = computeRetirements(input.previous ?? null, det.snapshot, input, options.nearDuplicateThreshold);
  } catch {
    // A previous snapshot that cannot be read retires nothing.
  }
  d.retiredCount = retired.length;
  d.logLine = logLine(d);
  return { snapshot: det.snapshot, retired, diagnostics: d, kept: det.kept };
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

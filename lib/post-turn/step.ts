/**
 * The post-turn reflection step: gate, summarise (rule-based or fixture-replayed LLM), embed, write
 * memory entries under the budgets, and log. Deterministic and fail-soft: the same inputs give
 * byte-identical results and log lines in every runtime, and no error escapes except an invalid config.
 */
import * as v from 'valibot';
import { compareCodePoints, ValidationError } from '../core/index.js';
import type {
  ReflectionBundle,
  ReflectionMetrics,
  ReflectionResult,
  ReflectionSkip,
  ReflectOptions,
} from './bundle.js';
import { type ReflectionConfig, validateReflectionConfig } from './config.js';
import { deterministicEmbedding, EMBEDDING_DIM } from './embedding.js';
import { coerceReflectionFlag, reflectionGate } from './gate.js';
import {
  FixtureMissingError,
  loadReflectionFixtures,
  type ReflectionLlmAdapter,
  reflectionFixtureAdapter,
  reflectionPromptHash,
  reflectionPromptJson,
  turnSummaryPrompt,
} from './llm-fixtures.js';
import { type ReflectionLogRecord, writeReflectionLog } from './log.js';
import type { ReflectionMemoryEntry } from './memory.js';
import { rulebasedSummary } from './rulebased.js';
import { countWhitespaceTokens, normalizeText, truncateTokens } from './text.js';

const DEFAULT_TS = '0000-00-00T00:00:00Z';

/**
 * Runs the post-turn reflection step. When the gate is closed it returns at once (`ran: false`),
 * reading no store and writing nothing, not even a log record. Otherwise it summarises the turn
 * (`rulebased`, or `llm` replayed from fixtures), embeds the summary when `reflection.embed`, writes
 * at most `opsReflection` entries to `options.memory` in one transaction, and writes one log record.
 * Every failure is fail-soft and recorded in `metrics.reason`; on a timeout or an error nothing is
 * written to memory (the log record is still written).
 *
 * @throws {ConfigError} when `config` is invalid (validate it once at startup with `validateReflectionConfig`).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const result = await reflect(
 *   { agent: 'AgentA', turn: 1, nowIso: '2025-01-01T00:00:00Z', utter: 'Done: fixed the parser.', snippets, plan: { reflection: true } },
 *   { allowReflection: true },
 *   { memory: reflectionMemoryStore(memoryStore()), log: lines, ci: true },
 * );
 * ```
 */
export async function reflect(
  bundle: ReflectionBundle,
  config: ReflectionConfig | Record<string, unknown>,
  options: ReflectOptions = {},
): Promise<ReflectionResult> {
  const [result] = await reflectBatch([bundle], config, options);
  return result!;
}

/**
 * Reflects several agents' turns as one batch: summaries are computed
 * concurrently; memory writes and log records are then applied in a deterministic order (turn, then
 * agent id in code point order, then position), so stores and logs are identical however the work
 * interleaves. Results come back in input order.
 *
 * @throws {ConfigError} when `config` is invalid.
 *
 * @example
 * ```ts
 * const results = await reflectBatch([bundleB, bundleA], config, { memory, log: lines, ci: true });
 * ```
 */
export async function reflectBatch(
  bundles: readonly ReflectionBundle[],
  config: ReflectionConfig | Record<string, unknown>,
  options: ReflectOptions = {},
): Promise<ReflectionResult[]> {
  const cfg = validateReflectionConfig(config);
  const clock = options.clock ?? defaultClock();
  const results: ReflectionResult[] = new Array(bundles.length);
  const running: number[] = [];
  for (let i = 0; i < bundles.length; i++) {
    const gate = reflectionGate(cfg, bundles[i]!, options);
    if (gate.run) running.push(i);
    else results[i] = skippedResult(cfg, gate.skipped);
  }
  if (!running.length) return results;

  const adapter = cfg.reflection.backend === 'llm' ? lazyAdapter(cfg, options) : undefined;
  const prepared = await Promise.all(
    running.map((i) => prepare(i, bundles[i]!, cfg, options, clock, adapter)),
  );
  prepared.sort((a, b) => a.turn - b.turn || compareCodePoints(a.agent, b.agent) || a.index - b.index);

  const records: ReflectionLogRecord[] = [];
  for (const p of prepared) {
    const result = await commit(p, cfg, options, clock);
    results[p.index] = result;
    if (cfg.reflection.log && options.log !== undefined) records.push(result.log!);
  }
  if (records.length) {
    try {
      await writeReflectionLog(options.log!, records);
    } catch (err) {
      for (const p of prepared) {
        const m = results[p.index]!.metrics;
        if (m.reason === null) m.reason = `log_error:${errorName(err)}`;
      }
    }
  }
  return results;
}

/** One reflection computed but not yet written. */
interface Prepared {
  index: number;
  agent: string;
  turn: number;
  start: number;
  summary: string;
  entries: ReflectionMemoryEntry[];
  fixtureKey?: string;
  reason: string | null;
}

class ReflectionTimeout extends Error {}

const BundleSchema = v.object({
  agent: v.optional(v.string()),
  turn: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  nowIso: v.optional(v.string()),
  utter: v.string(),
  snippets: v.optional(v.array(v.string())),
});

async function prepare(
  index: number,
  bundle: ReflectionBundle,
  cfg: ReflectionConfig,
  options: ReflectOptions,
  clock: () => number,
  adapter: (() => Promise<ReflectionLlmAdapter>) | undefined,
): Promise<Prepared> {
  const start = clock();
  const agent = typeof bundle?.agent === 'string' && bundle.agent !== '' ? bundle.agent : 'unknown';
  const turn = Number.isInteger(bundle?.turn) && bundle.turn! >= 0 ? bundle.turn! : 0;
  const out: Prepared = { index, agent, turn, start, summary: '', entries: [], reason: null };
  // The work may outlive a real-timer timeout: it returns its outcome instead of touching `out`.
  let fixtureKey: string | undefined;
  const { summaryTokens, topkSnippets, backend } = cfg.reflection;
  const budget = cfg.budgets.timeMsReflection;
  const checkpoint = () => {
    if (clock() - start > budget) throw new ReflectionTimeout();
  };

  const work = async (): Promise<Pick<Prepared, 'summary' | 'entries' | 'reason'>> => {
    const parsed = v.safeParse(BundleSchema, bundle);
    if (!parsed.success) {
      throw new ValidationError(
        parsed.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })),
        { subject: 'Reflection bundle' },
      );
    }
    const snippets = bundle.snippets ?? [];
    let summary: string;
    if (backend === 'rulebased') {
      summary = rulebasedSummary(bundle.utter, snippets, { summaryTokens, topkSnippets });
    } else {
      const prompt = turnSummaryPrompt(
        {
          agent,
          turn,
          utter: bundle.utter,
          snippets,
          planReflection: coerceReflectionFlag(bundle.plan?.reflection),
        },
        { summaryTokens, topkSnippets },
      );
      const json = reflectionPromptJson(prompt);
      const { promptHash, fixtureKey: key } = await reflectionPromptHash(json);
      fixtureKey = key;
      let completion: unknown;
      try {
        const a = await adapter!();
        completion = await a.generate(json, {
          maxTokens: summaryTokens,
          temperature: 0,
          promptHash,
          fixtureKey: key,
        });
      } catch (err) {
        if (err instanceof ReflectionTimeout || err instanceof FixtureMissingError) throw err;
        throw new FixtureMissingError(`Reflection fixture lookup failed for key ${key}`, {
          fixtureKey: key,
          cause: err,
        });
      }
      const text = typeof completion === 'string' ? normalizeText(completion, { keepPunct: true }) : '';
      if (!text)
        throw new FixtureMissingError(`Empty reflection fixture for key ${key}`, { fixtureKey: key });
      summary = truncateTokens(text, summaryTokens);
    }
    checkpoint();

    const entries: ReflectionMemoryEntry[] = [];
    let reason: string | null = null;
    if (summary !== '' && cfg.budgets.opsReflection > 0) {
      const entry: ReflectionMemoryEntry = {
        owner: agent,
        ts: typeof bundle.nowIso === 'string' ? bundle.nowIso : DEFAULT_TS,
        text: summary,
        tags: ['reflection'],
        kind: 'summary',
      };
      if (cfg.reflection.embed) {
        try {
          entry.vecFull = await embed(summary, options);
        } catch (err) {
          if (err instanceof ReflectionTimeout) throw err;
          reason = `embed_error:${errorName(err)}`;
        }
      }
      entries.push(entry);
    }
    checkpoint();
    return { summary, entries: entries.slice(0, cfg.budgets.opsReflection), reason };
  };

  try {
    Object.assign(out, await raceBudget(work(), budget, options.clock === undefined));
  } catch (err) {
    out.reason = err instanceof ReflectionTimeout ? 'reflection_timeout' : `reflect_error:${errorName(err)}`;
  }
  if (fixtureKey !== undefined) out.fixtureKey = fixtureKey;
  return out;
}

async function commit(
  p: Prepared,
  cfg: ReflectionConfig,
  options: ReflectOptions,
  clock: () => number,
): Promise<ReflectionResult> {
  let { entries, reason, summary } = p;
  if (entries.length && clock() - p.start > cfg.budgets.timeMsReflection) {
    entries = [];
    summary = '';
    reason = 'reflection_timeout';
  }
  if (entries.length && options.memory !== undefined) {
    try {
      const store = typeof options.memory === 'function' ? options.memory(p.agent) : options.memory;
      await store.append(entries);
    } catch (err) {
      entries = [];
      reason = `reflect_error:${errorName(err)}`;
    }
  }
  const ms = options.ci ? 0 : Math.round((clock() - p.start) * 1000) / 1000;
  const summaryLen = countWhitespaceTokens(summary);
  const metrics: ReflectionMetrics = {
    backend: cfg.reflection.backend,
    summaryLen,
    embed: cfg.reflection.embed,
    opsWritten: entries.length,
    ms,
    reason,
  };
  const log: ReflectionLogRecord = {
    turn: p.turn,
    agent: p.agent,
    backend: cfg.reflection.backend,
    summary_len: summaryLen,
    ops_written: entries.length,
    embed: cfg.reflection.embed,
    ms,
    reason,
  };
  if (p.fixtureKey !== undefined) {
    metrics.fixtureKey = p.fixtureKey;
    log.fixture_key = p.fixtureKey;
  }
  return { ran: true, summary, memoryEntries: entries, metrics, log };
}

function skippedResult(cfg: ReflectionConfig, skipped: ReflectionSkip): ReflectionResult {
  return {
    ran: false,
    skipped,
    summary: '',
    memoryEntries: [],
    metrics: {
      backend: cfg.reflection.backend,
      summaryLen: 0,
      embed: cfg.reflection.embed,
      opsWritten: 0,
      ms: 0,
      reason: null,
    },
  };
}

async function embed(text: string, options: ReflectOptions): Promise<number[]> {
  if (!options.embedder) return deterministicEmbedding(text, EMBEDDING_DIM);
  const vec = await options.embedder(text);
  if (!Array.isArray(vec) || !vec.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new ValidationError([{ path: '', message: 'must be an array of finite numbers' }], {
      subject: 'Embedding',
    });
  }
  return [...vec];
}

/** Loads the fixture adapter at most once per batch, only when an `llm` reflection needs it. */
function lazyAdapter(cfg: ReflectionConfig, options: ReflectOptions): () => Promise<ReflectionLlmAdapter> {
  let loading: Promise<ReflectionLlmAdapter> | undefined;
  return () => {
    loading ??= (async () => {
      const f = options.fixtures;
      if (typeof f === 'string') return reflectionFixtureAdapter(f);
      if (f !== undefined) return f;
      return loadReflectionFixtures(cfg, {
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      });
    })();
    return loading;
  };
}

/**
 * Bounds `work` by the time budget with a real timer, only when the clock is the real one (an
 * injected clock is checked at step boundaries, which keeps tests exact).
 */
async function raceBudget<T>(work: Promise<T>, budgetMs: number, realTimer: boolean): Promise<T> {
  const g = globalThis as {
    setTimeout?: (fn: () => void, ms: number) => unknown;
    clearTimeout?: (id: unknown) => void;
  };
  if (!realTimer || typeof g.setTimeout !== 'function') return work;
  let id: unknown;
  const timer = new Promise<never>((_, reject) => {
    id = g.setTimeout!(() => reject(new ReflectionTimeout()), budgetMs + 1);
  });
  try {
    return await Promise.race([work, timer]);
  } finally {
    g.clearTimeout?.(id);
  }
}

function errorName(err: unknown): string {
  const name = (err as { name?: unknown } | null)?.name;
  const s = typeof name === 'string' && name ? name : 'Error';
  return s.replace(/[^A-Za-z0-9_]/g, '_');
}

function defaultClock(): () => number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf && typeof perf.now === 'function' ? () => perf.now() : Date.now;
}

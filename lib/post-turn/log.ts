/**
 * `t3_reflection.jsonl`, post-turn reflection's log: the record, its canonical JSONL line, the sinks
 * it can be written to, and the microbench object.
 */
import { canonicalJson, compareCodePoints } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import type { ReflectionBackend, ReflectionConfig } from './config.js';

/**
 * The log's file name, `t3_reflection.jsonl` (as the Python reference names it).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * await reflect(bundle, config, { log: lines });
 * await writeFile(REFLECTION_LOG_FILE, lines.map((l) => `${l}\n`).join(''));
 * ```
 */
export const REFLECTION_LOG_FILE = 't3_reflection.jsonl';
/**
 * The log's stage ordinal (the Python reference's `STAGE_ORD["t3_reflection.jsonl"] = 10`), for
 * orchestrators that stage logs.
 *
 * @example
 * ```ts
 * const stages = [{ file: REFLECTION_LOG_FILE, ord: REFLECTION_LOG_STAGE_ORD }, ...otherStages];
 * stages.sort((a, b) => a.ord - b.ord);
 * ```
 */
export const REFLECTION_LOG_STAGE_ORD = 10;
/**
 * Key prefix (`log:t3_reflection:`) of records written to a {@link KeyValueStore} sink.
 *
 * @example
 * ```ts
 * const keys = await kv.keys(REFLECTION_LOG_PREFIX); // every stored record, in flush order
 * ```
 */
export const REFLECTION_LOG_PREFIX = 'log:t3_reflection:';

/** One `t3_reflection.jsonl` record. Not an identity log. */
export interface ReflectionLogRecord {
  turn: number;
  agent: string;
  backend: ReflectionBackend;
  /** Whitespace tokens in the summary. */
  summary_len: number;
  /** Memory entries written. */
  ops_written: number;
  embed: boolean;
  /** Milliseconds spent; 0 when the caller runs in CI (`options.ci`). */
  ms: number;
  /** `null`, `reflection_timeout`, `reflect_error:<Type>` or `embed_error:<Type>`. */
  reason: string | null;
  /** The LLM fixture key (first 12 hex of the prompt's SHA-256); only on the `llm` backend. */
  fixture_key?: string;
}

/** Something with a `write(chunk)` method: a Node/Deno/Bun file stream, a `WritableStreamDefaultWriter`, … */
export interface LineWriter {
  write(chunk: string): unknown;
}

/**
 * Where log records go:
 * - a `string[]`: each record is pushed as one JSONL line (no trailing newline);
 * - a {@link LineWriter}: `write(line + "\n")` per record (awaited when it returns a promise);
 * - a {@link KeyValueStore}: each record stored under `log:t3_reflection:{turn, 12 digits}:{agent}`
 *   (so keys sort in flush order; a rerun of the same agent and turn replaces its record). Read them
 *   back with {@link readReflectionLog}.
 */
export type ReflectionLogSink = string[] | LineWriter | KeyValueStore;

/**
 * The record as one line of JSONL: canonical JSON (sorted keys, Python's `json.dumps` spelling).
 *
 * @example
 * ```ts
 * reflectionLogLine(record); // '{"agent":"AgentA","backend":"rulebased",…,"turn":1}'
 * ```
 */
export function reflectionLogLine(record: ReflectionLogRecord): string {
  return canonicalJson(record);
}

/**
 * Deterministic flush order for a batch: by turn, then agent (code point order); stable otherwise.
 *
 * @example
 * ```ts
 * records.sort(compareReflectionLogRecords);
 * ```
 */
export function compareReflectionLogRecords(a: ReflectionLogRecord, b: ReflectionLogRecord): number {
  return a.turn - b.turn || compareCodePoints(a.agent, b.agent);
}

/**
 * The key a {@link KeyValueStore} sink stores `record` under: {@link REFLECTION_LOG_PREFIX}, the turn
 * zero-padded to 12 digits, `:`, then the URI-encoded agent.
 *
 * @example
 * ```ts
 * reflectionLogKey({ turn: 7, agent: 'Agent A' }); // 'log:t3_reflection:000000000007:Agent%20A'
 * ```
 */
export function reflectionLogKey(record: Pick<ReflectionLogRecord, 'turn' | 'agent'>): string {
  return `${REFLECTION_LOG_PREFIX}${String(record.turn).padStart(12, '0')}:${encodeURIComponent(record.agent)}`;
}

/**
 * Writes records, in the order given, to a sink. Errors propagate (the reflection step swallows them).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * await writeReflectionLog(lines, [record]);
 * ```
 */
export async function writeReflectionLog(
  sink: ReflectionLogSink,
  records: readonly ReflectionLogRecord[],
): Promise<void> {
  if (!records.length) return;
  if (Array.isArray(sink)) {
    for (const r of records) sink.push(reflectionLogLine(r));
  } else if (isKeyValueStore(sink)) {
    await sink.setMany(records.map((r) => [reflectionLogKey(r), { ...r }] as const));
  } else {
    for (const r of records) await sink.write(`${reflectionLogLine(r)}\n`);
  }
}

/**
 * The records a {@link KeyValueStore} sink holds, in flush order.
 *
 * @example
 * ```ts
 * const records = await readReflectionLog(kv);
 * ```
 */
export async function readReflectionLog(kv: KeyValueStore): Promise<ReflectionLogRecord[]> {
  const keys = await kv.keys(REFLECTION_LOG_PREFIX);
  return (await kv.getMany<ReflectionLogRecord>(keys)).filter(
    (r) => r !== undefined,
  ) as ReflectionLogRecord[];
}

function isKeyValueStore(sink: unknown): sink is KeyValueStore {
  const s = sink as Partial<KeyValueStore>;
  return typeof s.setMany === 'function' && typeof s.transact === 'function' && typeof s.get === 'function';
}

/** The reflection microbench object: the config's budgets next to one reflection's outcome. */
export interface ReflectionMicrobench {
  backend: ReflectionBackend;
  allow_reflection: boolean;
  tokens_budget: number;
  summary_len: number;
  ops: number;
  embed: boolean;
  ops_cap: number;
  time_budget_ms: number;
  ms: number;
  reason: string | null;
  fixture_key?: string;
}

/**
 * Builds the microbench object from a config and a reflection's log record.
 *
 * @example
 * ```ts
 * const result = await reflect(bundle, config, { ci: true });
 * console.log(canonicalJson(reflectionMicrobench(config, result.log!)));
 * ```
 */
export function reflectionMicrobench(
  config: ReflectionConfig,
  record: ReflectionLogRecord,
): ReflectionMicrobench {
  const out: ReflectionMicrobench = {
    backend: record.backend,
    allow_reflection: config.allowReflection,
    tokens_budget: config.reflection.summaryTokens,
    summary_len: record.summary_len,
    ops: record.ops_written,
    embed: record.embed,
    ops_cap: config.budgets.opsReflection,
    time_budget_ms: config.budgets.timeMsReflection,
    ms: record.ms,
    reason: record.reason,
  };
  if (record.fixture_key !== undefined) out.fixture_key = record.fixture_key;
  return out;
}

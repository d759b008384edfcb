/**
 * The whole ACE loop after one session, in one call: citations → Reflector → tags → dedup → Curator →
 * budget, every change saved through a `PlaybookStore` (so it is versioned, logged and revertible).
 *
 * @module
 */
import type { LlmClient } from '../llm/index.js';
import {
  type AppliedOperation,
  type BudgetOptions,
  type CuratorDiagnostic,
  type CuratorResult,
  type DedupOptions,
  type DuplicateGroup,
  type Eviction,
  enforceBudget,
  extractCitedIds,
  findDuplicates,
  mergeOperations,
  type Playbook,
  type Provenance,
  type ReflectableMessage,
  type ReflectorDiagnostic,
  type ReflectorResult,
  redactOperations,
  runCurator,
  runReflector,
  sanitizeProvenance,
} from '../playbook/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { ApplyTagsResult, PlaybookStore } from '../store/index.js';

/** Options of {@link reflectSession}. */
export interface ReflectSessionOptions {
  llm: LlmClient;
  /** Playbook id in the store. Default `'default'`. */
  id?: string;
  /** Provenance stamped on what the Curator writes: the session id and the traces it came from. */
  source?: Provenance;
  /**
   * Stops the session's learning: a model call settles at once, and the signal is checked after the
   * Reflector, before the tags, before the Curator and before each store write. Nothing is written
   * after it fires; the result says `aborted: true`.
   */
  signal?: AbortSignal;
  /**
   * Time limit of each model call (Reflector, Curator) in milliseconds, retries included, even for a
   * client that ignores its signal. Default `DEFAULT_MODEL_TIMEOUT_MS` (60,000).
   */
  timeoutMs?: number;
  /** Diagnostics of the Reflector and the Curator, tagged with their role. */
  onDiagnostic?: (
    diagnostic: (ReflectorDiagnostic | CuratorDiagnostic) & { role: 'reflector' | 'curator' },
  ) => void;
  /**
   * Redaction (default on): of the transcript and playbook in the prompts, of the Reflector's analysis,
   * and of every text written to the store (Curator operations, merges).
   */
  redact?: boolean | RedactOptions;
  /** Run the Curator (default true). */
  curate?: boolean;
  /** Merge near-duplicates before curating (default true); an object tunes it. */
  dedup?: boolean | DedupOptions;
  /** Enforce a token budget on the formatted playbook after curating. */
  budget?: Omit<BudgetOptions, 'protect'>;
  /** Most Curator operations per session. Default 10. */
  maxOperations?: number;
}

/** What {@link reflectSession} changed. */
export interface ReflectSessionResult {
  id: string;
  citedIds: string[];
  reflection: ReflectorResult;
  /** What applyTags did (skipped tags with reasons). */
  tags: ApplyTagsResult;
  /** Near-duplicate groups merged. */
  merged: DuplicateGroup[];
  /** The Curator's proposals (validated) and its refusals. */
  curator: CuratorResult;
  /** Operations the store applied, in order (merges, curator operations, evictions). */
  applied: AppliedOperation[];
  /** Operations the store refused, with the reason (e.g. a target that does not exist). */
  rejected: { op: unknown; reason: string }[];
  /** Key points evicted to meet the budget. */
  evicted: Eviction[];
  /** Content version after the session. */
  version: number;
  /** The playbook after the session. */
  playbook: Playbook;
  /** True when the signal stopped the session before its last step (nothing was written after it). */
  aborted: boolean;
}

/**
 * Learns from one finished session: extracts the cited ids, runs the Reflector (never fails), applies
 * its tags atomically, merges near-duplicates, runs the Curator and applies its operations, then
 * enforces the token budget — each step saved through `store` as its own logged version. The LLM steps
 * degrade gracefully (no tags, no operations; each model call bounded by `timeoutMs`); store errors
 * are thrown. Every text is redacted before it is written unless `redact: false`. An abort stops at the
 * next step: nothing is written after the signal fires, and the result says `aborted: true`.
 *
 * @example
 * ```ts
 * const playbooks = playbookStore(idbStore('my-app', 'playbooks'));
 * const out = await reflectSession(messages, playbooks, { llm, source: { session: 'sess-42' }, budget: { maxTokens: 4000 } });
 * console.log(out.applied, out.rejected, out.evicted);
 * ```
 */
export async function reflectSession(
  messages: readonly ReflectableMessage[],
  store: PlaybookStore,
  options: ReflectSessionOptions,
): Promise<ReflectSessionResult> {
  const id = options.id ?? 'default';
  const signal = options.signal;
  const source = sanitizeProvenance(options.source);
  const model = {
    llm: options.llm,
    ...(signal ? { signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.redact !== undefined ? { redact: options.redact } : {}),
  };
  const before = await store.open(id);
  const citedIds = extractCitedIds(messages);
  const out: ReflectSessionResult = {
    id,
    citedIds,
    reflection: { analysis: '', keyPointTags: [] },
    tags: { applied: 0, skipped: [], version: before.version },
    merged: [],
    curator: { operations: [], rejected: [], reasoning: '', called: false },
    applied: [],
    rejected: [],
    evicted: [],
    version: before.version,
    playbook: before.playbook,
    aborted: false,
  };
  // Every step that writes goes through here: after an abort nothing more reaches the store.
  const stopped = () => {
    if (signal?.aborted) out.aborted = true;
    return out.aborted;
  };
  // `operations` arrive redacted: runCurator redacts its own with the same `redact` option, merges are
  // redacted below, and the budget's are REMOVEs (no text). Redacting here again would be work twice.
  const write = async (operations: Parameters<typeof redactOperations>[0]) => {
    const res = await store.applyDelta(id, operations);
    out.applied.push(...res.applied);
    out.rejected.push(...res.rejected);
    out.playbook = res.playbook;
    out.version = res.version;
    return res;
  };

  out.reflection = await runReflector(messages, before.playbook, citedIds, {
    ...model,
    onDiagnostic: (d) => options.onDiagnostic?.({ ...d, role: 'reflector' }),
  });
  if (stopped()) return out;
  out.tags = await store.applyTags(id, out.reflection.keyPointTags);
  out.playbook = await store.load(id);
  out.version = out.tags.version;

  if (options.dedup !== false) {
    const groups = findDuplicates(out.playbook, typeof options.dedup === 'object' ? options.dedup : {});
    if (groups.length) {
      if (stopped()) return out;
      out.merged = groups;
      await write(redactOperations(mergeOperations(out.playbook, groups), options.redact));
    }
  }

  const touched = new Set<string>();
  if (options.curate !== false) {
    if (stopped()) return out;
    out.curator = await runCurator(out.reflection, out.playbook, {
      ...model,
      ...(source ? { source } : {}),
      ...(options.maxOperations !== undefined ? { maxOperations: options.maxOperations } : {}),
      onDiagnostic: (d) => options.onDiagnostic?.({ ...d, role: 'curator' }),
    });
    if (out.curator.operations.length) {
      if (stopped()) return out;
      const res = await write(out.curator.operations);
      for (const op of res.applied) {
        if (op.type === 'ADD' || op.type === 'UPDATE') touched.add(op.name);
        else if (op.type === 'MERGE') touched.add(op.into);
      }
    }
  }

  if (options.budget) {
    const res = enforceBudget(out.playbook, { ...options.budget, protect: touched });
    if (res.operations.length) {
      if (stopped()) return out;
      await write(res.operations);
    }
    out.evicted = res.evicted;
  }
  return out;
}

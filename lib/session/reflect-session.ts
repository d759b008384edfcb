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
  signal?: AbortSignal;
  /** Diagnostics of the Reflector and the Curator, tagged with their role. */
  onDiagnostic?: (
    diagnostic: (ReflectorDiagnostic | CuratorDiagnostic) & { role: 'reflector' | 'curator' },
  ) => void;
  /** Redaction of the transcript before the Reflector prompt (default on). */
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
}

/**
 * Learns from one finished session: extracts the cited ids, runs the Reflector (never fails), applies
 * its tags atomically, merges near-duplicates, runs the Curator and applies its operations, then
 * enforces the token budget — each step saved through `store` as its own logged version. The LLM steps
 * degrade gracefully (no tags, no operations); store errors are thrown.
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
  const source = sanitizeProvenance(options.source);
  const applied: AppliedOperation[] = [];
  const rejected: { op: unknown; reason: string }[] = [];
  const before = await store.load(id);
  const citedIds = extractCitedIds(messages);
  const reflection = await runReflector(messages, before, citedIds, {
    llm: options.llm,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.redact !== undefined ? { redact: options.redact } : {}),
    onDiagnostic: (d) => options.onDiagnostic?.({ ...d, role: 'reflector' }),
  });
  const tags = await store.applyTags(id, reflection.bulletTags);
  let playbook = await store.load(id);
  let version = tags.version;

  let merged: DuplicateGroup[] = [];
  if (options.dedup !== false) {
    merged = findDuplicates(playbook, typeof options.dedup === 'object' ? options.dedup : {});
    if (merged.length) {
      const res = await store.applyDelta(id, mergeOperations(playbook, merged));
      applied.push(...res.applied);
      rejected.push(...res.rejected);
      playbook = res.playbook;
      version = res.version;
    }
  }

  let curator: CuratorResult = { operations: [], rejected: [], reasoning: '', called: false };
  const touched = new Set<string>();
  if (options.curate !== false) {
    curator = await runCurator(reflection, playbook, {
      llm: options.llm,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(source ? { source } : {}),
      ...(options.maxOperations !== undefined ? { maxOperations: options.maxOperations } : {}),
      onDiagnostic: (d) => options.onDiagnostic?.({ ...d, role: 'curator' }),
    });
    if (curator.operations.length) {
      const res = await store.applyDelta(id, curator.operations);
      applied.push(...res.applied);
      rejected.push(...res.rejected);
      for (const op of res.applied) {
        if (op.type === 'ADD' || op.type === 'UPDATE') touched.add(op.name);
        else if (op.type === 'MERGE') touched.add(op.into);
      }
      playbook = res.playbook;
      version = res.version;
    }
  }

  let evicted: Eviction[] = [];
  if (options.budget) {
    const res = enforceBudget(playbook, { ...options.budget, protect: touched });
    evicted = res.evicted;
    if (res.operations.length) {
      const out = await store.applyDelta(id, res.operations);
      applied.push(...out.applied);
      rejected.push(...out.rejected);
      playbook = out.playbook;
      version = out.version;
    }
  }
  return { id, citedIds, reflection, tags, merged, curator, applied, rejected, evicted, version, playbook };
}

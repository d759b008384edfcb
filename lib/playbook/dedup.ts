/**
 * Near-duplicate key points, found through an index and merged (not just reported).
 *
 * Similarity is the Jaccard index of word shingles (content words and adjacent word pairs, see
 * `text.ts`). Candidate pairs come from prefix filtering (the AllPairs / PPJoin family): shingles are
 * ranked rarest first, each key point is indexed under the first `|x| − ⌈t·|x|⌉ + 1` of its ranked
 * shingles, and two key points with Jaccard ≥ t always share one of those — so the search is exact
 * (no false negatives, unlike MinHash) yet touches only pairs that share a rare shingle, near-linear on
 * natural text. Identical shingle sets are collapsed first, so even thousands of verbatim copies cost
 * one index entry. Clusters are stars around the most trusted key point, so A≈B and B≈C never drag a
 * dissimilar C into A. Everything is deterministic: no randomness, ties broken by name.
 *
 * @module
 */

import { shingles } from '../core/index.js';
import { checkThreshold, cluster, type DuplicateGroup, itemsOf } from './dedup-index.js';
import { starClusters } from './dedup-stars.js';
import { type ApplyDeltaOptions, applyDelta, type DeltaResult, type MergeOperation } from './delta.js';
import { type KeyPoint, type Playbook, SECTION_NAMES } from './model.js';

export type { DuplicateGroup } from './dedup-index.js';

/**
 * Default Jaccard threshold (0.6) of word shingles at or above which two key points are
 * near-duplicates.
 *
 * @example
 * ```ts
 * const groups = findDuplicates(playbook, { threshold: DEDUP_THRESHOLD }); // same as the default
 * const looser = findDuplicates(playbook, { threshold: DEDUP_THRESHOLD - 0.1 });
 * ```
 */
export const DEDUP_THRESHOLD = 0.6;

/**
 * Default cosine threshold (0.9) for {@link findDuplicatesWithEmbeddings}.
 *
 * @example
 * ```ts
 * const groups = await findDuplicatesWithEmbeddings(playbook, {
 *   embed: (texts) => texts.map((t) => deterministicEmbedding(t)),
 *   embeddingThreshold: EMBEDDING_THRESHOLD,
 * });
 * ```
 */
export const EMBEDDING_THRESHOLD = 0.9;

/** Options of {@link findDuplicates}. */
export interface DedupOptions {
  /** Jaccard threshold in (0, 1]. Default {@link DEDUP_THRESHOLD}. */
  threshold?: number;
  /** Only compare key points of the same section (default true: a pattern and a mistake may share words). */
  sameSection?: boolean;
}

/**
 * Finds near-duplicate key points (lexical; see the module notes for the index). Groups are in
 * playbook order of their survivor.
 *
 * @example
 * ```ts
 * findDuplicates(pb); // [{ into: 'pat-001', names: ['pat-001', 'pat-007'], section: 'PATTERNS & APPROACHES', similarity: 0.8 }]
 * ```
 */
export function findDuplicates(playbook: Playbook, options: DedupOptions = {}): DuplicateGroup[] {
  const threshold = checkThreshold(options.threshold ?? DEDUP_THRESHOLD);
  return cluster(
    playbook,
    threshold,
    options.sameSection ?? true,
    (_i, _j, jac) => (jac >= threshold ? jac : -1),
    false,
  );
}

/** Options of {@link findDuplicatesWithEmbeddings}. */
export interface EmbeddingDedupOptions extends DedupOptions {
  /** Embeds texts (called once per batch, in order); vectors of one length. */
  embed: (texts: string[]) => Promise<number[][]> | number[][];
  /** Cosine threshold. Default {@link EMBEDDING_THRESHOLD}. */
  embeddingThreshold?: number;
  /**
   * Jaccard floor of the candidates the index proposes for the embedding check. Default 0.2: paraphrases
   * share some words; pairs with nothing rare in common are never compared.
   */
  candidateThreshold?: number;
  /** Texts per `embed` call. Default 256. */
  batchSize?: number;
}

/**
 * {@link findDuplicates} with a caller-supplied embedding: a pair is a duplicate when its Jaccard is at
 * least `threshold` or the cosine of its embeddings is at least `embeddingThreshold`. The embedding is
 * checked only on pairs the index proposes at `candidateThreshold`, never on all pairs.
 *
 * @example
 * ```ts
 * const groups = await findDuplicatesWithEmbeddings(pb, { embed: (texts) => myModel.embed(texts) });
 * ```
 */
export async function findDuplicatesWithEmbeddings(
  playbook: Playbook,
  options: EmbeddingDedupOptions,
): Promise<DuplicateGroup[]> {
  const threshold = checkThreshold(options.threshold ?? DEDUP_THRESHOLD);
  const floor = checkThreshold(Math.min(options.candidateThreshold ?? 0.2, threshold));
  const cosMin = options.embeddingThreshold ?? EMBEDDING_THRESHOLD;
  const items = itemsOf(playbook);
  const texts = items.map((it) => it.kp.text);
  const vectors: number[][] = [];
  const batch = Math.max(1, options.batchSize ?? 256);
  for (let i = 0; i < texts.length; i += batch) {
    const out = await options.embed(texts.slice(i, i + batch));
    if (!Array.isArray(out) || out.length !== Math.min(batch, texts.length - i)) {
      throw new TypeError('embed must return one vector per text');
    }
    vectors.push(...out);
  }
  const norms = vectors.map((v) => Math.sqrt(v.reduce((a, x) => a + x * x, 0)));
  return cluster(playbook, floor, options.sameSection ?? true, (i, j, jac) => {
    if (jac >= threshold) return jac;
    const a = vectors[i]!;
    const b = vectors[j]!;
    let dot = 0;
    for (let k = 0; k < a.length; k++) dot += a[k]! * (b[k] ?? 0);
    const cos = norms[i]! && norms[j]! ? dot / (norms[i]! * norms[j]!) : 0;
    return cos >= cosMin ? cos : -1;
  });
}

/**
 * The MERGE operations that fold each group into its survivor (keeping the survivor's text; counters
 * are summed by `applyDelta`).
 *
 * @example
 * ```ts
 * applyDelta(pb, mergeOperations(pb, findDuplicates(pb)));
 * ```
 */
export function mergeOperations(playbook: Playbook, groups: readonly DuplicateGroup[]): MergeOperation[] {
  const byName = new Map<string, KeyPoint>();
  for (const s of SECTION_NAMES) for (const kp of playbook.sections[s]) byName.set(kp.name, kp);
  return groups.map((g) => {
    const survivor = byName.get(g.into);
    return {
      type: 'MERGE',
      names: [...g.names],
      into: g.into,
      text: survivor?.text || g.into,
      ...(survivor?.source ? { source: survivor.source } : {}),
    };
  });
}

/** What {@link deduplicate} did. */
export interface DedupResult extends DeltaResult {
  groups: DuplicateGroup[];
  operations: MergeOperation[];
}

/**
 * Finds near-duplicates and merges them with `applyDelta` (counters summed, survivor keeps its id and
 * text). Returns a new playbook; the input is not modified.
 *
 * @example
 * ```ts
 * const { playbook, groups } = deduplicate(pb, { threshold: 0.7 });
 * ```
 */
export function deduplicate(playbook: Playbook, options: DedupOptions & ApplyDeltaOptions = {}): DedupResult {
  const groups = findDuplicates(playbook, options);
  const operations = mergeOperations(playbook, groups);
  return { ...applyDelta(playbook, operations, options), groups, operations };
}

/**
 * All-pairs reference implementation (quadratic): the baseline the index is measured against in
 * `bench/playbook.bench.ts`, and the oracle of the property tests. Same clustering and output.
 *
 * @example
 * ```ts
 * findDuplicatesAllPairs(smallPlaybook); // same as findDuplicates(smallPlaybook)
 * ```
 * @internal
 */
export function findDuplicatesAllPairs(playbook: Playbook, options: DedupOptions = {}): DuplicateGroup[] {
  const threshold = checkThreshold(options.threshold ?? DEDUP_THRESHOLD);
  const sameSection = options.sameSection ?? true;
  const items = itemsOf(playbook);
  const sets = items.map((it) => new Set(shingles(it.kp.text)));
  const adj: [number, number][][] = items.map(() => []);
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      if (sameSection && items[i]!.section !== items[j]!.section) continue;
      const a = sets[i]!;
      const b = sets[j]!;
      if (!a.size || !b.size) continue;
      let inter = 0;
      for (const x of a) if (b.has(x)) inter++;
      const jac = inter / (a.size + b.size - inter);
      if (jac >= threshold) {
        adj[i]!.push([j, jac]);
        adj[j]!.push([i, jac]);
      }
    }
  }
  return starClusters(items, adj);
}

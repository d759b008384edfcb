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
import {
  type ApplyDeltaOptions,
  applyDelta,
  type DeltaResult,
  type KeyPoint,
  type MergeOperation,
  type Playbook,
  SECTION_NAMES,
  type SectionName,
} from './model.js';
import { compareNames, keyPointConfidence } from './score.js';
import { shingles } from './text.js';

/** Default Jaccard threshold of word shingles above which two key points are near-duplicates. */
export const DEDUP_THRESHOLD = 0.6;

/** Default cosine threshold for {@link findDuplicatesWithEmbeddings}. */
export const EMBEDDING_THRESHOLD = 0.9;

/** Options of {@link findDuplicates}. */
export interface DedupOptions {
  /** Jaccard threshold in (0, 1]. Default {@link DEDUP_THRESHOLD}. */
  threshold?: number;
  /** Only compare key points of the same section (default true: a pattern and a mistake may share words). */
  sameSection?: boolean;
}

/** A group of near-duplicates and the key point they merge into. */
export interface DuplicateGroup {
  /** Survivor: the most trusted member (confidence, then helpful count, then older, then name). */
  into: string;
  /** All members, `into` first, the others by name. */
  names: string[];
  /** Section of the survivor. */
  section: SectionName;
  /** Smallest similarity between the survivor and another member. */
  similarity: number;
}

interface Item {
  kp: KeyPoint;
  section: SectionName;
  index: number;
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
  return cluster(playbook, threshold, options.sameSection ?? true, (_i, _j, jac) =>
    jac >= threshold ? jac : -1,
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

function checkThreshold(t: number): number {
  if (!(t > 0 && t <= 1)) throw new RangeError(`similarity threshold must be in (0, 1], got ${t}`);
  return t;
}

function itemsOf(playbook: Playbook): Item[] {
  const items: Item[] = [];
  for (const section of SECTION_NAMES) {
    const list = playbook.sections[section] ?? [];
    for (let i = 0; i < list.length; i++) items.push({ kp: list[i]!, section, index: i });
  }
  return items;
}

/**
 * Candidate generation by prefix filtering at `floor`, scoring by `score(i, j, jaccard)` (≥ 0 keeps the
 * pair with that similarity), then star clustering.
 */
function cluster(
  playbook: Playbook,
  floor: number,
  sameSection: boolean,
  score: (i: number, j: number, jaccard: number) => number,
): DuplicateGroup[] {
  const items = itemsOf(playbook);
  const n = items.length;
  // 1. Shingles → dense ids, with document frequencies.
  const ids = new Map<string, number>();
  const df: number[] = [];
  const raw: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const sh = shingles(items[i]!.kp.text);
    const row = new Array<number>(sh.length);
    for (let k = 0; k < sh.length; k++) {
      let id = ids.get(sh[k]!);
      if (id === undefined) {
        id = df.length;
        ids.set(sh[k]!, id);
        df.push(0);
      }
      df[id]!++;
      row[k] = id;
    }
    raw[i] = row;
  }
  // 2. Rank shingles rarest first (ties by id, i.e. first appearance: deterministic).
  const order = df.map((_, id) => id).sort((a, b) => df[a]! - df[b]! || a - b);
  const rank = new Int32Array(df.length);
  for (let r = 0; r < order.length; r++) rank[order[r]!] = r;
  // 3. Collapse identical sets (per section when sameSection) into units.
  const unitOf = new Int32Array(n);
  const unitKey = new Map<string, number>();
  const units: { members: number[]; set: Int32Array; section: SectionName }[] = [];
  for (let i = 0; i < n; i++) {
    const set = Int32Array.from(raw[i]!, (id) => rank[id]!).sort();
    const key = `${sameSection ? items[i]!.section : ''}|${set.join(',')}`;
    let u = unitKey.get(key);
    if (u === undefined) {
      u = units.length;
      unitKey.set(key, u);
      units.push({ members: [], set, section: items[i]!.section });
    }
    units[u]!.members.push(i);
    unitOf[i] = u;
  }
  // 4. AllPairs over units, shortest sets first. A unit probes with its first |x| − ⌈t|x|⌉ + 1 shingles
  //    and is indexed under its first |x| − ⌈2t/(1+t)·|x|⌉ + 1: every unit already indexed is no longer
  //    than the prober, so Jaccard ≥ t needs an overlap of at least 2t/(1+t)·|y| (PPJoin's index prefix).
  const adjUnits: [number, number][][] = units.map(() => []);
  const byLength = units
    .map((_, u) => u)
    .filter((u) => units[u]!.set.length > 0)
    .sort((a, b) => units[a]!.set.length - units[b]!.set.length || a - b);
  const postings = new Map<number, number[]>();
  const seenStamp = new Int32Array(units.length).fill(-1);
  const eps = 1e-9;
  for (const u of byLength) {
    const x = units[u]!.set;
    const prefix = x.length - Math.ceil(floor * x.length - eps) + 1;
    const minLen = floor * x.length - eps;
    for (let k = 0; k < prefix; k++) {
      const list = postings.get(x[k]!);
      if (!list) continue;
      for (const w of list) {
        if (seenStamp[w] === u) continue;
        seenStamp[w] = u;
        const y = units[w]!.set;
        if (y.length < minLen) continue;
        if (sameSection && units[w]!.section !== units[u]!.section) continue;
        const inter = intersectSorted(x, y);
        const jac = inter / (x.length + y.length - inter);
        if (jac + eps < floor) continue;
        adjUnits[u]!.push([w, jac]);
        adjUnits[w]!.push([u, jac]);
      }
    }
    const indexPrefix = x.length - Math.ceil(((2 * floor) / (1 + floor)) * x.length - eps) + 1;
    for (let k = 0; k < indexPrefix; k++) {
      let list = postings.get(x[k]!);
      if (!list) {
        list = [];
        postings.set(x[k]!, list);
      }
      list.push(u);
    }
  }
  // 5. Expand to items and score the pairs.
  const adj: [number, number][][] = items.map(() => []);
  for (let u = 0; u < units.length; u++) {
    const members = units[u]!.members;
    for (const [w, jac] of adjUnits[u]!) {
      if (w < u) continue; // each unit pair once
      for (const i of members) {
        for (const j of units[w]!.members) {
          const s = score(i, j, jac);
          if (s >= 0) {
            adj[i]!.push([j, s]);
            adj[j]!.push([i, s]);
          }
        }
      }
    }
  }
  // Identical shingle sets (Jaccard 1, never empty) are mates: linked implicitly, not pair by pair.
  const mates = (i: number): readonly number[] => {
    const unit = units[unitOf[i]!]!;
    return unit.set.length > 0 ? unit.members : [];
  };
  return starClusters(items, adj, mates);
}

function intersectSorted(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/** Survivor order: most trusted first (confidence, helpful count, older, name). */
function compareSurvivor(a: KeyPoint, b: KeyPoint): number {
  const ca = keyPointConfidence(a);
  const cb = keyPointConfidence(b);
  if (ca !== cb) return cb - ca;
  if (a.helpful !== b.helpful) return b.helpful - a.helpful;
  const ta = a.createdAt ?? '';
  const tb = b.createdAt ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return compareNames(a.name, b.name);
}

/** Greedy star clustering: the best unassigned key point takes its unassigned neighbours. */
function starClusters(
  items: Item[],
  adj: [number, number][][],
  mates: (i: number) => readonly number[] = () => [],
): DuplicateGroup[] {
  const candidates = items.map((_, i) => i).filter((i) => adj[i]!.length > 0 || mates(i).length > 1);
  candidates.sort((a, b) => compareSurvivor(items[a]!.kp, items[b]!.kp));
  const assigned = new Uint8Array(items.length);
  const taken = new Int32Array(items.length).fill(-1);
  const groups: (DuplicateGroup & { pos: number })[] = [];
  for (const c of candidates) {
    if (assigned[c]) continue;
    const members: number[] = [];
    let similarity = 1;
    taken[c] = c;
    for (const j of mates(c)) {
      if (assigned[j] || taken[j] === c) continue;
      taken[j] = c;
      members.push(j);
    }
    for (const [j, s] of adj[c]!) {
      if (assigned[j] || taken[j] === c) continue;
      taken[j] = c;
      members.push(j);
      if (s < similarity) similarity = s;
    }
    if (!members.length) continue;
    assigned[c] = 1;
    for (const j of members) assigned[j] = 1;
    const names = members.map((j) => items[j]!.kp.name).sort(compareNames);
    groups.push({
      into: items[c]!.kp.name,
      names: [items[c]!.kp.name, ...names],
      section: items[c]!.section,
      similarity: Math.round(similarity * 1e6) / 1e6,
      pos: c,
    });
  }
  groups.sort((a, b) => a.pos - b.pos);
  return groups.map(({ pos: _pos, ...g }) => g);
}

/**
 * The deterministic active-context snapshot: keyword categorization (negation- and resolution-aware),
 * links and paths to evidence, exact duplicates collapsed by comparable key, near duplicates
 * consolidated through MinHash-LSH buckets (never all pairs), items ranked by relevance to the
 * objective and recency, capped per category and per item.
 */
import { classify, scopeCategory, taskCategory } from './classify.js';
import { clip, comparableKey, contentTerms, findLinks, hash32, squash, words } from './text.js';
import type {
  ActiveContextSnapshot,
  DroppedItem,
  SnapshotCategory,
  SnapshotInput,
  SnapshotOptions,
  SnapshotTrace,
  TracedItem,
} from './types.js';

/** Default cap on items per category (the seed's `MAX_CATEGORY_ITEMS`). */
export const MAX_CATEGORY_ITEMS = 25;
/** Default cap on characters per item (the seed's `MAX_TEXT_LENGTH`). */
export const MAX_TEXT_LENGTH = 260;
/** Default Jaccard similarity (of stemmed content words) from which near duplicates are consolidated. */
export const NEAR_DUPLICATE_THRESHOLD = 0.6;

/** The list fields in output order. */
export const CATEGORIES: readonly SnapshotCategory[] = [
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
];

const CATEGORY_INDEX: Record<SnapshotCategory, number> = {
  openHypotheses: 0,
  blockers: 1,
  nextActions: 2,
  unresolvedQuestions: 3,
  requiredEvidenceLinks: 4,
};

/** A candidate item before consolidation. */
interface Candidate {
  cat: number;
  text: string;
  key: string;
  terms: string[];
  sources: string[];
  iteration: number;
  order: number;
  score: number;
}

// MinHash-LSH: 8 hash functions in 4 bands of 2. P(candidate) = 1 − (1 − J²)⁴: 0.83 at J = 0.6,
// 0.99 at J = 0.8. Candidates are verified with the exact Jaccard, so the LSH only prunes pairs.
const BANDS = 4;
const ROWS = 2;
const SEEDS_A = [
  0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646c, 0xfd7046c5, 0xb55a4f09,
];
const SEEDS_B = [
  0x7f4a7c15, 0x2545f491, 0x4f1bbcdd, 0x68e31da4, 0x5a17c3c1, 0x1b873593, 0xcc9e2d51, 0xe6546b64,
];
/** Representatives compared per bucket: bounds the work when many dissimilar items share a bucket. */
const BUCKET_PROBE_LIMIT = 8;

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function signature(terms: readonly string[], out: number[]): void {
  for (let k = 0; k < BANDS * ROWS; k++) out[k] = 0xffffffff;
  for (const t of terms) {
    const h = hash32(t);
    for (let k = 0; k < BANDS * ROWS; k++) {
      const v = mix((Math.imul(h, SEEDS_A[k]!) + SEEDS_B[k]!) >>> 0);
      if (v < out[k]!) out[k] = v;
    }
  }
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  let inter = 0;
  if (large.length > 8) {
    const s = new Set(large);
    for (const t of small) if (s.has(t)) inter++;
  } else {
    for (const t of small) if (large.includes(t)) inter++;
  }
  return inter / (a.length + b.length - inter);
}

/** Relevance to the objective (share of its terms present) weighed with recency. */
function scoreOf(terms: readonly string[], objective: ReadonlySet<string>, recency: number): number {
  let hits = 0;
  if (objective.size > 0) for (const t of terms) if (objective.has(t)) hits++;
  const relevance = objective.size > 0 ? Math.min(1, hits / Math.min(objective.size, 3)) : 0;
  return Math.round((0.7 * relevance + 0.3 * recency) * 1e6) / 1e6;
}

/** {@link comparableKey} from words already split. */
function keyOf(ws: readonly string[]): string {
  const k = ws.join(' ');
  return k.indexOf("'") < 0 ? k : k.replace(/'/g, ' ');
}

/** Byte-stable order: score, then recency, then input order. */
function byRank(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.iteration - a.iteration || a.order - b.order;
}

/**
 * The deterministic active-context snapshot. Pure, synchronous, linear in the input (plus one sort);
 * byte-identical output in every runtime.
 *
 * @example
 * ```ts
 * const snapshot = deterministicSnapshot({
 *   objective: 'Fix the flaky retry test',
 *   entries: [
 *     { scope: 'notes', key: 'ci', value: 'CI is red: retry test failing', sourceIteration: 2 },
 *     { scope: 'notes', key: 'log', value: 'no error found in lib/retry.ts', sourceIteration: 3 },
 *   ],
 * });
 * snapshot.blockers; // ['CI is red: retry test failing']
 * snapshot.requiredEvidenceLinks; // ['lib/retry.ts']
 * ```
 */
export function deterministicSnapshot(
  input: SnapshotInput,
  options: SnapshotOptions = {},
): ActiveContextSnapshot {
  return build(input, options, false).snapshot;
}

/**
 * {@link deterministicSnapshot} with its audit: every kept item with the entries it came from, and
 * every dropped entry or item with the reason.
 *
 * @example
 * ```ts
 * const { kept, dropped, consolidatedCount } = deterministicSnapshotWithTrace(input);
 * ```
 */
export function deterministicSnapshotWithTrace(
  input: SnapshotInput,
  options: SnapshotOptions = {},
): SnapshotTrace {
  return build(input, options, true);
}

function build(input: SnapshotInput, options: SnapshotOptions, trace: boolean): SnapshotTrace {
  const maxItems = options.maxCategoryItems ?? MAX_CATEGORY_ITEMS;
  const maxText = options.maxTextLength ?? MAX_TEXT_LENGTH;
  const threshold = options.nearDuplicateThreshold ?? NEAR_DUPLICATE_THRESHOLD;
  const entries = input.entries ?? [];
  const tasks = input.tasks ?? [];
  const dropped: DroppedItem[] = [];
  const objectiveText = squash(String(input.objective ?? ''));
  const objectiveTerms = new Set(contentTerms(words(objectiveText)));

  let minIter = Number.POSITIVE_INFINITY;
  let maxIter = Number.NEGATIVE_INFINITY;
  for (const e of entries) {
    const it = Number(e.sourceIteration) || 0;
    if (it < minIter) minIter = it;
    if (it > maxIter) maxIter = it;
  }
  if (!(maxIter >= minIter)) {
    minIter = 0;
    maxIter = 0;
  }
  const span = maxIter - minIter;
  const recencyOf = (it: number) => (span > 0 ? (it - minIter) / span : 1);

  // 1. Categorize, and collapse exact duplicates (same category, same comparable key) on the way.
  const byKey = CATEGORIES.map(() => new Map<string, Candidate>());
  const candidates: Candidate[] = [];
  let candidateCount = 0;
  let consolidatedCount = 0;
  const add = (
    cat: SnapshotCategory,
    text: string,
    source: string,
    iteration: number,
    ws: string[] | null,
  ) => {
    const key = cat === 'requiredEvidenceLinks' ? text : ws ? keyOf(ws) : comparableKey(text);
    if (key === '') return;
    candidateCount++;
    const ci = CATEGORY_INDEX[cat];
    const existing = byKey[ci]!.get(key);
    if (existing) {
      consolidatedCount++;
      if (!existing.sources.includes(source)) existing.sources.push(source);
      if (iteration > existing.iteration) {
        existing.iteration = iteration;
        existing.text = text; // the most recent wording wins
      }
      if (trace) dropped.push({ text, reason: 'duplicate', sources: [source], category: cat });
      return;
    }
    const terms = contentTerms(ws ?? words(text));
    const c: Candidate = {
      cat: ci,
      text,
      key,
      terms,
      sources: [source],
      iteration,
      order: candidates.length,
      score: 0,
    };
    byKey[ci]!.set(key, c);
    candidates.push(c);
  };

  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const source = `m${i + 1}`;
    const text = squash(String(e.value ?? ''));
    if (text === '') continue;
    const iteration = Number(e.sourceIteration) || 0;
    const forced = scopeCategory(String(e.scope ?? ''));
    const links = findLinks(text);
    for (const link of links) add('requiredEvidenceLinks', link, source, iteration, null);
    if (forced === 'requiredEvidenceLinks') {
      if (links.length === 0) add('requiredEvidenceLinks', text, source, iteration, null);
      continue;
    }
    const ws = words(text);
    const { category } = classify(ws, text, forced);
    if (category) add(category, text, source, iteration, ws);
    else if (trace) {
      const { resolved } = classify(ws, text, undefined);
      dropped.push({ text, reason: resolved ? 'resolved' : 'uncategorized', sources: [source] });
    }
  }
  for (const t of tasks) {
    const cat = taskCategory(String(t.status ?? ''));
    const title = squash(String(t.title ?? ''));
    const source = `task:${t.id}`;
    if (cat && title) add(cat, title, source, maxIter, null);
    else if (trace && title) dropped.push({ text: title, reason: 'resolved', sources: [source] });
  }

  // 2. Rank by relevance to the objective and recency.
  for (const c of candidates) c.score = scoreOf(c.terms, objectiveTerms, recencyOf(c.iteration));
  candidates.sort(byRank);

  // 3. Consolidate near duplicates in rank order: each item is compared only with representatives
  // that share an LSH bucket, so the work is linear. The best-ranked member keeps its wording.
  // One map per category and band, keyed by a small integer mixed from the band's two hashes.
  const buckets: Map<number, Candidate[]>[] = Array.from(
    { length: CATEGORIES.length * BANDS },
    () => new Map(),
  );
  const sig: number[] = new Array(BANDS * ROWS).fill(0);
  const keys: number[] = new Array(BANDS).fill(0);
  const lists: Candidate[][] = CATEGORIES.map(() => []);
  const mergedInto = new Map<Candidate, Candidate>();
  for (const c of candidates) {
    // Without a trace, an item of a full category can change nothing in the output: skip its hashing.
    if (!trace && lists[c.cat]!.length >= maxItems) continue;
    let rep: Candidate | undefined;
    const hashed = c.cat !== 4 && c.terms.length >= 2;
    if (hashed) {
      signature(c.terms, sig);
      for (let b = 0; b < BANDS; b++) {
        const k = (sig[b * ROWS]! ^ Math.imul(sig[b * ROWS + 1]!, 0x9e3779b1)) & 0x3fffffff;
        keys[b] = k;
        if (rep) continue;
        const bucket = buckets[c.cat * BANDS + b]!.get(k);
        if (!bucket) continue;
        for (let j = 0; j < bucket.length && j < BUCKET_PROBE_LIMIT; j++) {
          if (jaccard(c.terms, bucket[j]!.terms) >= threshold) {
            rep = bucket[j]!;
            break;
          }
        }
      }
    }
    if (rep) {
      consolidatedCount++;
      for (const s of c.sources) if (!rep.sources.includes(s)) rep.sources.push(s);
      if (trace) mergedInto.set(c, rep);
      continue;
    }
    if (hashed) {
      for (let b = 0; b < BANDS; b++) {
        const map = buckets[c.cat * BANDS + b]!;
        const bucket = map.get(keys[b]!);
        if (bucket) bucket.push(c);
        else map.set(keys[b]!, [c]);
      }
    }
    lists[c.cat]!.push(c);
  }

  // 4. Caps.
  const snapshot: ActiveContextSnapshot = {
    currentObjective: clip(objectiveText, maxText),
    openHypotheses: [],
    blockers: [],
    nextActions: [],
    unresolvedQuestions: [],
    requiredEvidenceLinks: [],
  };
  const kept: TracedItem[] = [];
  for (let ci = 0; ci < CATEGORIES.length; ci++) {
    const cat = CATEGORIES[ci]!;
    const list = lists[ci]!;
    const out = snapshot[cat];
    for (let j = 0; j < list.length; j++) {
      const c = list[j]!;
      if (j >= maxItems) {
        if (trace) dropped.push({ text: c.text, reason: 'over_cap', sources: c.sources, category: cat });
        continue;
      }
      const text = clip(c.text, maxText);
      out.push(text);
      if (trace) kept.push({ category: cat, text, sources: c.sources, score: c.score });
    }
  }
  if (trace) {
    for (const [c, rep] of mergedInto) {
      dropped.push({
        text: c.text,
        reason: 'near_duplicate',
        into: rep.text,
        sources: c.sources,
        category: CATEGORIES[c.cat]!,
      });
    }
  }
  return { snapshot, kept, dropped, candidateCount, consolidatedCount };
}

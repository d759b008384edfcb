/**
 * The deterministic active-context snapshot: keyword categorization (negation- and resolution-aware),
 * links and paths to evidence, exact duplicates collapsed by comparable key, near duplicates
 * consolidated through MinHash-LSH buckets (never all pairs), items ranked by relevance to the
 * objective and recency, capped per category and per item.
 */
import { classify, classifyFlags, RESOLVED_CODE, scopeCategory, taskCategory } from './classify.js';
import { clip, comparableKey, contentTerms, findLinks, findLinksFrom, squash, words } from './text.js';
import type {
  ActiveContextSnapshot,
  DroppedItem,
  SnapshotCategory,
  SnapshotInput,
  SnapshotOptions,
  SnapshotTrace,
  TracedItem,
} from './types.js';
import { keyHash, MINHASHES, scanWords, Vocabulary } from './vocab.js';

/**
 * Default cap on items per category (`MAX_CATEGORY_ITEMS` of the snapshot specification).
 *
 * @example
 * ```ts
 * deterministicSnapshot(input, { maxCategoryItems: MAX_CATEGORY_ITEMS / 5 }); // a tighter snapshot
 * ```
 */
export const MAX_CATEGORY_ITEMS = 25;
/**
 * Default cap on characters per item (`MAX_TEXT_LENGTH` of the snapshot specification); longer items end with `…`.
 *
 * @example
 * ```ts
 * deterministicSnapshot(input, { maxTextLength: MAX_TEXT_LENGTH * 2 });
 * ```
 */
export const MAX_TEXT_LENGTH = 260;
/**
 * Default Jaccard similarity (of stemmed content words) from which near duplicates are consolidated.
 *
 * @example
 * ```ts
 * deterministicSnapshot(input, { nearDuplicateThreshold: NEAR_DUPLICATE_THRESHOLD + 0.2 }); // merge less
 * ```
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.6;

/**
 * The list fields of an {@link ActiveContextSnapshot}, in output order.
 *
 * @example
 * ```ts
 * for (const category of CATEGORIES) console.log(category, snapshot[category].length);
 * ```
 */
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
  /** The comparable key (the link itself for evidence), built only when a key hash is shared. */
  key: string | null;
  /** Another candidate of the category whose key has the same hash. */
  sameHash: Candidate | null;
  /** Its content terms, as vocabulary ids. */
  terms: number[];
  sources: string[];
  /** Membership of `sources` once it grows (merges can make it long): keeps additions linear. */
  sourceSet: Set<string> | null;
  iteration: number;
  order: number;
  score: number;
}

/**
 * What one distinct entry text says, computed once per build however often the text repeats (memory
 * entries often do): the squashed text, its links, words, classification, key and terms.
 */
interface Analysis {
  text: string;
  links: string[];
  /** The candidate each link became, once it did. */
  linkCands: (Candidate | null)[] | null;
  /** Whether the words were read (only when the text needs them). */
  read: boolean;
  /** Whether there are none. */
  empty: boolean;
  /** The words' ids in the vocabulary (ASCII text), else null. */
  ids: number[] | null;
  /** `words(text)` when not ASCII, else null. */
  ws: string[] | null;
  /** {@link keyHash} of the comparable key. */
  keyHash: number;
  /** The category without a forcing scope (`undefined` when uncategorized or resolved). */
  category: SnapshotCategory | undefined;
  resolved: boolean;
  key: string | null;
  terms: number[] | null;
  /** The candidate this text became (in category `candCat`), so a repeat skips the key look-up. */
  cand: Candidate | null;
  candCat: number;
}

/** The sources of every candidate when there is no trace to show them (never written). */
const NO_SOURCES: string[] = [];

/** Adds `source` to `c.sources` unless present, in constant time once the list is long. */
function addSource(c: Candidate, source: string): void {
  const sources = c.sources;
  let set = c.sourceSet;
  if (set === null) {
    if (sources.length < 16) {
      if (!sources.includes(source)) sources.push(source);
      return;
    }
    set = c.sourceSet = new Set(sources);
  }
  if (!set.has(source)) {
    set.add(source);
    sources.push(source);
  }
}

// MinHash-LSH: 8 hash functions in 4 bands of 2. P(candidate) = 1 − (1 − J²)⁴: 0.83 at J = 0.6,
// 0.99 at J = 0.8. Candidates are verified with the exact Jaccard, so the LSH only prunes pairs.
const BANDS = 4;
const ROWS = 2;
/** Representatives compared per bucket: bounds the work when many dissimilar items share a bucket. */
const BUCKET_PROBE_LIMIT = 8;

/**
 * The MinHash signature of a term set: per hash function, the least of its terms' values. Values are
 * held with the top bit flipped (see {@link Vocabulary.minhashes}), so the least is the signed least.
 */
function signature(terms: readonly number[], minhashes: Int32Array, out: Int32Array): void {
  // BANDS * ROWS = MINHASHES = 8 values, kept in locals.
  let m0 = 0x7fffffff; // 0xffffffff, flipped
  let m1 = m0;
  let m2 = m0;
  let m3 = m0;
  let m4 = m0;
  let m5 = m0;
  let m6 = m0;
  let m7 = m0;
  for (let i = 0; i < terms.length; i++) {
    const base = terms[i]! * MINHASHES;
    let v = minhashes[base]!;
    if (v < m0) m0 = v;
    v = minhashes[base + 1]!;
    if (v < m1) m1 = v;
    v = minhashes[base + 2]!;
    if (v < m2) m2 = v;
    v = minhashes[base + 3]!;
    if (v < m3) m3 = v;
    v = minhashes[base + 4]!;
    if (v < m4) m4 = v;
    v = minhashes[base + 5]!;
    if (v < m5) m5 = v;
    v = minhashes[base + 6]!;
    if (v < m6) m6 = v;
    v = minhashes[base + 7]!;
    if (v < m7) m7 = v;
  }
  out[0] = m0;
  out[1] = m1;
  out[2] = m2;
  out[3] = m3;
  out[4] = m4;
  out[5] = m5;
  out[6] = m6;
  out[7] = m7;
}

/**
 * Jaccard similarity of a candidate's terms, marked with `stamp` in `seen`, and a representative's
 * (each list free of repeats, so the intersection is the same whichever side is looked up).
 */
function jaccard(terms: readonly number[], seen: Int32Array, stamp: number, rep: Candidate): number {
  const b = rep.terms;
  if (terms.length === 0 || b.length === 0) return 0;
  let inter = 0;
  for (let i = 0; i < b.length; i++) if (seen[b[i]!] === stamp) inter++;
  return inter / (terms.length + b.length - inter);
}

/**
 * Relevance to the objective (share of its terms present) weighed with recency. The objective's
 * terms were the first the vocabulary met: they are the ids below `objective`, their count.
 */
function scoreOf(terms: readonly number[], objective: number, recency: number): number {
  let hits = 0;
  if (objective > 0) for (let i = 0; i < terms.length; i++) if (terms[i]! < objective) hits++;
  const relevance = objective > 0 ? Math.min(1, hits / Math.min(objective, 3)) : 0;
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

/**
 * The candidates in {@link byRank} order. With finite scores and iterations (always, short of an
 * infinite `sourceIteration`) they are grouped by score and iteration, each group already in input
 * order, so only the distinct keys are sorted: the same order as the full sort, in linear time.
 */
function rank(candidates: Candidate[]): Candidate[] {
  const byScore = new Map<number, Map<number, Candidate[]>>();
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    if (!Number.isFinite(c.score) || !Number.isFinite(c.iteration)) return candidates.sort(byRank);
    let byIteration = byScore.get(c.score);
    if (byIteration === undefined) {
      byIteration = new Map();
      byScore.set(c.score, byIteration);
    }
    const group = byIteration.get(c.iteration);
    if (group === undefined) byIteration.set(c.iteration, [c]);
    else group.push(c);
  }
  const out: Candidate[] = [];
  const scores = [...byScore.keys()].sort(descending);
  for (const score of scores) {
    const byIteration = byScore.get(score)!;
    const iterations = [...byIteration.keys()].sort(descending);
    for (const it of iterations) for (const c of byIteration.get(it)!) out.push(c);
  }
  return out;
}

function descending(a: number, b: number): number {
  return b - a;
}

const NO_LINKS: string[] = [];

/**
 * The analysis of an entry's text. ASCII text that needs no squashing is read in one pass (words,
 * key hash, whether it may hold links) and classified at once; other text is squashed, and read when
 * its words are needed.
 */
function analyze(raw: string, vocab: Vocabulary): Analysis {
  const ids = scanWords(raw, vocab);
  const text = ids !== null ? raw : squash(raw);
  const a: Analysis = {
    text,
    links:
      ids !== null
        ? vocab.linkish
          ? findLinksFrom(text, vocab.linkFrom)
          : NO_LINKS
        : text === ''
          ? NO_LINKS
          : findLinks(text),
    linkCands: null,
    read: false,
    empty: false,
    ids: null,
    ws: null,
    keyHash: 0,
    category: undefined,
    resolved: false,
    key: null,
    terms: null,
    cand: null,
    candCat: -1,
  };
  if (ids !== null) readIds(a, ids, vocab);
  return a;
}

function readIds(a: Analysis, ids: number[], vocab: Vocabulary): void {
  a.read = true;
  a.ids = ids;
  a.empty = ids.length === 0;
  a.keyHash = vocab.keyHash;
  const code = classifyFlags(ids, vocab.flags, a.text, vocab.linkish);
  a.category = code >= 0 && code < CATEGORIES.length ? CATEGORIES[code] : undefined;
  a.resolved = code === RESOLVED_CODE;
}

/** Words, ids and key hash of `a` (squashed text), then its unforced classification. */
function read(a: Analysis, vocab: Vocabulary): void {
  const ids = scanWords(a.text, vocab);
  if (ids !== null) {
    readIds(a, ids, vocab);
    return;
  }
  a.read = true;
  const ws = words(a.text);
  a.ws = ws;
  a.empty = ws.length === 0;
  a.key = keyOf(ws);
  a.keyHash = keyHash(a.key);
  const k = classify(ws, a.text, undefined);
  a.category = k.category;
  a.resolved = k.resolved;
}

function build(input: SnapshotInput, options: SnapshotOptions, trace: boolean): SnapshotTrace {
  const maxItems = options.maxCategoryItems ?? MAX_CATEGORY_ITEMS;
  const maxText = options.maxTextLength ?? MAX_TEXT_LENGTH;
  const threshold = options.nearDuplicateThreshold ?? NEAR_DUPLICATE_THRESHOLD;
  const entries = input.entries ?? [];
  const tasks = input.tasks ?? [];
  const dropped: DroppedItem[] = [];
  const objectiveText = squash(String(input.objective ?? ''));
  const vocab = new Vocabulary();
  // Distinct terms (contentTerms drops repeats): their ids are 0 … objectiveTerms − 1.
  const objectiveTerms = vocab.termIdsOf(contentTerms(words(objectiveText))).length;

  let minIter = Number.POSITIVE_INFINITY;
  let maxIter = Number.NEGATIVE_INFINITY;
  const iterations = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const it = Number(entries[i]!.sourceIteration) || 0;
    iterations[i] = it;
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
  // Evidence is keyed by the link itself; the other categories by the hash of the comparable key,
  // the keys themselves compared only when two hashes meet.
  const links = new Map<string, Candidate>();
  const byHash = CATEGORIES.map(() => new Map<number, Candidate>());
  const candidates: Candidate[] = [];
  let candidateCount = 0;
  let consolidatedCount = 0;
  /**
   * `a`: the analysis `text` comes from (its words give key and terms), null for links and tasks.
   * `entrySource`: an entry's own id, which can only already be the last source of a candidate.
   */
  const add = (
    ci: number,
    text: string,
    source: string,
    iteration: number,
    a: Analysis | null,
    entrySource: boolean,
    known: Candidate | null,
  ): Candidate | null => {
    let existing: Candidate | null = known;
    let key: string | null = null;
    let h = 0;
    if (existing !== null) {
      // the candidate this link became before
    } else if (a !== null && a.candCat === ci) existing = a.cand;
    else if (ci === 4) {
      key = text;
      if (key === '') return null;
      existing = links.get(key) ?? null;
    } else {
      if (a !== null) {
        if (a.empty) return null;
        h = a.keyHash;
        key = a.key;
      } else {
        key = comparableKey(text);
        if (key === '') return null;
        h = keyHash(key);
      }
      let c: Candidate | null | undefined = byHash[ci]!.get(h);
      for (; c !== undefined && c !== null; c = c.sameHash) {
        if (key === null) {
          key = vocab.keyOf(a!.ids!);
          a!.key = key;
        }
        // Every wording of a candidate has its key: any of them gives it.
        c.key ??= comparableKey(c.text);
        if (c.key === key) {
          existing = c;
          break;
        }
      }
      if (a !== null && existing !== null && a.candCat < 0) {
        a.cand = existing;
        a.candCat = ci;
      }
    }
    candidateCount++;
    if (existing !== null) {
      consolidatedCount++;
      if (!trace) {
        if (iteration > existing.iteration) {
          existing.iteration = iteration;
          existing.text = text; // the most recent wording wins
        }
        return existing;
      }
      if (entrySource) {
        const s = existing.sources;
        if (s[s.length - 1] !== source) {
          s.push(source);
          existing.sourceSet?.add(source);
        }
      } else addSource(existing, source);
      if (iteration > existing.iteration) {
        existing.iteration = iteration;
        existing.text = text; // the most recent wording wins
      }
      dropped.push({ text, reason: 'duplicate', sources: [source], category: CATEGORIES[ci]! });
      return existing;
    }
    let terms: number[];
    if (a === null) {
      const ids = scanWords(text, vocab);
      terms = ids !== null ? vocab.termsOfWords(ids) : vocab.termIdsOf(contentTerms(words(text)));
    } else if (a.terms !== null) terms = a.terms;
    else terms = a.terms = a.ids ? vocab.termsOfWords(a.ids) : vocab.termIdsOf(contentTerms(a.ws!));
    const c: Candidate = {
      cat: ci,
      text,
      key,
      sameHash: null,
      terms,
      sources: trace ? [source] : NO_SOURCES,
      sourceSet: null,
      iteration,
      order: candidates.length,
      score: 0,
    };
    if (ci === 4) links.set(text, c);
    else {
      const map = byHash[ci]!;
      c.sameHash = map.get(h) ?? null;
      map.set(h, c);
    }
    if (a !== null && a.candCat < 0) {
      a.cand = c;
      a.candCat = ci;
    }
    candidates.push(c);
    return c;
  };

  const memo = new Map<string, Analysis>();
  const forcedByScope = new Map<string, SnapshotCategory | null>();
  // Entries in a row often share their scope.
  let lastScope: string | null = null;
  let lastForced: SnapshotCategory | null = null;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const v = e.value;
    const raw = typeof v === 'string' ? v : String(v ?? '');
    let a = memo.get(raw);
    if (a === undefined) {
      a = analyze(raw, vocab);
      memo.set(raw, a);
    }
    const text = a.text;
    if (text === '') continue;
    // Sources only show in the trace: without one, no id is built or kept.
    const source = trace ? `m${i + 1}` : '';
    const iteration = iterations[i]!;
    const sv = e.scope;
    const scope = typeof sv === 'string' ? sv : String(sv ?? '');
    let forced: SnapshotCategory | null | undefined;
    if (scope === lastScope) forced = lastForced;
    else {
      forced = forcedByScope.get(scope);
      if (forced === undefined) {
        forced = scopeCategory(scope) ?? null;
        forcedByScope.set(scope, forced);
      }
      lastScope = scope;
      lastForced = forced;
    }
    if (forced !== 'requiredEvidenceLinks' && !a.read) read(a, vocab);
    const found = a.links;
    // A pointer to evidence ("See lib/retry.ts:42") keeps its text, which holds its links.
    if (found.length > 0 && (forced || a.category !== 'requiredEvidenceLinks')) {
      a.linkCands ??= new Array<Candidate | null>(found.length).fill(null);
      const known = a.linkCands;
      for (let l = 0; l < found.length; l++)
        known[l] = add(4, found[l]!, source, iteration, null, true, known[l]!);
    }
    if (forced === 'requiredEvidenceLinks') {
      if (found.length === 0) add(4, text, source, iteration, null, true, null);
      continue;
    }
    const category = forced ? (a.resolved && forced === 'blockers' ? undefined : forced) : a.category;
    if (category) add(CATEGORY_INDEX[category], text, source, iteration, a, true, null);
    else if (trace)
      dropped.push({ text, reason: a.resolved ? 'resolved' : 'uncategorized', sources: [source] });
  }
  for (const t of tasks) {
    const cat = taskCategory(String(t.status ?? ''));
    const title = squash(String(t.title ?? ''));
    const source = trace ? `task:${t.id}` : '';
    if (cat && title) add(CATEGORY_INDEX[cat], title, source, maxIter, null, false, null);
    else if (trace && title) dropped.push({ text: title, reason: 'resolved', sources: [source] });
  }

  // 2. Rank by relevance to the objective and recency.
  for (const c of candidates) c.score = scoreOf(c.terms, objectiveTerms, recencyOf(c.iteration));
  const ranked = rank(candidates);

  // 3. Consolidate near duplicates in rank order: each item is compared only with representatives
  // that share an LSH bucket, so the work is linear. The best-ranked member keeps its wording.
  // One map per category and band, keyed by a small integer mixed from the band's two hashes.
  const buckets: Map<number, Candidate[]>[] = Array.from(
    { length: CATEGORIES.length * BANDS },
    () => new Map(),
  );
  const sig = new Int32Array(BANDS * ROWS);
  const keys: number[] = new Array(BANDS).fill(0);
  const lists: Candidate[][] = CATEGORIES.map(() => []);
  const mergedInto = new Map<Candidate, Candidate>();
  // The terms of the item being placed, marked once for all its comparisons.
  const seen = new Int32Array(vocab.terms.length);
  let stamp = 0;
  let marked = 0;
  for (const c of ranked) {
    stamp++;
    // Without a trace, an item of a full category can change nothing in the output: skip its hashing.
    if (!trace && lists[c.cat]!.length >= maxItems) continue;
    let rep: Candidate | undefined;
    const hashed = c.cat !== 4 && c.terms.length >= 2;
    if (hashed) {
      signature(c.terms, vocab.minhashes, sig);
      for (let b = 0; b < BANDS; b++) {
        // The signature's values unflipped (as int32, which is all `^` and `Math.imul` read).
        const lo = sig[b * ROWS]! ^ 0x80000000;
        const hi = sig[b * ROWS + 1]! ^ 0x80000000;
        const k = (lo ^ Math.imul(hi, 0x9e3779b1)) & 0x3fffffff;
        keys[b] = k;
        if (rep) continue;
        const bucket = buckets[c.cat * BANDS + b]!.get(k);
        if (!bucket) continue;
        for (let j = 0; j < bucket.length && j < BUCKET_PROBE_LIMIT; j++) {
          if (marked !== stamp) {
            for (let i = 0; i < c.terms.length; i++) seen[c.terms[i]!] = stamp;
            marked = stamp;
          }
          if (jaccard(c.terms, seen, stamp, bucket[j]!) >= threshold) {
            rep = bucket[j]!;
            break;
          }
        }
      }
    }
    if (rep) {
      consolidatedCount++;
      if (trace) {
        for (const s of c.sources) addSource(rep, s);
        mergedInto.set(c, rep);
      }
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

/**
 * The deterministic active-context snapshot: keyword categorization (negation- and resolution-aware),
 * links and paths to evidence, exact duplicates collapsed by comparable key, near duplicates
 * consolidated through MinHash-LSH buckets (never all pairs), items ranked by relevance to the
 * objective and recency, capped per category and per item.
 */

import {
  comparableKey,
  contentTerms,
  findLinks,
  keyHash,
  PROBE_LIMIT,
  scanText,
  scopeCategory,
  squash,
  taskCategory,
  Vocabulary,
  words,
} from '../categorise/index.js';
import { clip, ValidationError } from '../core/index.js';
import { type Analysis, analyze, CATEGORIES, keepTerms, read, readWith, type TermsRef } from './analysis.js';
import { bareLink } from './bare-link.js';
import { Buckets, signature } from './lsh.js';
import type { SnapshotMemo } from './memo.js';
import type { SnapshotOptions } from './options.js';
import { isPlaceholderLink } from './placeholder.js';
import { cutSpellings, isRootOrAbove, linksThroughRoot, relativeToRoot, rootSpellings } from './root.js';
import { samePlaces } from './same-place.js';
import { droppedByScope, observedCategory } from './scopes.js';
import { withoutListMarker } from './sentences.js';
import type {
  ActiveContextSnapshot,
  DroppedItem,
  SnapshotCategory,
  SnapshotInput,
  SnapshotTrace,
  TracedItem,
} from './types.js';
import { bareWordLists, dropWordLists, wordListShape } from './word-list.js';

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

export { CATEGORIES };

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
  /** The next candidate (in input order) with the same score, once ranked. */
  sameScore: Candidate | null;
  /** Its content terms, as vocabulary ids: `vocab.termIds[termsAt … termsAt + termsLen)`. */
  termsAt: number;
  termsLen: number;
  sources: string[];
  /** Membership of `sources` once it grows (merges can make it long): keeps additions linear. */
  sourceSet: Set<string> | null;
  iteration: number;
  order: number;
  score: number;
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
 * Jaccard similarity of a candidate's `count` terms, marked with `stamp` in `seen`, and a
 * representative's (each list free of repeats, so the intersection is the same whichever side is
 * looked up).
 */
function jaccard(count: number, terms: Int32Array, seen: Int32Array, stamp: number, rep: Candidate): number {
  const len = rep.termsLen;
  if (count === 0 || len === 0) return 0;
  let inter = 0;
  for (let i = rep.termsAt; i < rep.termsAt + len; i++) if (seen[terms[i]!] === stamp) inter++;
  return inter / (count + len - inter);
}

/**
 * Relevance to the objective (share of its terms present) weighed with recency. `isObjective` is 1 at
 * the ids of the objective's terms, `objective` their count.
 */
function scoreOf(
  terms: Int32Array,
  c: Candidate,
  isObjective: Uint8Array,
  objective: number,
  recency: number,
): number {
  let hits = 0;
  if (objective > 0) for (let i = c.termsAt; i < c.termsAt + c.termsLen; i++) hits += isObjective[terms[i]!]!;
  const relevance = objective > 0 ? Math.min(1, hits / Math.min(objective, 3)) : 0;
  return Math.round((0.7 * relevance + 0.3 * recency) * 1e6) / 1e6;
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
 * infinite `sourceIteration`) they are grouped by score, each group chained in input order through
 * `sameScore` (most scores are one candidate's: no array per group). Only the distinct scores are
 * sorted, and a group only when its iterations are not already most recent first (a stable sort
 * keeps input order among equals): the same order as the full sort, with far fewer comparisons.
 */
function rank(candidates: Candidate[]): Candidate[] {
  const byScore = new Map<number, Candidate>();
  for (let i = candidates.length - 1; i >= 0; i--) {
    const c = candidates[i]!;
    if (!Number.isFinite(c.score) || !Number.isFinite(c.iteration)) return candidates.sort(byRank);
    c.sameScore = byScore.get(c.score) ?? null;
    byScore.set(c.score, c);
  }
  const out: Candidate[] = [];
  // Ascending (scores are never -0 nor NaN), read from the end.
  const scores = Float64Array.from(byScore.keys()).sort();
  for (let s = scores.length - 1; s >= 0; s--) {
    const head = byScore.get(scores[s]!)!;
    let inOrder = true;
    for (let c = head; c.sameScore !== null; c = c.sameScore)
      if (c.sameScore.iteration > c.iteration) {
        inOrder = false;
        break;
      }
    if (inOrder) for (let c: Candidate | null = head; c !== null; c = c.sameScore) out.push(c);
    else {
      const group: Candidate[] = [];
      for (let c: Candidate | null = head; c !== null; c = c.sameScore) group.push(c);
      group.sort(byRecency);
      for (const c of group) out.push(c);
    }
  }
  return out;
}

function byRecency(a: Candidate, b: Candidate): number {
  return b.iteration - a.iteration;
}

function isMemo(m: unknown): m is SnapshotMemo {
  const memo = m as SnapshotMemo | null;
  return typeof memo?.begin === 'function' && memo.analyses instanceof Map && memo.terms instanceof Map;
}

function build(input: SnapshotInput, options: SnapshotOptions, trace: boolean): SnapshotTrace {
  const maxItems = options.maxCategoryItems ?? MAX_CATEGORY_ITEMS;
  const maxText = options.maxTextLength ?? MAX_TEXT_LENGTH;
  const threshold = options.nearDuplicateThreshold ?? NEAR_DUPLICATE_THRESHOLD;
  const entries = input.entries ?? [];
  const tasks = input.tasks ?? [];
  const dropped: DroppedItem[] = [];
  const objectiveText = squash(String(input.objective ?? ''));
  // Evidence as the folder the session worked in sees it (root.ts).
  const root = rootSpellings(input.root);
  // A folder whose name `findLinks` cuts (white space, a letter outside ASCII) is read whole in the
  // texts that spell it (root.ts).
  const cut = root !== undefined ? cutSpellings(root) : [];
  // A memo keeps the vocabulary and the texts' analyses from one build to the next (analysis.ts).
  const memo = options.memo;
  // Checked by shape, not `instanceof`: a bundle that never makes a memo does not carry its class.
  if (memo !== undefined && !isMemo(memo))
    throw new ValidationError([{ path: 'memo', message: 'must be a memo from createSnapshotMemo()' }], {
      subject: 'Snapshot options',
    });
  const categorise = options.categorise;
  if (categorise !== undefined && typeof categorise !== 'function')
    throw new ValidationError(
      [{ path: 'categorise', message: 'must be a function of the text and its role' }],
      {
        subject: 'Snapshot options',
      },
    );
  const gen = memo ? memo.begin() : 0;
  const vocab = memo ? memo.vocab : new Vocabulary();
  const analyses = (memo ? memo.analyses : new Map()) as Map<string, Analysis<Candidate>>;
  const termsOf: Map<string, TermsRef> | null = memo ? memo.terms : null;
  // Distinct terms (contentTerms drops repeats).
  const objectiveIds = vocab.termIdsOf(contentTerms(words(objectiveText)));

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
  // By category (the group) and key hash; a category holds one candidate per key, so a bucket's
  // order does not matter.
  const byHash = new Buckets<Candidate>(256);
  /** Every non-link candidate by category and key, once a key hash is shared by too many (see `add`). */
  let byKey: Map<string, Candidate> | null = null;
  const candidates: Candidate[] = [];
  let candidateCount = 0;
  let consolidatedCount = 0;
  /** The links that name no place, by why (`root`, `placeholder`): each link is read once a build. */
  const noPlace = new Map<string, string>();
  /**
   * `a`: the analysis `text` comes from (its words give key and terms), null for links and tasks.
   * `entrySource`: an entry's own id, which can only already be the last source of a candidate.
   */
  const add = (
    ci: number,
    text: string,
    source: string,
    iteration: number,
    a: Analysis<Candidate> | null,
    entrySource: boolean,
    known: Candidate | null,
  ): Candidate | null => {
    // Evidence that names no place to look: the session's folder or above it, a link to fill in. A
    // link already a candidate passed; one already refused is refused again without reading it.
    if (ci === 4 && known === null && !links.has(text)) {
      let none = noPlace.get(text) ?? null;
      if (none === null) {
        none =
          root !== undefined && isRootOrAbove(root, text)
            ? 'root'
            : isPlaceholderLink(text)
              ? 'placeholder'
              : null;
        if (none !== null) noPlace.set(text, none);
      }
      if (none !== null) {
        if (trace) dropped.push({ text, reason: none, sources: [source], category: CATEGORIES[4] });
        return null;
      }
    }
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
        if (a.n === 0) return null;
        h = a.keyHash;
        key = a.key;
      } else {
        key = comparableKey(text);
        if (key === '') return null;
        h = keyHash(key);
      }
      if (byKey !== null) {
        if (key === null) {
          key = vocab.keyAt(a!.at, a!.n);
          a!.key = key;
        }
        existing = byKey.get(`${ci}:${key}`) ?? null;
      } else
        for (let e = byHash.first(ci, h), walked = 0; e >= 0; e = byHash.after(e)) {
          const c = byHash.item(e);
          if (key === null) {
            key = vocab.keyAt(a!.at, a!.n);
            a!.key = key;
          }
          // Every wording of a candidate has its key: any of them gives it.
          c.key ??= comparableKey(c.text);
          if (c.key === key) {
            existing = c;
            break;
          }
          if (++walked > PROBE_LIMIT) {
            // Texts made to share a key hash: by the key itself from now on (see PROBE_LIMIT).
            byKey = new Map();
            for (const d of candidates) {
              if (d.cat === 4) continue;
              d.key ??= comparableKey(d.text);
              byKey.set(`${d.cat}:${d.key}`, d);
            }
            existing = byKey.get(`${ci}:${key}`) ?? null;
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
    let termsAt: number;
    let termsLen: number;
    if (a === null) {
      // A link or a task title: its words are not kept (a memo keeps its terms).
      const known = termsOf?.get(text);
      if (known !== undefined) {
        termsAt = known.at;
        termsLen = known.len;
      } else {
        const n = scanText(text, vocab);
        termsAt =
          n >= 0
            ? vocab.termsAt(vocab.ids, vocab.idsUsed, n)
            : keepTerms(vocab, vocab.termIdsOf(contentTerms(words(text))));
        termsLen = vocab.termIdsUsed - termsAt;
        termsOf?.set(text, { at: termsAt, len: termsLen });
      }
    } else {
      if (a.termsAt < 0) {
        a.termsAt = vocab.termsAt(vocab.ids, a.at, a.n);
        a.termsLen = vocab.termIdsUsed - a.termsAt;
      }
      termsAt = a.termsAt;
      termsLen = a.termsLen;
    }
    const c: Candidate = {
      cat: ci,
      text,
      key,
      sameScore: null,
      termsAt,
      termsLen,
      sources: trace ? [source] : NO_SOURCES,
      sourceSet: null,
      iteration,
      order: candidates.length,
      score: 0,
    };
    if (ci === 4) links.set(text, c);
    else if (byKey !== null) {
      c.key ??= comparableKey(text);
      byKey.set(`${ci}:${c.key}`, c);
    } else byHash.add(ci, h, c);
    if (a !== null && a.candCat < 0) {
      a.cand = c;
      a.candCat = ci;
    }
    candidates.push(c);
    return c;
  };

  // The candidates of the texts' links, a text's after another's (one array, not one per text).
  const linkCands: (Candidate | null)[] = [];
  // Links shaped like words joined by slashes (word-list.ts): how often each was read bare, -1 once
  // it was read in a code span.
  const wordLists = new Map<Candidate, number>();
  const noteList = (c: Candidate | null, bare: boolean): void => {
    if (c === null) return;
    const n = wordLists.get(c);
    wordLists.set(c, !bare || n === -1 ? -1 : (n ?? 0) + 1);
  };
  const forcedByScope = new Map<string, SnapshotCategory | null>();
  // Entries in a row often share their scope.
  let lastScope: string | null = null;
  let lastForced: SnapshotCategory | null = null;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const v = e.value;
    const raw = typeof v === 'string' ? v : String(v ?? '');
    let a = analyses.get(raw);
    if (a === undefined) {
      a = analyze<Candidate>(raw, vocab, gen);
      analyses.set(raw, a);
    } else if (a.gen !== gen) {
      // Kept by the memo from an earlier build: what it became there is not this build's.
      a.gen = gen;
      a.linkAt = -1;
      a.cand = null;
      a.candCat = -1;
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
    if (forced !== 'requiredEvidenceLinks' && a.n < 0) read(a, vocab);
    let own = a.category;
    if (categorise !== undefined && !forced) own = readWith(a, categorise, e.role);
    if (scope === 'observation') own = observedCategory(own, text);
    // Scopes that say what the session shows is over keep an entry out of some lists (scopes.ts).
    const over = droppedByScope(scope, own);
    if (over) own = undefined;
    const through = cut.length > 0 ? linksThroughRoot(text, cut, findLinks) : null;
    const found = through ?? a.links;
    // A pointer to evidence ("See lib/retry.ts:42") keeps its text, which holds its links.
    if (found.length > 0 && (forced || own !== 'requiredEvidenceLinks')) {
      if (a.linkAt < 0) {
        a.linkAt = linkCands.length;
        for (let l = 0; l < found.length; l++) linkCands.push(null);
      }
      // Kept with the analysis, except for links read through this build's folder.
      if (through === null && a.lists === undefined) a.lists = bareWordLists(text, found);
      const shaped = through === null ? a.lists! : bareWordLists(text, found);
      for (let l = 0, at = a.linkAt; l < found.length; l++) {
        const c = add(4, found[l]!, source, iteration, null, true, linkCands[at + l]!);
        linkCands[at + l] = c;
        if (shaped !== null && shaped[l]! > 0) noteList(c, shaped[l] === 1);
      }
    }
    if (forced === 'requiredEvidenceLinks') {
      if (found.length === 0) add(4, text, source, iteration, null, true, null);
      continue;
    }
    const category = forced ? (a.resolved && forced === 'blockers' ? undefined : forced) : own;
    // A link in Markdown dress is the link: listed as such, it merges with the same link named elsewhere.
    // Read once per text, not once per build: a memo keeps the analysis.
    if (category === 'requiredEvidenceLinks' && a.bare === undefined && through === null)
      a.bare = bareLink(text, found) ?? null;
    const bare =
      category !== 'requiredEvidenceLinks'
        ? null
        : through === null
          ? a.bare
          : (bareLink(text, found) ?? null);
    if (bare) {
      const c = add(4, bare, source, iteration, null, true, null);
      if (wordListShape(bare)) noteList(c, bareWordLists(text, [bare])![0] === 1);
    } else if (category) add(CATEGORY_INDEX[category], text, source, iteration, a, true, null);
    else if (trace)
      dropped.push({
        text,
        reason: over ?? (a.resolved ? 'resolved' : 'uncategorized'),
        sources: [source],
      });
  }
  for (const t of tasks) {
    const cat = taskCategory(String(t.status ?? ''));
    const title = squash(String(t.title ?? ''));
    const source = trace ? `task:${t.id}` : '';
    if (cat && title) add(CATEGORY_INDEX[cat], title, source, maxIter, null, false, null);
    else if (trace && title) dropped.push({ text: title, reason: 'resolved', sources: [source] });
  }

  // Words joined by slashes that no other path of the session goes through are no place (word-list.ts).
  if (wordLists.size > 0)
    dropWordLists(candidates, wordLists, (c, reads) => {
      candidateCount -= reads;
      consolidatedCount -= reads - 1;
      if (trace)
        dropped.push({ text: c.text, reason: 'word_list', sources: c.sources, category: CATEGORIES[4]! });
    });

  // 2. Rank by relevance to the objective and recency.
  const termIds = vocab.termIds;
  const isObjective = new Uint8Array(vocab.terms.length);
  for (const t of objectiveIds) isObjective[t] = 1;
  const objectiveTerms = objectiveIds.length;
  for (const c of candidates)
    c.score = scoreOf(termIds, c, isObjective, objectiveTerms, recencyOf(c.iteration));
  const ranked = rank(candidates);

  // 3. Consolidate near duplicates in rank order: each item is compared only with representatives
  // that share an LSH bucket, so the work is linear. The best-ranked member keeps its wording.
  // A bucket per category and band (the group) and key, a small integer mixed from the band's two hashes.
  const buckets = new Buckets<Candidate>(Math.min(candidates.length, 1024) * BANDS);
  const sig = new Int32Array(BANDS * ROWS);
  const keys: number[] = new Array(BANDS).fill(0);
  const lists: Candidate[][] = CATEGORIES.map(() => []);
  const mergedInto = new Map<Candidate, Candidate>();
  // The terms of the item being placed, marked once for all its comparisons.
  const seen = new Int32Array(vocab.terms.length);
  let stamp = 0;
  let marked = 0;
  // Evidence naming one place in several spellings is one item (same-place.ts), placed where its
  // best-ranked spelling ranks and listed in the group's chosen spelling.
  const evidence = candidates.filter((c) => c.cat === 4);
  const places = evidence.length > 1 ? samePlaces(evidence.map((c) => c.text)) : null;
  // A link candidate's group, by its `order` (its index in `candidates`); -1 for the others.
  const placeOf = places ? new Int32Array(candidates.length).fill(-1) : null;
  if (placeOf) for (let i = 0; i < evidence.length; i++) placeOf[evidence[i]!.order] = places!.group[i]!;
  const placed: (Candidate | undefined)[] = places ? new Array(evidence.length) : [];
  for (const c of ranked) {
    stamp++;
    // Without a trace, an item of a full category can change nothing in the output: skip its hashing.
    if (!trace && lists[c.cat]!.length >= maxItems) continue;
    let rep: Candidate | undefined;
    const place = placeOf ? placeOf[c.order]! : -1;
    if (place >= 0) {
      rep = placed[place];
      const spelling = places!.spelling[place]!;
      if (rep === undefined) {
        placed[place] = c;
        // Listed in the group's spelling; the trace keeps the spelling it had.
        if (trace && c.text !== spelling)
          dropped.push({
            text: c.text,
            reason: 'near_duplicate',
            into: spelling,
            sources: c.sources.slice(),
            category: CATEGORIES[4]!,
          });
        c.text = spelling;
      }
    }
    const tAt = c.termsAt;
    const tLen = c.termsLen;
    const hashed = c.cat !== 4 && tLen >= 2;
    if (hashed) {
      signature(termIds, tAt, tAt + tLen, vocab.minhashes, sig);
      for (let b = 0; b < BANDS; b++) {
        // The signature's values unflipped (as int32, which is all `^` and `Math.imul` read).
        const lo = sig[b * ROWS]! ^ 0x80000000;
        const hi = sig[b * ROWS + 1]! ^ 0x80000000;
        const k = (lo ^ Math.imul(hi, 0x9e3779b1)) & 0x3fffffff;
        keys[b] = k;
        if (rep) continue;
        let e = buckets.first(c.cat * BANDS + b, k);
        for (let j = 0; e >= 0 && j < BUCKET_PROBE_LIMIT; j++, e = buckets.after(e)) {
          if (marked !== stamp) {
            for (let i = tAt; i < tAt + tLen; i++) seen[termIds[i]!] = stamp;
            marked = stamp;
          }
          const member = buckets.item(e);
          if (jaccard(tLen, termIds, seen, stamp, member) >= threshold) {
            rep = member;
            break;
          }
        }
      }
    }
    if (rep) {
      consolidatedCount++;
      if (trace) {
        for (const s of c.sources) addSource(rep, s);
        // The spelling a place is listed in is no other item: its sources are the kept item's.
        if (c.text !== rep.text) mergedInto.set(c, rep);
      }
      continue;
    }
    if (hashed) for (let b = 0; b < BANDS; b++) buckets.add(c.cat * BANDS + b, keys[b]!, c);
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
  // Evidence is listed as the session's folder sees it; two places can then read alike.
  const listed = root !== undefined ? new Set<string>() : null;
  for (let ci = 0; ci < CATEGORIES.length; ci++) {
    const cat = CATEGORIES[ci]!;
    const list = lists[ci]!;
    const out = snapshot[cat];
    for (let j = 0; j < list.length; j++) {
      const c = list[j]!;
      // Listed without the list marker of its message (a glossed pointer too; a bare link has none).
      const read = withoutListMarker(c.text);
      const text = clip(ci === 4 && listed !== null ? relativeToRoot(root!, read) : read, maxText);
      if (ci === 4 && listed !== null) {
        if (listed.has(text)) {
          if (trace)
            dropped.push({
              text: c.text,
              reason: 'near_duplicate',
              into: text,
              sources: c.sources,
              category: cat,
            });
          continue;
        }
        listed.add(text);
      }
      if (out.length >= maxItems) {
        if (trace) dropped.push({ text: c.text, reason: 'over_cap', sources: c.sources, category: cat });
        continue;
      }
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
  memo?.end();
  return { snapshot, kept, dropped, candidateCount, consolidatedCount };
}

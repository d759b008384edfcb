/**
 * The near-duplicate index behind `dedup.ts`: prefix-filtered candidate generation over flat typed
 * arrays, and star clustering around the most trusted key point. Kept apart from the public
 * functions because it is one performance-tuned unit (see `cluster`), read and changed as a whole.
 *
 * @module
 * @internal
 */
import { contentWords, FNV_PRIME } from '../core/index.js';
import { mix, PairTable } from './dedup-pairs.js';
import {
  type DuplicateGroup,
  type Item,
  starClusters,
  starClustersByUnit,
  unitGraph,
} from './dedup-stars.js';
import { type Playbook, SECTION_NAMES, type SectionName } from './model.js';

export { PAIR_PROBE_LIMIT, PairTable } from './dedup-pairs.js';
export type { DuplicateGroup, Item } from './dedup-stars.js';

export function checkThreshold(t: number): number {
  if (!(t > 0 && t <= 1)) throw new RangeError(`similarity threshold must be in (0, 1], got ${t}`);
  return t;
}

export function itemsOf(playbook: Playbook): Item[] {
  const items: Item[] = [];
  for (const section of SECTION_NAMES) {
    const list = playbook.sections[section] ?? [];
    for (let i = 0; i < list.length; i++) items.push({ kp: list[i]!, section, index: i });
  }
  return items;
}

/**
 * Candidate generation by prefix filtering at `floor`, scoring by `score(i, j, jaccard)` (≥ 0 keeps the
 * pair with that similarity), then star clustering (by unit pair when the score reads only the Jaccard).
 *
 * Linear-memory layout: shingle ids, sets, postings and unit members live in flat typed arrays (no
 * per-shingle strings, maps or arrays), so the cost per key point stays flat as the playbook grows.
 * Adjacent-word pairs are interned as (word id, word id) in an open-addressing table instead of as
 * `"a b"` strings. Ids, ranks, units and pair order are exactly those of the straightforward version
 * (first appearance in `shingles` order; rank by frequency then id; units by first member).
 */
export function cluster(
  playbook: Playbook,
  floor: number,
  sameSection: boolean,
  score: (i: number, j: number, jaccard: number) => number,
  memberwise = true,
): DuplicateGroup[] {
  const items = itemsOf(playbook);
  const n = items.length;
  // 1. Shingles → dense ids in order of first appearance (each key point's words, then its adjacent
  //    pairs, as `shingles` lists them), with document frequencies. Key point i's set is
  //    flat[start[i] .. start[i + 1]).
  const wordIds = new Map<string, number>();
  const pairIds = new PairTable(4 * n);
  // Sized once from the word counts (at most 2 shingles a word): arrays grown by `push` step up in
  // cost per element past engine size classes, which made the build superlinear on large playbooks.
  const wordsOf = items.map((it) => contentWords(it.kp.text));
  let bound = 0;
  for (const words of wordsOf) bound += 2 * words.length;
  const df = new Int32Array(bound);
  const seenIn = new Int32Array(bound); // 1 + the last key point that counted the shingle
  const flat = new Int32Array(bound);
  let vocab = 0;
  let total = 0;
  const start = new Int32Array(n + 1);
  const seq: number[] = [];
  for (let i = 0; i < n; i++) {
    start[i] = total;
    const stamp = i + 1;
    const words = wordsOf[i]!;
    seq.length = words.length;
    for (let k = 0; k < words.length; k++) {
      let id = wordIds.get(words[k]!);
      if (id === undefined) {
        id = vocab++;
        wordIds.set(words[k]!, id);
      }
      seq[k] = id;
      if (seenIn[id] !== stamp) {
        seenIn[id] = stamp;
        df[id]!++;
        flat[total++] = id;
      }
    }
    for (let k = 1; k < words.length; k++) {
      let id = pairIds.getOrAdd(seq[k - 1]!, seq[k]!, vocab);
      if (id < 0) id = vocab++;
      if (seenIn[id] !== stamp) {
        seenIn[id] = stamp;
        df[id]!++;
        flat[total++] = id;
      }
    }
  }
  start[n] = total;
  // 2. Rank shingles rarest first, ties by id (first appearance): a stable counting sort on frequency.
  const rank = new Int32Array(vocab);
  {
    const bucket = new Int32Array(n + 2);
    for (let id = 0; id < vocab; id++) bucket[df[id]! + 1]!++;
    for (let f = 1; f < bucket.length; f++) bucket[f]! += bucket[f - 1]!;
    for (let id = 0; id < vocab; id++) rank[id] = bucket[df[id]!]!++;
  }
  const sets = new Int32Array(total);
  for (let k = 0; k < total; k++) sets[k] = rank[flat[k]!]!;
  for (let i = 0; i < n; i++)
    if (start[i + 1]! - start[i]! > 1) sets.subarray(start[i]!, start[i + 1]!).sort();
  // 3. Collapse identical sets (per section when sameSection) into units, numbered by first member.
  const sectionIndex = new Map<SectionName, number>(SECTION_NAMES.map((s, k) => [s, k]));
  const sec = new Int32Array(n);
  for (let i = 0; i < n; i++) sec[i] = sameSection ? sectionIndex.get(items[i]!.section)! : 0;
  const unitOf = new Int32Array(n);
  const unitStart = new Int32Array(n);
  const unitLen = new Int32Array(n);
  const unitFirst = new Int32Array(n);
  let unitCount = 0;
  {
    let cap = 16;
    while (cap < 2 * n) cap *= 2;
    const mask = cap - 1;
    const table = new Int32Array(cap).fill(-1);
    for (let i = 0; i < n; i++) {
      const s = start[i]!;
      const len = start[i + 1]! - s;
      let h = Math.imul(sec[i]! + 1, 0x9e3779b1) ^ len;
      for (let k = s; k < s + len; k++) h = Math.imul(h ^ sets[k]!, FNV_PRIME) ^ (h >>> 15);
      let slot = mix(h) & mask;
      let u = -1;
      for (;;) {
        const w = table[slot]!;
        if (w < 0) break;
        if (unitLen[w] === len && sec[unitFirst[w]!] === sec[i] && sameRange(sets, unitStart[w]!, s, len)) {
          u = w;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (u < 0) {
        u = unitCount++;
        table[slot] = u;
        unitStart[u] = s;
        unitLen[u] = len;
        unitFirst[u] = i;
      }
      unitOf[i] = u;
    }
  }
  // Members of each unit in playbook order: unit u's are members[memberStart[u] .. memberStart[u + 1]).
  const memberStart = new Int32Array(unitCount + 1);
  for (let i = 0; i < n; i++) memberStart[unitOf[i]! + 1]!++;
  for (let u = 0; u < unitCount; u++) memberStart[u + 1]! += memberStart[u]!;
  const members = new Int32Array(n);
  {
    const fill = memberStart.slice(0, unitCount);
    for (let i = 0; i < n; i++) members[fill[unitOf[i]!]!++] = i;
  }
  // 4. AllPairs over units, shortest sets first (ties by unit). A unit probes with its first
  //    |x| − ⌈t|x|⌉ + 1 shingles and is indexed under its first |x| − ⌈2t/(1+t)·|x|⌉ + 1: every unit already
  //    indexed is no longer than the prober, so Jaccard ≥ t needs an overlap of at least 2t/(1+t)·|y|
  //    (PPJoin's index prefix). Postings are linked lists in insertion order over typed arrays.
  let maxLen = 0;
  for (let u = 0; u < unitCount; u++) if (unitLen[u]! > maxLen) maxLen = unitLen[u]!;
  const byLength = new Int32Array(unitCount);
  let probeCount = 0;
  {
    const bucket = new Int32Array(maxLen + 2);
    for (let u = 0; u < unitCount; u++) if (unitLen[u]! > 0) bucket[unitLen[u]! + 1]!++;
    for (let l = 1; l < bucket.length; l++) bucket[l]! += bucket[l - 1]!;
    for (let u = 0; u < unitCount; u++) {
      if (unitLen[u]! > 0) byLength[bucket[unitLen[u]!]!++] = u;
    }
    probeCount = bucket[maxLen]!;
  }
  const head = new Int32Array(vocab).fill(-1);
  const tail = new Int32Array(vocab);
  const entryUnit = new Int32Array(total);
  const entryNext = new Int32Array(total);
  let entries = 0;
  const seenStamp = new Int32Array(unitCount).fill(-1);
  const pairA: number[] = [];
  const pairB: number[] = [];
  const pairJac: number[] = [];
  const eps = 1e-9;
  const indexFactor = (2 * floor) / (1 + floor);
  for (let p = 0; p < probeCount; p++) {
    const u = byLength[p]!;
    const xs = unitStart[u]!;
    const xl = unitLen[u]!;
    const xsec = sec[unitFirst[u]!]!;
    const prefix = xl - Math.ceil(floor * xl - eps) + 1;
    const minLen = floor * xl - eps;
    for (let k = 0; k < prefix; k++) {
      for (let e = head[sets[xs + k]!]!; e >= 0; e = entryNext[e]!) {
        const w = entryUnit[e]!;
        if (seenStamp[w] === u) continue;
        seenStamp[w] = u;
        const yl = unitLen[w]!;
        if (yl < minLen) continue;
        if (sameSection && sec[unitFirst[w]!] !== xsec) continue;
        const inter = intersectRanges(sets, xs, xl, unitStart[w]!, yl);
        const jac = inter / (xl + yl - inter);
        if (jac + eps < floor) continue;
        pairA.push(u);
        pairB.push(w);
        pairJac.push(jac);
      }
    }
    const indexPrefix = xl - Math.ceil(indexFactor * xl - eps) + 1;
    for (let k = 0; k < indexPrefix; k++) {
      const r = sets[xs + k]!;
      entryUnit[entries] = u;
      entryNext[entries] = -1;
      if (head[r]! < 0) head[r] = entries;
      else entryNext[tail[r]!] = entries;
      tail[r] = entries++;
    }
  }
  // 5. Score the unit pairs, or expand them to member pairs: by lower unit, then in discovery order.
  const graph = { unitOf, memberStart, members, matesOf: (u: number) => unitLen[u]! > 0 };
  if (!memberwise) return starClustersByUnit(items, unitGraph(graph, pairA, pairB, pairJac, score));
  const pairCount = pairA.length;
  const pairOrder = new Int32Array(pairCount);
  {
    const bucket = new Int32Array(unitCount + 1);
    for (let q = 0; q < pairCount; q++) bucket[Math.min(pairA[q]!, pairB[q]!) + 1]!++;
    for (let u = 0; u < unitCount; u++) bucket[u + 1]! += bucket[u]!;
    for (let q = 0; q < pairCount; q++) pairOrder[bucket[Math.min(pairA[q]!, pairB[q]!)]!++] = q;
  }
  const none: [number, number][] = [];
  const adj: [number, number][][] = new Array(n).fill(none);
  for (let o = 0; o < pairCount; o++) {
    const q = pairOrder[o]!;
    const u = Math.min(pairA[q]!, pairB[q]!);
    const w = Math.max(pairA[q]!, pairB[q]!);
    const jac = pairJac[q]!;
    for (let a = memberStart[u]!; a < memberStart[u + 1]!; a++) {
      const i = members[a]!;
      for (let b = memberStart[w]!; b < memberStart[w + 1]!; b++) {
        const j = members[b]!;
        const s = score(i, j, jac);
        if (s >= 0) {
          if (adj[i] === none) adj[i] = [];
          if (adj[j] === none) adj[j] = [];
          adj[i]!.push([j, s]);
          adj[j]!.push([i, s]);
        }
      }
    }
  }
  // Identical shingle sets (Jaccard 1, never empty) are mates: linked implicitly, not pair by pair.
  // A lone member is its own only mate, which star clustering skips, so it gets none.
  const noMates: readonly number[] = [];
  const mates = (i: number): ArrayLike<number> => {
    const u = unitOf[i]!;
    const from = memberStart[u]!;
    const to = memberStart[u + 1]!;
    return unitLen[u]! > 0 && to - from > 1 ? members.subarray(from, to) : noMates;
  };
  return starClusters(items, adj, mates);
}

function sameRange(a: Int32Array, i: number, j: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (a[i + k] !== a[j + k]) return false;
  return true;
}

/** Size of the intersection of two sorted ranges of `a`. */
function intersectRanges(a: Int32Array, i: number, il: number, j: number, jl: number): number {
  const ie = i + il;
  const je = j + jl;
  let n = 0;
  while (i < ie && j < je) {
    const x = a[i]!;
    const y = a[j]!;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

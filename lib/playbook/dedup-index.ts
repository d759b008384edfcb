/**
 * The near-duplicate index behind `dedup.ts`: prefix-filtered candidate generation over flat typed
 * arrays, and star clustering around the most trusted key point. Kept apart from the public
 * functions because it is one performance-tuned unit (see `cluster`), read and changed as a whole.
 *
 * @module
 * @internal
 */
import { contentWords, FNV_PRIME } from '../core/index.js';
import { starClusters, starClustersByUnit, unitGraph } from './dedup-stars.js';
import { type KeyPoint, type Playbook, SECTION_NAMES, type SectionName } from './model.js';

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

export interface Item {
  kp: KeyPoint;
  section: SectionName;
  index: number;
}

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
  const df: number[] = [];
  const seenIn: number[] = []; // 1 + the last key point that counted the shingle
  const flat: number[] = [];
  const start = new Int32Array(n + 1);
  const seq: number[] = [];
  for (let i = 0; i < n; i++) {
    start[i] = flat.length;
    const stamp = i + 1;
    const words = contentWords(items[i]!.kp.text);
    seq.length = words.length;
    for (let k = 0; k < words.length; k++) {
      let id = wordIds.get(words[k]!);
      if (id === undefined) {
        id = df.length;
        wordIds.set(words[k]!, id);
        df.push(0);
        seenIn.push(0);
      }
      seq[k] = id;
      if (seenIn[id] !== stamp) {
        seenIn[id] = stamp;
        df[id]!++;
        flat.push(id);
      }
    }
    for (let k = 1; k < words.length; k++) {
      let id = pairIds.getOrAdd(seq[k - 1]!, seq[k]!, df.length);
      if (id < 0) {
        id = df.length;
        df.push(0);
        seenIn.push(0);
      }
      if (seenIn[id] !== stamp) {
        seenIn[id] = stamp;
        df[id]!++;
        flat.push(id);
      }
    }
  }
  start[n] = flat.length;
  const total = flat.length;
  const vocab = df.length;
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

/**
 * Probes after which {@link PairTable} gives up on its hash. Word ids come in order of first
 * appearance, so whoever writes the key points chooses which pairs occur, and pairs that share a slot
 * can be searched for offline: linear probing over them is quadratic. Past this many probes the table
 * hands its pairs to a `Map` (the runtime's string hashing) and answers the same.
 */
export const PAIR_PROBE_LIMIT = 64;

/**
 * Interns pairs of non-negative ints: open addressing with linear probing, deterministic. Slot s holds
 * (a, b, value) at 4s, 4s + 1, 4s + 2 of one array, so a probe touches one cache line.
 * @internal Exported for its tests.
 *
 * @example
 * ```ts
 * const t = new PairTable(16);
 * t.getOrAdd(1, 2, 7); // -1: stored
 * t.getOrAdd(1, 2, 9); // 7
 * ```
 */
export class PairTable {
  #slots: Int32Array;
  #mask: number;
  #size = 0;
  /** Every pair's value once the table is flooded (see {@link PAIR_PROBE_LIMIT}); null before. */
  #byPair: Map<string, number> | null = null;

  /** Room for `expected` pairs before the first growth. */
  constructor(expected: number) {
    let cap = 1024;
    while (cap < 2 * expected) cap *= 2;
    this.#slots = new Int32Array(4 * cap).fill(-1);
    this.#mask = cap - 1;
  }

  /** The value of (a, b), or -1 after storing `value` for it. */
  getOrAdd(a: number, b: number, value: number): number {
    const byPair = this.#byPair;
    if (byPair !== null) {
      const key = `${a},${b}`;
      const v = byPair.get(key);
      if (v !== undefined) return v;
      byPair.set(key, value);
      return -1;
    }
    if (2 * (this.#size + 1) > this.#mask + 1) this.#grow();
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = mix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & mask;
    for (let probes = 0; ; ) {
      const at = slot << 2;
      const v = slots[at + 2]!;
      if (v < 0) break;
      if (slots[at] === a && slots[at + 1] === b) return v;
      slot = (slot + 1) & mask;
      if (++probes > PAIR_PROBE_LIMIT) {
        const m = new Map<string, number>();
        for (let i = 0; i < slots.length; i += 4)
          if (slots[i + 2]! >= 0) m.set(`${slots[i]},${slots[i + 1]}`, slots[i + 2]!);
        this.#byPair = m;
        return this.getOrAdd(a, b, value);
      }
    }
    this.#size++;
    const at = slot << 2;
    slots[at] = a;
    slots[at + 1] = b;
    slots[at + 2] = value;
    return -1;
  }

  /** Whether the pairs have gone to a Map (see {@link PAIR_PROBE_LIMIT}). */
  get flooded(): boolean {
    return this.#byPair !== null;
  }

  #grow(): void {
    const old = this.#slots;
    const cap = 2 * (this.#mask + 1);
    const mask = cap - 1;
    const slots = new Int32Array(4 * cap).fill(-1);
    for (let at = 0; at < old.length; at += 4) {
      if (old[at + 2]! < 0) continue;
      let slot = mix(Math.imul(old[at]!, 0x9e3779b1) ^ Math.imul(old[at + 1]!, 0x85ebca77)) & mask;
      while (slots[(slot << 2) + 2]! >= 0) slot = (slot + 1) & mask;
      slots.set(old.subarray(at, at + 3), slot << 2);
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

/** 32-bit finalizer (murmur3 fmix32), as a signed int: callers mask it. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
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

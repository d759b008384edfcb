/**
 * MinHash-LSH for the snapshot's near-duplicate pass: the signature of a term set, and buckets. The
 * buckets hold, per group (a category and band) and key (a band's mixed hashes), the representatives
 * filed there, in the order filed; the pass also files candidates by key hash in them. Open
 * addressing over typed arrays, each bucket a chain of entries, rather than a `Map` of arrays per
 * group: a 10k-entry snapshot files thousands of representatives four times each, and a map entry
 * and an array apiece cost more to make (and to collect) than the look-ups they serve.
 */
import { MINHASHES, PROBE_LIMIT } from '../categorise/index.js';

/**
 * The MinHash signature of the term ids `terms[at … end)`: per hash function, the least of its terms' values. Values are
 * held with the top bit flipped (see `Vocabulary.minhashes`), so the least is the signed least.
 * @internal
 *
 * @example
 * ```ts
 * signature(vocab.termIds, at, at + len, vocab.minhashes, out); // out: 8 values
 * ```
 */
export function signature(
  terms: Int32Array,
  at: number,
  end: number,
  minhashes: Int32Array,
  out: Int32Array,
): void {
  // MINHASHES = 8 values (the snapshot's 4 bands of 2), unrolled on purpose so the eight minima stay
  // in locals, not array slots, across the loop over a candidate's terms.
  let m0 = 0x7fffffff; // 0xffffffff, flipped
  let m1 = m0;
  let m2 = m0;
  let m3 = m0;
  let m4 = m0;
  let m5 = m0;
  let m6 = m0;
  let m7 = m0;
  for (let i = at; i < end; i++) {
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
 * @internal Buckets of items by group and key (int32 each; the group at least 0).
 *
 * @example
 * ```ts
 * const b = new Buckets<string>(4);
 * b.add(0, 42, 'a');
 * b.add(0, 42, 'b');
 * for (let e = b.first(0, 42); e >= 0; e = b.after(e)) b.item(e); // 'a', then 'b'
 * ```
 */
export class Buckets<T> {
  /** Per slot: the key, the group + 1 (0 when free), the bucket's first and last entry. */
  private keys: Int32Array;
  private groups: Int32Array;
  private heads: Int32Array;
  private tails: Int32Array;
  private slotsUsed = 0;
  /**
   * Once a look-up has probed past {@link PROBE_LIMIT} slots (keys made to share low bits): every
   * bucket's slot by group and key, in a Map, and the arrays used as a plain list (see `flood`).
   */
  private bySlot: Map<string, number> | null = null;
  /** Per entry: the next entry of its bucket (-1 at the end), and its item. */
  private next = new Int32Array(64);
  private readonly items: T[] = [];

  /** `expected`: about how many buckets there will be (they grow as needed). */
  constructor(expected: number) {
    let size = 64;
    while (size < expected * 2) size *= 2;
    this.keys = new Int32Array(size);
    this.groups = new Int32Array(size);
    this.heads = new Int32Array(size);
    this.tails = new Int32Array(size);
  }

  /** The slot of bucket (`group`, `key`): where it is, or the free slot where it would go. */
  private slot(group: number, key: number): number {
    if (this.bySlot !== null) return this.bySlot.get(`${group}:${key}`) ?? this.slotsUsed;
    const mask = this.keys.length - 1;
    let s = (key ^ Math.imul(group + 1, 0x9e3779b1)) & mask;
    for (let g = this.groups[s]!, probes = 0; g !== 0; g = this.groups[s]!) {
      if (g === group + 1 && this.keys[s] === key) return s;
      s = (s + 1) & mask;
      if (++probes > PROBE_LIMIT) {
        this.flood();
        return this.slot(group, key);
      }
    }
    return s;
  }

  /**
   * Hands the buckets to a Map (keys that share a slot make linear probing quadratic): the used slots
   * are packed at the front of the arrays, in slot order, each bucket keeping its chain; a new bucket
   * takes the next free one. Which bucket an entry is in, and the order of each chain, do not change.
   */
  private flood(): void {
    const { keys, groups, heads, tails } = this;
    const size = keys.length;
    this.keys = new Int32Array(size);
    this.groups = new Int32Array(size);
    this.heads = new Int32Array(size);
    this.tails = new Int32Array(size);
    const bySlot = new Map<string, number>();
    let n = 0;
    for (let i = 0; i < size; i++) {
      if (groups[i] === 0) continue;
      this.keys[n] = keys[i]!;
      this.groups[n] = groups[i]!;
      this.heads[n] = heads[i]!;
      this.tails[n] = tails[i]!;
      bySlot.set(`${groups[i]! - 1}:${keys[i]!}`, n++);
    }
    this.bySlot = bySlot;
  }

  /** The first entry of bucket (`group`, `key`), -1 when it is empty. */
  first(group: number, key: number): number {
    const s = this.slot(group, key);
    return this.groups[s] === 0 ? -1 : this.heads[s]!;
  }

  /** The entry after `e` in its bucket, -1 after the last. */
  after(e: number): number {
    return this.next[e]!;
  }

  /** The item of entry `e`. */
  item(e: number): T {
    return this.items[e]!;
  }

  /** Files `item` last in bucket (`group`, `key`). */
  add(group: number, key: number, item: T): void {
    const e = this.items.length;
    this.items.push(item);
    if (e >= this.next.length) {
      const next = new Int32Array(this.next.length * 2);
      next.set(this.next);
      this.next = next;
    }
    this.next[e] = -1;
    const s = this.slot(group, key);
    if (this.groups[s] !== 0) {
      this.next[this.tails[s]!] = e;
      this.tails[s] = e;
      return;
    }
    this.groups[s] = group + 1;
    this.keys[s] = key;
    this.heads[s] = e;
    this.tails[s] = e;
    if (this.bySlot !== null) this.bySlot.set(`${group}:${key}`, s);
    if (++this.slotsUsed * 2 > this.keys.length) this.grow();
  }

  private grow(): void {
    const { keys, groups, heads, tails } = this;
    const size = keys.length * 2;
    this.keys = new Int32Array(size);
    this.groups = new Int32Array(size);
    this.heads = new Int32Array(size);
    this.tails = new Int32Array(size);
    if (this.bySlot !== null) {
      // A plain list: the slots keep their places.
      this.keys.set(keys);
      this.groups.set(groups);
      this.heads.set(heads);
      this.tails.set(tails);
      return;
    }
    for (let i = 0; i < keys.length; i++) {
      if (groups[i] === 0) continue;
      const s = this.slot(groups[i]! - 1, keys[i]!);
      this.groups[s] = groups[i]!;
      this.keys[s] = keys[i]!;
      this.heads[s] = heads[i]!;
      this.tails[s] = tails[i]!;
    }
  }
}

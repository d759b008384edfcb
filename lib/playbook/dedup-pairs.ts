/**
 * The interning table of adjacent-word pairs of the near-duplicate index (`dedup-index.ts`): open
 * addressing over one typed array, with a fallback for flooded inputs.
 *
 * @module
 * @internal
 */

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
export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

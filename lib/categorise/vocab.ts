/**
 * A per-snapshot vocabulary: the words of ASCII entries are read in one pass (`scanText`, scan.ts)
 * that interns each distinct word once (no string per occurrence) with its term and classification
 * flags, and hashes the entry's comparable key on the way, so exact duplicates are found without
 * building the key. Everything here is an accelerator: `scanWords` gives the words `words` gives,
 * and {@link keyHash} hashes the key `comparableKey` builds. Its tables give up their hash for a Map
 * when made to collide ({@link PROBE_LIMIT}).
 */
import { FNV_OFFSET, FNV_PRIME, fmix32 } from '../core/index.js';
import { MAX_DIGIT_KEYWORD, wordFlags } from './cues.js';
import { needlesOf } from './needles.js';
import { isStopWord, stem } from './text.js';

/**
 * Probes a look-up may take before a table gives up on its hash. A hash table with linear probing is
 * quadratic when many keys share a slot, and FNV-1a collisions are cheap to make (two 8-letter blocks
 * with the same state after them, chained, give 2^k words of one full hash): 16,384 such words took a
 * snapshot 4.4 s instead of 0.12 s. Past this many probes a table hands its keys to a `Map`, whose
 * string hashing is the runtime's (seeded in V8), and every later look-up goes there: linear again, and
 * the same ids, since ids are given in order of arrival either way. Natural text at a load of at most
 * one half stays below it: one traced snapshot of all 365,719 lines of ../shared/data (53,534 distinct
 * words) flooded none of the tables.
 *
 * @example
 * ```ts
 * if (probes > PROBE_LIMIT) useMap(); // a flooded table hands its keys to a Map
 * ```
 */
export const PROBE_LIMIT = 64;

/** Hashes are kept to small integers (Smis), cheap as map keys. */
export const MASK = 0x3fffffff;
/** The multiplier that chains the hashes of a key's space-separated tokens. */
const KEY_MUL = 0x9e3779b1 | 0;

/**
 * The hash of a comparable key: per space-separated token its FNV-1a (over UTF-16 units), chained
 * as `h * KEY_MUL + token`, masked. Chained per token so that a scan can add a word's share at once.
 *
 * @example
 * ```ts
 * keyHash(comparableKey('CI is red')) === keyHash('ci is red'); // true
 * ```
 */
export function keyHash(key: string): number {
  let h = 0;
  let t = FNV_OFFSET | 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x20) {
      h = (Math.imul(h, KEY_MUL) + t) | 0;
      t = FNV_OFFSET | 0;
    } else t = Math.imul(t ^ c, FNV_PRIME);
  }
  return ((Math.imul(h, KEY_MUL) + t) | 0) & MASK;
}
export const EMPTY_KEY_HASH = keyHash('');

/**
 * How many MinHash functions each term gets (the snapshot bands them 4 × 2).
 *
 * @example
 * ```ts
 * const signature = new Int32Array(MINHASHES);
 * ```
 */
export const MINHASHES = 8;
const SEEDS_A = [
  0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646c, 0xfd7046c5, 0xb55a4f09,
];
const SEEDS_B = [
  0x7f4a7c15, 0x2545f491, 0x4f1bbcdd, 0x68e31da4, 0x5a17c3c1, 0x1b873593, 0xcc9e2d51, 0xe6546b64,
];

const mix = fmix32;

/** FNV-1a of a string as int32 (`hash32(s) | 0`). */
function fnv(s: string): number {
  let h = FNV_OFFSET | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * The distinct words and content terms met while building one snapshot. A term (a stemmed content
 * word, as `contentTerms` gives) gets a small id, one string and its MinHash values, computed once.
 *
 * @example
 * ```ts
 * const vocab = new Vocabulary();
 * scanText('Run the tests', vocab); // 3 words, interned in vocab
 * ```
 */
export class Vocabulary {
  /** Word by id. */
  readonly words: string[] = [];
  /** The word's term id (`contentTerms([word])[0]`), or -1 for a stop word. */
  readonly wordTerm: number[] = [];
  /** The word's {@link wordFlags}. */
  readonly flags: number[] = [];
  /** The word's `needlesOf`, and theirs for the words of the last `scanText`. */
  readonly needles: number[] = [];
  needleBits = 0;
  /** The key hash of the last `scanText`. */
  keyHash = 0;
  /** Whether the text of the last `scanText` may hold a link (a `/`, or `.` and a letter). */
  linkish = false;
  /** When `linkish`: where the stretch between spaces that made it so starts (see `findLinksFrom`). */
  linkFrom = 0;
  /** Word ids of the texts scanned, one after another: one buffer, not thousands of arrays. */
  ids = new Int32Array(4096);
  idsUsed = 0;
  /** The term ids of {@link termsAt}, one list after another, likewise. */
  termIds = new Int32Array(4096);
  termIdsUsed = 0;
  /** Per word id: FNV-1a of the word (int32), its length, and where its characters start in `chars`. */
  private hashes = new Int32Array(1024);
  private lens = new Int32Array(1024);
  private offs = new Int32Array(1024);
  /** The lower-cased characters of the text being scanned, at their positions. */
  buf = new Uint8Array(1024);
  /** The words' lower-cased characters, one after the other. */
  private chars = new Uint8Array(8192);
  private charsUsed = 0;
  /** Per word id: its share of a key hash, `h * keyMul + keyAdd`. */
  keyMul = new Int32Array(1024);
  keyAdd = new Int32Array(1024);
  /** Open addressing on the word hash: id + 1 per slot, 0 when free. */
  private table = new Int32Array(2048);
  /** Every word's id once the table is flooded (see {@link PROBE_LIMIT}); null before. */
  private byWord: Map<string, number> | null = null;
  /** Likewise for terms. */
  private byTerm: Map<string, number> | null = null;
  /** Term strings by id. */
  readonly terms: string[] = [];
  /** Open addressing on the term hash: id + 1 per slot, 0 when free. */
  private termTable = new Int32Array(2048);
  private termHashes = new Int32Array(1024);
  /**
   * `MINHASHES` values per term, `mix(hash32(term) * A[k] + B[k])`, stored with the top bit flipped as
   * int32 so that signed comparisons order them as the unsigned values.
   */
  minhashes = new Int32Array(64 * MINHASHES);

  /** The id of term `t`. */
  termId(t: string): number {
    return this.termIdHashed(t, fnv(t));
  }

  /** The id of term `t`, whose FNV-1a hash (int32) is `h`. */
  private termIdHashed(t: string, h: number): number {
    let table = this.termTable;
    let mask = table.length - 1;
    let slot = h & mask;
    const byTerm = this.byTerm;
    if (byTerm !== null) {
      const known = byTerm.get(t);
      if (known !== undefined) return known;
      slot = -1;
    } else
      for (let e = table[slot]!, probes = 0; e !== 0; e = table[slot]!) {
        if (this.termHashes[e - 1] === h && this.terms[e - 1] === t) return e - 1;
        slot = (slot + 1) & mask;
        if (++probes > PROBE_LIMIT) {
          // Flooded: every term to a Map from now on (see PROBE_LIMIT).
          const m = new Map<string, number>();
          for (let i = 0; i < this.terms.length; i++) m.set(this.terms[i]!, i);
          this.byTerm = m;
          return this.termIdHashed(t, h);
        }
      }
    const id = this.terms.length;
    this.terms.push(t);
    if (id >= this.termHashes.length) this.termHashes = grown(this.termHashes);
    this.termHashes[id] = h;
    if (slot < 0) this.byTerm!.set(t, id);
    else table[slot] = id + 1;
    if (slot >= 0 && (id + 1) * 2 > table.length) {
      table = new Int32Array(table.length * 2);
      mask = table.length - 1;
      for (let j = 0; j <= id; j++) {
        let s = this.termHashes[j]! & mask;
        while (table[s] !== 0) s = (s + 1) & mask;
        table[s] = j + 1;
      }
      this.termTable = table;
    }
    let mh = this.minhashes;
    if ((id + 1) * MINHASHES > mh.length) {
      mh = new Int32Array(mh.length * 2);
      mh.set(this.minhashes);
      this.minhashes = mh;
    }
    for (let k = 0; k < MINHASHES; k++)
      mh[id * MINHASHES + k] = mix((Math.imul(h, SEEDS_A[k]!) + SEEDS_B[k]!) >>> 0) ^ 0x80000000;
    return id;
  }

  /** Term ids of `contentTerms(ws)`, in order. */
  termIdsOf(terms: readonly string[]): number[] {
    const out: number[] = new Array(terms.length);
    for (let i = 0; i < terms.length; i++) out[i] = this.termId(terms[i]!);
    return out;
  }

  /**
   * The id of `text.slice(start, end)` lower-cased, whose FNV-1a hash (int32) is `h`; the lower-cased
   * characters are in `buf` at the same positions.
   */
  id(text: string, start: number, end: number, h: number): number {
    if (this.byWord !== null) return this.idOfWord(text, start, end, h);
    const len = end - start;
    const table = this.table;
    const mask = table.length - 1;
    const chars = this.chars;
    let slot = h & mask;
    for (let e = table[slot]!, probes = 0; e !== 0; e = table[slot]!) {
      const id = e - 1;
      if (this.hashes[id] === h && this.lens[id] === len) {
        const off = this.offs[id]! - start;
        const buf = this.buf;
        let k = start;
        while (k < end && chars[off + k] === buf[k]) k++;
        if (k === end) return id;
      }
      slot = (slot + 1) & mask;
      if (++probes > PROBE_LIMIT) {
        // Flooded: every word to a Map from now on (see PROBE_LIMIT).
        const m = new Map<string, number>();
        for (let i = 0; i < this.words.length; i++) m.set(this.words[i]!, i);
        this.byWord = m;
        return this.idOfWord(text, start, end, h);
      }
    }
    return this.add(text, start, end, h, slot);
  }

  /** {@link id} once the word table is flooded: by the word itself, in a Map. */
  private idOfWord(text: string, start: number, end: number, h: number): number {
    // ASCII only (scanText's), so this is the lower-casing in `buf`.
    const known = this.byWord!.get(text.slice(start, end).toLowerCase());
    return known !== undefined ? known : this.add(text, start, end, h, -1);
  }

  /** Whether a table has handed its keys to a Map (see {@link PROBE_LIMIT}). */
  get flooded(): boolean {
    return this.byWord !== null || this.byTerm !== null;
  }

  private add(text: string, start: number, end: number, h: number, slot: number): number {
    const len = end - start;
    const buf = this.buf;
    let upper = false;
    let letters = false;
    for (let k = start; k < end; k++) {
      const c = buf[k]!;
      if (c !== text.charCodeAt(k)) upper = true;
      if (c >= 0x61 && c <= 0x7a) letters = true;
    }
    const word = upper ? text.slice(start, end).toLowerCase() : text.slice(start, end);
    const nid = this.words.length;
    this.words.push(word);
    if (nid >= this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.lens = grown(this.lens);
      this.offs = grown(this.offs);
      this.keyMul = grown(this.keyMul);
      this.keyAdd = grown(this.keyAdd);
    }
    this.hashes[nid] = h;
    this.lens[nid] = len;
    // Digits hold no needle (all are letters).
    this.needles.push(letters ? needlesOf(word) : 0);
    if (this.charsUsed + len > this.chars.length) {
      const c = new Uint8Array(Math.max(this.chars.length * 2, this.charsUsed + len));
      c.set(this.chars);
      this.chars = c;
    }
    const off = this.charsUsed;
    this.offs[nid] = off;
    for (let k = 0; k < len; k++) this.chars[off + k] = word.charCodeAt(k);
    this.charsUsed = off + len;
    if (!letters) {
      // Digits only: not a stop word, no suffix to stem (some are keywords: `404`, `0`).
      this.wordTerm.push(this.termIdHashed(word, h));
      this.flags.push(len > MAX_DIGIT_KEYWORD ? 0 : wordFlags(word));
      this.keyMul[nid] = KEY_MUL;
      this.keyAdd[nid] = h;
    } else {
      if (isStopWord(word)) this.wordTerm.push(-1);
      else {
        const t = stem(word);
        this.wordTerm.push(this.termIdHashed(t, t === word ? h : fnv(t)));
      }
      this.flags.push(wordFlags(word));
      if (word.indexOf("'") < 0) {
        this.keyMul[nid] = KEY_MUL;
        this.keyAdd[nid] = h;
      } else {
        // The key reads the apostrophe as a space: one token per part.
        let m = 1;
        let a = 0;
        for (const part of word.split("'")) {
          m = Math.imul(m, KEY_MUL);
          a = (Math.imul(a, KEY_MUL) + fnv(part)) | 0;
        }
        this.keyMul[nid] = m;
        this.keyAdd[nid] = a;
      }
    }
    if (slot < 0) this.byWord!.set(word, nid);
    else {
      this.table[slot] = nid + 1;
      if ((nid + 1) * 2 > this.table.length) this.grow();
    }
    return nid;
  }

  private grow(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.words.length; id++) {
      let slot = this.hashes[id]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.table = table;
  }

  /** {@link comparableKey} of the words with ids `ids[at … at + n)`. */
  keyAt(at: number, n: number): string {
    let k = '';
    for (let i = 0; i < n; i++) k += (i === 0 ? '' : ' ') + this.words[this.ids[at + i]!]!;
    return k.indexOf("'") < 0 ? k : k.replace(/'/g, ' ');
  }

  /** Appends the term ids of `contentTerms` of the words `src[at … at + n)`; returns where they start. */
  termsAt(src: ArrayLike<number>, at: number, n: number): number {
    const stamp = ++this.stamp;
    let seen = this.seen;
    if (seen.length < this.terms.length) seen = this.seen = new Int32Array(this.terms.length * 2);
    const from = this.termIdsUsed;
    if (from + n > this.termIds.length) this.termIds = grown(this.termIds, from + n);
    const out = this.termIds;
    let k = from;
    for (let i = at; i < at + n; i++) {
      const t = this.wordTerm[src[i]!]!;
      if (t >= 0 && seen[t] !== stamp) {
        seen[t] = stamp;
        out[k++] = t;
      }
    }
    this.termIdsUsed = k;
    return from;
  }

  /** Term ids of `contentTerms` of the words with these ids (as {@link termsAt}, kept apart). */
  termsOfWords(ids: readonly number[]): number[] {
    const at = this.termsAt(ids, 0, ids.length);
    const out = Array.from(this.termIds.subarray(at, this.termIdsUsed));
    this.termIdsUsed = at;
    return out;
  }
  /** Per term id: the {@link termsOfWords} call that last met it. */
  private seen = new Int32Array(1024);
  private stamp = 0;
}

/** A copy of `a` at least twice as long (and at least `need`). */
export function grown(a: Int32Array, need = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(a.length * 2, need));
  b.set(a);
  return b;
}

/**
 * A per-snapshot vocabulary: the words of ASCII entries are read in one pass that interns each
 * distinct word once (no string per occurrence) with its term and classification flags, and hashes
 * the entry's comparable key on the way, so exact duplicates are found without building the key.
 * Everything here is an accelerator: {@link scanWords} gives the words `words` gives, and
 * {@link keyHash} hashes the key `comparableKey` builds.
 */
import { FNV_OFFSET, FNV_PRIME, fmix32, fnv1a32 } from '../core/hash32.js';
import { wordFlags } from './classify.js';
import { contentTerms, hash32 } from './text.js';

/** Hashes are kept to small integers (Smis), cheap as map keys. */
const MASK = 0x3fffffff;
/** The hash of a comparable key: FNV-1a over its UTF-16 units (as `hash32`), masked. */
export function keyHash(key: string): number {
  return fnv1a32(key) & MASK;
}

// MinHash: 8 hash functions (used in 4 bands of 2 by the snapshot).
export const MINHASHES = 8;
const SEEDS_A = [
  0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646c, 0xfd7046c5, 0xb55a4f09,
];
const SEEDS_B = [
  0x7f4a7c15, 0x2545f491, 0x4f1bbcdd, 0x68e31da4, 0x5a17c3c1, 0x1b873593, 0xcc9e2d51, 0xe6546b64,
];

const mix = fmix32;

/**
 * The distinct words and content terms met while building one snapshot. A term (a stemmed content
 * word, as `contentTerms` gives) gets a small id, one string and its MinHash values, computed once.
 */
export class Vocabulary {
  /** Word by id. */
  readonly words: string[] = [];
  /** The word's term id (`contentTerms([word])[0]`), or -1 for a stop word. */
  readonly wordTerm: number[] = [];
  /** The word's {@link wordFlags}. */
  readonly flags: number[] = [];
  /** The key hash of the last {@link scanWords}. */
  keyHash = 0;
  /** Whether the text of the last {@link scanWords} may hold a link (a `/`, or `.` and a letter). */
  linkish = false;
  /** Scratch ids of the text being scanned. */
  private readonly scratch: number[] = [];
  /** The word's hash by id. */
  private readonly hashes: number[] = [];
  /** Open addressing on the hash: id + 1 per slot, 0 when free. */
  private table = new Int32Array(1024);
  /** Term strings by id, and ids by string. */
  readonly terms: string[] = [];
  private readonly termIds = new Map<string, number>();
  /**
   * `MINHASHES` values per term, `mix(hash32(term) * A[k] + B[k])`, stored with the top bit flipped as
   * int32 so that signed comparisons order them as the unsigned values.
   */
  minhashes = new Int32Array(64 * MINHASHES);

  /** The id of term `t`. */
  termId(t: string): number {
    let id = this.termIds.get(t);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(t);
      this.termIds.set(t, id);
      const h = hash32(t);
      let mh = this.minhashes;
      if ((id + 1) * MINHASHES > mh.length) {
        mh = new Int32Array(mh.length * 2);
        mh.set(this.minhashes);
        this.minhashes = mh;
      }
      for (let k = 0; k < MINHASHES; k++)
        mh[id * MINHASHES + k] = mix((Math.imul(h, SEEDS_A[k]!) + SEEDS_B[k]!) >>> 0) ^ 0x80000000;
    }
    return id;
  }

  /** Term ids of `contentTerms(ws)`, in order. */
  termIdsOf(terms: readonly string[]): number[] {
    const out: number[] = new Array(terms.length);
    for (let i = 0; i < terms.length; i++) out[i] = this.termId(terms[i]!);
    return out;
  }

  /**
   * The id of `text.slice(start, end)` lower-cased (`upper`: it has capitals), whose FNV-1a hash
   * (masked) is `h`.
   */
  id(text: string, start: number, end: number, h: number, upper: boolean): number {
    const len = end - start;
    const table = this.table;
    const mask = table.length - 1;
    let slot = h & mask;
    for (let e = table[slot]!; e !== 0; e = table[slot]!) {
      const id = e - 1;
      if (this.hashes[id] === h) {
        const w = this.words[id]!;
        if (w.length === len) {
          let k = 0;
          if (upper) {
            for (; k < len; k++) {
              let d = text.charCodeAt(start + k);
              if (d >= 0x41 && d <= 0x5a) d |= 0x20;
              if (w.charCodeAt(k) !== d) break;
            }
          } else while (k < len && w.charCodeAt(k) === text.charCodeAt(start + k)) k++;
          if (k === len) return id;
        }
      }
      slot = (slot + 1) & mask;
    }
    const word = upper ? text.slice(start, end).toLowerCase() : text.slice(start, end);
    const nid = this.words.length;
    this.words.push(word);
    this.hashes.push(h);
    const terms = contentTerms([word]);
    this.wordTerm.push(terms.length > 0 ? this.termId(terms[0]!) : -1);
    this.flags.push(wordFlags(word));
    table[slot] = nid + 1;
    if ((nid + 1) * 2 > table.length) this.grow();
    return nid;
  }

  /** The scratch id list, emptied. */
  scratchIds(): number[] {
    this.scratch.length = 0;
    return this.scratch;
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

  /** {@link comparableKey} of the words with these ids. */
  keyOf(ids: readonly number[]): string {
    let k = '';
    for (let i = 0; i < ids.length; i++) k += i === 0 ? this.words[ids[i]!]! : ` ${this.words[ids[i]!]!}`;
    return k.indexOf("'") < 0 ? k : k.replace(/'/g, ' ');
  }

  /** Term ids of `contentTerms` of the words with these ids. */
  termsOfWords(ids: readonly number[]): number[] {
    const out: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const t = this.wordTerm[ids[i]!]!;
      if (t >= 0 && !out.includes(t)) out.push(t);
    }
    return out;
  }
}

/**
 * The ids of `words(text)` when `text` is ASCII and `squash` would leave it as is, else null (the
 * caller takes the general path). The same loop as `words` (lower-casing as it goes), interning each
 * word in `vocab`. Sets `vocab.keyHash` to the {@link keyHash} of the words joined by spaces with
 * apostrophes as spaces, and `vocab.linkish`.
 */
export function scanWords(text: string, vocab: Vocabulary): number[] | null {
  const ids = vocab.scratchIds();
  let start = -1;
  let upper = false;
  let wh = FNV_OFFSET;
  let kh = FNV_OFFSET;
  let space = true; // a space here would be leading (or doubled): squash would change the text
  let linkish = false;
  let prev = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x80) return null;
    if (c === 0x20) {
      if (space) return null;
      space = true;
    } else if (c <= 0x0d && c >= 0x09) return null;
    else space = false;
    if (c === 0x2f) linkish = true;
    else if (prev === 0x2e && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) linkish = true;
    prev = c;
    if (c >= 0x41 && c <= 0x5a) {
      c |= 0x20;
      upper = true;
    }
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (start < 0) {
        start = i;
        wh = FNV_OFFSET;
        if (ids.length > 0) kh = Math.imul(kh ^ 0x20, FNV_PRIME);
      }
      wh = Math.imul(wh ^ c, FNV_PRIME);
      kh = Math.imul(kh ^ c, FNV_PRIME);
    } else if (start >= 0) {
      if (c === 0x27) {
        let n = text.charCodeAt(i + 1);
        if (n >= 0x41 && n <= 0x5a) n |= 0x20;
        if (n >= 0x61 && n <= 0x7a) {
          // isn't, can't: one word; the key reads the apostrophe as a space
          wh = Math.imul(wh ^ 0x27, FNV_PRIME);
          kh = Math.imul(kh ^ 0x20, FNV_PRIME);
          continue;
        }
      }
      ids.push(vocab.id(text, start, i, wh & MASK, upper));
      start = -1;
      upper = false;
    }
  }
  if (space && text.length > 0) return null; // a trailing space
  if (start >= 0) ids.push(vocab.id(text, start, text.length, wh & MASK, upper));
  vocab.keyHash = kh & MASK;
  vocab.linkish = linkish;
  return ids.slice();
}

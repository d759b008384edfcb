/**
 * A per-snapshot vocabulary: the words of ASCII entries are read in one pass that interns each
 * distinct word once (no string per occurrence) with its term and classification flags, and hashes
 * the entry's comparable key on the way, so exact duplicates are found without building the key.
 * Everything here is an accelerator: {@link scanWords} gives the words `words` gives, and
 * {@link keyHash} hashes the key `comparableKey` builds.
 */
import { FNV_OFFSET, FNV_PRIME, fmix32 } from '../core/index.js';
import { MAX_DIGIT_KEYWORD, wordFlags } from './cues.js';
import { needlesOf } from './needles.js';
import { isStopWord, stem } from './text.js';

/** Hashes are kept to small integers (Smis), cheap as map keys. */
const MASK = 0x3fffffff;
/** The multiplier that chains the hashes of a key's space-separated tokens. */
const KEY_MUL = 0x9e3779b1 | 0;

/**
 * The hash of a comparable key: per space-separated token its FNV-1a (over UTF-16 units), chained
 * as `h * KEY_MUL + token`, masked. Chained per token so that a scan can add a word's share at once.
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
const EMPTY_KEY_HASH = keyHash('');

// MinHash: 8 hash functions (used in 4 bands of 2 by the snapshot).
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
 */
export class Vocabulary {
  /** Word by id. */
  readonly words: string[] = [];
  /** The word's term id (`contentTerms([word])[0]`), or -1 for a stop word. */
  readonly wordTerm: number[] = [];
  /** The word's {@link wordFlags}. */
  readonly flags: number[] = [];
  /** The word's `needlesOf`, and theirs for the words of the last {@link scanText}. */
  readonly needles: number[] = [];
  needleBits = 0;
  /** The key hash of the last {@link scanWords}. */
  keyHash = 0;
  /** Whether the text of the last {@link scanWords} may hold a link (a `/`, or `.` and a letter). */
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
    for (let e = table[slot]!; e !== 0; e = table[slot]!) {
      if (this.termHashes[e - 1] === h && this.terms[e - 1] === t) return e - 1;
      slot = (slot + 1) & mask;
    }
    const id = this.terms.length;
    this.terms.push(t);
    if (id >= this.termHashes.length) this.termHashes = grown(this.termHashes);
    this.termHashes[id] = h;
    table[slot] = id + 1;
    if ((id + 1) * 2 > table.length) {
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
    const len = end - start;
    const table = this.table;
    const mask = table.length - 1;
    const chars = this.chars;
    let slot = h & mask;
    for (let e = table[slot]!; e !== 0; e = table[slot]!) {
      const id = e - 1;
      if (this.hashes[id] === h && this.lens[id] === len) {
        const off = this.offs[id]! - start;
        const buf = this.buf;
        let k = start;
        while (k < end && chars[off + k] === buf[k]) k++;
        if (k === end) return id;
      }
      slot = (slot + 1) & mask;
    }
    return this.add(text, start, end, h, slot);
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
    this.table[slot] = nid + 1;
    if ((nid + 1) * 2 > this.table.length) this.grow();
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

function grown(a: Int32Array, need = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(a.length * 2, need));
  b.set(a);
  return b;
}

// Character classes of ASCII for scanWords.
const LOWER = 1; // a-z
const UPPER = 2; // A-Z
const DIGIT = 4; // 0-9
const SPACE = 8; // ' '
const CONTROL = 16; // \t \n \v \f \r: squash would change the text
const SLASH = 32;
const DOT = 64;
const APOSTROPHE = 128;
const CLASS = new Uint8Array(128);
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LOWER;
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = UPPER;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT;
CLASS[0x20] = SPACE;
for (let c = 0x09; c <= 0x0d; c++) CLASS[c] = CONTROL;
CLASS[0x2f] = SLASH;
CLASS[0x2e] = DOT;
CLASS[0x27] = APOSTROPHE;

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** {@link scanText}'s ids as an array, or null (the caller takes the general path). */
export function scanWords(text: string, vocab: Vocabulary): number[] | null {
  const n = scanText(text, vocab);
  return n < 0 ? null : Array.from(vocab.ids.subarray(vocab.idsUsed, vocab.idsUsed + n));
}

/**
 * How many words `words(text)` has when `text` is ASCII and `squash` would leave it as is, their ids
 * written to `vocab.ids` from `vocab.idsUsed` (kept once the caller moves `idsUsed` past them), else
 * -1. The same loop as `words` (lower-casing as it goes), interning each word in `vocab`. Sets
 * `vocab.keyHash` to the {@link keyHash} of the words joined by spaces with apostrophes as spaces,
 * `vocab.linkish`, and `vocab.needleBits`.
 */
export function scanText(text: string, vocab: Vocabulary): number {
  const len = text.length;
  // At most one word per two characters, plus one.
  if (vocab.idsUsed + len + 1 > vocab.ids.length) vocab.ids = grown(vocab.ids, vocab.idsUsed + len + 1);
  const ids = vocab.ids;
  const base = vocab.idsUsed;
  let n = 0;
  let start = -1;
  let wh = 0;
  let kh = 0;
  let needles = 0;
  let lastSpace = -1; // a space right after it would be leading (or doubled): squash would change the text
  let linkish = false;
  if (len > vocab.buf.length) vocab.buf = new Uint8Array(Math.max(len, vocab.buf.length * 2));
  const buf = vocab.buf;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return -1;
    const k = CLASS[c]!;
    if (k & (LOWER | UPPER | DIGIT)) {
      if (start < 0) {
        start = i;
        wh = FNV_OFFSET | 0;
      }
      const l = c | 0x20; // lower case: letters and digits alike (digits have the bit)
      buf[i] = l;
      wh = Math.imul(wh ^ l, FNV_PRIME);
      continue;
    }
    if (k !== 0) {
      if (k === SPACE) {
        if (lastSpace === i - 1) return -1;
        lastSpace = i;
      } else if (k === CONTROL) return -1;
      else if (k === SLASH || (k === DOT && i + 1 < len && isLetter(text.charCodeAt(i + 1)))) {
        if (!linkish) {
          linkish = true;
          vocab.linkFrom = lastSpace + 1;
        }
      } else if (k === APOSTROPHE && start >= 0 && i + 1 < len && isLetter(text.charCodeAt(i + 1))) {
        // isn't, can't: one word; the key reads the apostrophe as a space
        wh = Math.imul(wh ^ 0x27, FNV_PRIME);
        buf[i] = 0x27;
        continue;
      }
    }
    if (start >= 0) {
      const id = vocab.id(text, start, i, wh);
      ids[base + n++] = id;
      kh = (Math.imul(kh, vocab.keyMul[id]!) + vocab.keyAdd[id]!) | 0;
      needles |= vocab.needles[id]!;
      start = -1;
    }
  }
  if (lastSpace === len - 1 && len > 0) return -1; // a trailing space
  if (start >= 0) {
    const id = vocab.id(text, start, len, wh);
    ids[base + n++] = id;
    kh = (Math.imul(kh, vocab.keyMul[id]!) + vocab.keyAdd[id]!) | 0;
    needles |= vocab.needles[id]!;
  }
  vocab.keyHash = n > 0 ? kh & MASK : EMPTY_KEY_HASH;
  vocab.linkish = linkish;
  vocab.needleBits = needles;
  return n;
}

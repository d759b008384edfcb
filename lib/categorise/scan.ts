/**
 * The one pass over an ASCII entry text that splits it into words as `words` does, lower-casing and
 * interning each in the snapshot's {@link Vocabulary}, and hashes its comparable key on the way.
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import { EMPTY_KEY_HASH, grown, MASK, type Vocabulary } from './vocab.js';

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
 *
 * @example
 * ```ts
 * const vocab = new Vocabulary();
 * scanText('Run the tests', vocab); // 3
 * scanText('café', vocab); // -1: not ASCII, read by words() instead
 * ```
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

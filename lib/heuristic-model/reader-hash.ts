/**
 * The reader's hashed features without their names: the buckets of `readerFeatures(e).map(hashFeature)`
 * (the same set), computed by running FNV-1a over the pieces of each name (`u:` then the word; `v:`,
 * the previous word, `_`, the word) instead of joining them into strings first, with one pass over a
 * word's characters for all the names it is part of. Every turn of every session goes through
 * `readerHashes`: the one-pass scan of `reader-scan.ts` reads most turns, and the strings path here
 * (`partsHashes`, over `baseParts` and `readerParts`) the rest; `readerFeatures` stays the reference
 * both are tested against.
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import type { TurnEvidence } from '../heuristic/index.js';
import { baseParts, vocabulary } from './features.js';
import {
  BUCKETS,
  cjkRuns,
  hasCjk,
  isTemplate,
  MAX_WORDS,
  readerProse,
  readerTurn,
  readerWord,
  readsBase,
  replyParts,
} from './reader-features.js';
import { scanHashes } from './reader-scan.js';
import { BucketList, END_BUCKETS, fnv, more, step } from './reader-shape.js';

const MASK = BUCKETS - 1;

const U = more(FNV_OFFSET, 'u:');
const V = more(FNV_OFFSET, 'v:');
const K = more(FNV_OFFSET, 'k:');
const X = more(FNV_OFFSET, 'x:');
const BIAS = fnv('bias');
const FIRST_OTHER = fnv('f:*');
const SECOND_OTHER = fnv('s:*');

/** A vocabulary word's hashes as the first or second word of a turn: `f:<word>`, `s:<word>`. */
interface VocabHash {
  first: number;
  second: number;
}
let vocabCache: VocabHash[] | undefined;

/** The hashes of each vocabulary word, by its id (`baseParts` gives each word's id). */
function vocabHashes(): VocabHash[] {
  if (!vocabCache) {
    vocabCache = [];
    for (const [w, id] of vocabulary()) vocabCache[id] = { first: fnv(`f:${w}`), second: fnv(`s:${w}`) };
  }
  return vocabCache;
}
const UNDERSCORE = 95;
const AMPERSAND = 38;
const DOLLAR = 36;
const {
  pastedShare: PASTED_SHARE,
  template: TEMPLATE,
  scriptCjk: SCRIPT_CJK,
  claim: CLAIM,
  error: ERROR,
  asked: ASKED,
  ack: ACK,
} = END_BUCKETS;

const out = new BucketList();
const push = (bucket: number): void => out.push(bucket);

/**
 * @internal The buckets of a turn's reader features (some more than once): a view of a buffer that
 * the next call overwrites (read it before calling again).
 *
 * @example
 * ```ts
 * new Set(readerHashes(turn)); // the buckets of readerFeatures(turn).map(hashFeature)
 * ```
 */
export function readerHashes(e: TurnEvidence): Int32Array {
  return scanHashes(e) ?? partsHashes(e);
}

/**
 * @internal {@link readerHashes} read through `baseParts` and `readerParts` (the strings path): what
 * it does for the turns `scanHashes` leaves, and what the tests hold the scan to.
 *
 * @example
 * ```ts
 * new Set(partsHashes(turn)); // the same set as new Set(readerHashes(turn))
 * ```
 */
export function partsHashes(turn: TurnEvidence): Int32Array {
  out.reset();
  const e = readerTurn(turn);
  // `turnFeatures` as the reader reads it: the first two words, the tail but its out-of-vocabulary
  // share, then every pair of shape features (`x:a&b`, code-unit order).
  const base = baseParts(e);
  const { words, ids } = base;
  const tail = base.tail.filter(readsBase);
  const vocab = vocabHashes();
  push(BIAS);
  for (let i = 0; i < words.length && i < 2; i++) {
    const known = ids[i]! >= 0 ? vocab[ids[i]!] : undefined;
    push(known ? (i === 0 ? known.first : known.second) : i === 0 ? FIRST_OTHER : SECOND_OTHER);
  }
  // The shape features: the tail, and the first word's `f:`.
  const shape = tail.slice();
  for (const f of tail) push(fnv(f));
  if (words.length > 0) shape.push(`f:${ids[0]! >= 0 ? words[0] : '*'}`);
  // Code-unit order, as `sort()` gives; an insertion sort, for the dozen names or fewer.
  for (let i = 1; i < shape.length; i++) {
    const x = shape[i]!;
    let j = i - 1;
    for (; j >= 0 && shape[j]! > x; j--) shape[j + 1] = shape[j]!;
    shape[j + 1] = x;
  }
  for (let i = 0; i < shape.length; i++) {
    const a = step(more(X, shape[i]!), AMPERSAND);
    for (let j = i + 1; j < shape.length; j++) push(more(a, shape[j]!) & MASK);
  }
  // `readerParts`, read in place: no copy of its words.
  const p = readerProse(e, base);
  if (p.lines > 0) push(PASTED_SHARE[Math.min(4, Math.floor((p.pasted * 5) / p.lines))]!);
  if (isTemplate(p.raw)) push(TEMPLATE);
  // `v:<previous>_<word>`: the state after `v:<previous>_` is kept from the previous word.
  let after = step(more(V, '^'), UNDERSCORE);
  const read = Math.min(p.words.length, MAX_WORDS);
  for (let w = 0; w < read; w++) {
    const word = readerWord(p.words[w]!);
    // One pass over the word's code units carries three FNV states: `u:<word>`, `v:<previous>_<word>`
    // and `v:<word>`, the start of the next word's pair.
    let u = U;
    let pair = after;
    let next = V;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      u = Math.imul(u ^ c, FNV_PRIME);
      pair = Math.imul(pair ^ c, FNV_PRIME);
      next = Math.imul(next ^ c, FNV_PRIME);
    }
    if (!hasCjk(word)) {
      push(u & MASK);
      push(pair & MASK);
    }
    after = step(next, UNDERSCORE);
  }
  if (read > 0) push(step(after, DOLLAR) & MASK);
  let cjk = 0;
  for (const run of cjkRuns(p.text)) {
    for (let i = 0; i < run.length && cjk < MAX_WORDS; i++, cjk++) {
      const k = step(K, run.charCodeAt(i));
      push(k & MASK);
      if (i + 1 < run.length) push(step(k, run.charCodeAt(i + 1)) & MASK);
    }
  }
  if (cjk > 0) push(SCRIPT_CJK);
  const reply = replyParts(e.reply);
  if (reply.claim) push(CLAIM);
  if (reply.error) push(ERROR);
  if (reply.asked) push(ASKED);
  if (e.acknowledged) push(ACK);
  return out.view();
}

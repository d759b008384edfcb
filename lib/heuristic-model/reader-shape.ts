/**
 * The names the reader's one-pass scan (`reader-scan.ts`) hashes by number rather than by building
 * them: the shape and context names of `baseParts`' tail, their pairs (`x:a&b`, in code-unit order)
 * and the pairs of each with `f:<first word>`, hashed on first use and kept; the vocabulary words'
 * `f:` and `s:` buckets (a turn's first and second word), by vocabulary id.
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import { vocabulary } from './features.js';
import { BUCKETS } from './reader-features.js';

const MASK = BUCKETS - 1;
/** @internal FNV-1a state `h` continued over the code units of `s`. @example `more(FNV_OFFSET, 'u:')` */
export const more = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
};
/** @internal FNV-1a state `h` continued over one code unit. @example `step(FNV_OFFSET, 97)` */
export const step = (h: number, code: number): number => Math.imul(h ^ code, FNV_PRIME);
/** @internal The bucket of a feature name (`hashFeature`). @example `fnv('bias')` */
export const fnv = (s: string): number => more(FNV_OFFSET, s) & MASK;

/**
 * @internal The buckets both reading paths give at a turn's end: the pasted share (`pr:0`…`pr:4`), a
 * template, CJK script, and what the answered reply did (claimed a fix, showed an error, asked).
 *
 * @example
 * ```ts
 * END_BUCKETS.claim === fnv('r:claim'); // true
 * ```
 */
export const END_BUCKETS = {
  pastedShare: [0, 1, 2, 3, 4].map((k) => fnv(`pr:${k}`)),
  template: fnv('t:template'),
  scriptCjk: fnv('script:cjk'),
  claim: fnv('r:claim'),
  error: fnv('r:error'),
  asked: fnv('r:asked'),
  ack: fnv('r:ack'),
} as const;

/**
 * @internal A list of buckets reused from turn to turn (each reading path keeps one): `reset()` at a
 * turn's start, `push` as features are read, `view()` at its end, valid until the next `reset()`.
 *
 * @example
 * ```ts
 * const out = new BucketList();
 * out.reset();
 * out.push(fnv('bias'));
 * out.view().length; // 1
 * ```
 */
export class BucketList {
  private buf = new Int32Array(1024);
  private n = 0;
  reset(): void {
    this.n = 0;
  }
  push(bucket: number): void {
    if (this.n === this.buf.length) {
      const grown = new Int32Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[this.n++] = bucket;
  }
  view(): Int32Array {
    return this.buf.subarray(0, this.n);
  }
}

/**
 * The shape and context names of `baseParts`' tail that the reader reads, by number (it leaves out the
 * out-of-vocabulary share, `oov:`: see `readerFeatures`).
 */
const TAIL = [
  ...[0, 1, 2, 3, 4, 5, 6].map((b) => `len:${b}`),
  ...['p:ends?', 'p:?', 'p:!', 'p:??', 'p:caps', 'p:lower', 'paste:long', 'paste:short', 'paste:error'],
  ...['ctx:first', 'ctx:noreply', 'ctx:asked'],
  ...['m:correction', 'm:challenge', 'm:preference', 'm:approval', 'm:friction'],
  ...['c:interrupted', 'c:repeat', 'c:undo'],
];
/**
 * @internal The numbers of the tail's names (`LEN + bucket`, then one each).
 *
 * @example
 * ```ts
 * TAIL_NAMES[TAIL_ID.LOWER]; // 'p:lower'
 * ```
 */
export const TAIL_ID = {
  LEN: 0,
  ENDS_Q: 7,
  Q: 8,
  BANG: 9,
  QQ: 10,
  CAPS: 11,
  LOWER: 12,
  LONG: 13,
  SHORT: 14,
  PASTE_ERROR: 15,
  FIRST: 16,
  NO_REPLY: 17,
  ASKED: 18,
  CORRECTION: 19,
  CHALLENGE: 20,
  PREFERENCE: 21,
  APPROVAL: 22,
  FRICTION: 23,
  INTERRUPTED: 24,
  REPEAT: 25,
  UNDO: 26,
} as const;
/**
 * @internal The tail's names by number.
 *
 * @example
 * ```ts
 * TAIL_NAMES[0]; // 'len:0'
 * ```
 */
export const TAIL_NAMES: readonly string[] = TAIL;
const T = TAIL.length;

/** @internal The tables the scan reads (see the module comment). */
export interface Tables {
  /** `fnv` of each tail name. */
  single: Int32Array;
  /** Each tail name's place in code-unit order (what `sort()` gives the names). */
  rank: Int32Array;
  /** Bucket + 1 of `x:<a>&<b>` for tail names a before b, by `a * T + b`; 0 not yet hashed. */
  pairs: Int32Array;
  /** Bucket + 1 of the pair of `f:<first word>` (`f:*` at 0, vocabulary id + 1 after) and a tail name. */
  firstPairs: Int32Array;
  /** Per vocabulary id: the `f:` and `s:` buckets (the word first or second in a turn). */
  first: Int32Array;
  second: Int32Array;
  words: string[];
}
let tables: Tables | undefined;

/**
 * @internal The tables, built on first use.
 *
 * @example
 * ```ts
 * shapeTables().first[vocabulary().get('still')!] === hashFeature('f:still'); // true
 * ```
 */
export function shapeTables(): Tables {
  if (tables) return tables;
  const words = [...vocabulary().keys()];
  const order = TAIL.map((_, i) => i).sort((a, b) => (TAIL[a]! < TAIL[b]! ? -1 : 1));
  const rank = new Int32Array(T);
  order.forEach((k, r) => {
    rank[k] = r;
  });
  tables = {
    single: Int32Array.from(TAIL, fnv),
    rank,
    pairs: new Int32Array(T * T),
    firstPairs: new Int32Array((words.length + 1) * T),
    first: Int32Array.from(words, (w) => fnv(`f:${w}`)),
    second: Int32Array.from(words, (w) => fnv(`s:${w}`)),
    words,
  };
  return tables;
}

/** The bucket of `x:<a>&<b>`. */
const pairOf = (a: string, b: string): number => more(step(more(more(FNV_OFFSET, 'x:'), a), 38), b) & MASK;

/**
 * @internal The tail's buckets and those of every pair of shape names (`x:a&b`, code-unit order),
 * given to `push`: the tail's `s` names by number in `shape` (sorted here, in place), and
 * `f:<first word>` when `first` is not -1 (0 for `f:*`, else the first word's vocabulary id + 1).
 * `f:` sorts after the `c:` and `ctx:` names and before all others.
 *
 * @example
 * ```ts
 * hashShape(shapeTables(), Int32Array.of(TAIL_ID.LEN + 1, TAIL_ID.FIRST), 2, 0, (b) => out.push(b));
 * ```
 */
export function hashShape(
  t: Tables,
  shape: Int32Array,
  s: number,
  first: number,
  push: (bucket: number) => void,
): void {
  const { rank, pairs, firstPairs, single } = t;
  for (let i = 0; i < s; i++) push(single[shape[i]!]!);
  // Code-unit order of the names: an insertion sort by rank, for the dozen or fewer.
  for (let i = 1; i < s; i++) {
    const x = shape[i]!;
    let j = i - 1;
    for (; j >= 0 && rank[shape[j]!]! > rank[x]!; j--) shape[j + 1] = shape[j]!;
    shape[j + 1] = x;
  }
  for (let i = 0; i < s; i++) {
    const a = shape[i]!;
    for (let j = i + 1; j < s; j++) {
      const key = a * T + shape[j]!;
      let h = pairs[key]!;
      if (h === 0) {
        h = pairOf(TAIL[a]!, TAIL[shape[j]!]!) + 1;
        pairs[key] = h;
      }
      push(h - 1);
    }
  }
  if (first < 0) return;
  for (let i = 0; i < s; i++) {
    const a = shape[i]!;
    const key = first * T + a;
    let h = firstPairs[key]!;
    if (h === 0) {
      const name = first === 0 ? 'f:*' : `f:${t.words[first - 1]}`;
      h = (TAIL[a]!.startsWith('c') ? pairOf(TAIL[a]!, name) : pairOf(name, TAIL[a]!)) + 1;
      firstPairs[key] = h;
    }
    push(h - 1);
  }
}

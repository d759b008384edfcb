/**
 * Marker compilation for the scanner: the marker vocabulary in an open-addressing table of FNV-1a
 * hashes, patterns indexed by their first word, and the character classes and signal bits both halves
 * share.
 */
import { FNV_PRIME, fnv1a32, FNV_OFFSET as OFFSET } from '../core/index.js';
import type { MarkerSet } from './markers.js';

export { FNV_PRIME };
/**
 * @internal rearview/core's FNV-1a offset as an int32: the scanner hashes each word as it reads it
 * (a small integer all the way, never a double), the table holds `fnv1a32(word) | 0`, the same bits.
 */
export const FNV_OFFSET = OFFSET | 0;

/** Signal bits returned by {@link scanTurn}. */
export const CORRECTION = 1;
export const CHALLENGE = 2;
export const PREFERENCE = 4;
export const POSITIVE = 8;
export const FRICTION = 16;

/** @internal */
export const UNKNOWN = 0;
/** @internal */
export const COMMA = 1;
/** @internal */
export const GAP = -1;
/** @internal */
export const MAX_GAP = 3;
/** @internal */
export const MAX_SENTENCE = 512;
/** @internal */
export const MAX_WORD = 24;

/** Characters that are common in code and logs and rare in prose. */
const SYMBOLS = '{}()[]<>=;:|\\/$#@%&*+~^';
/** A line starting with one of these is pasted output or code, not prose. */
const PASTE_LEADS = '$%+|<{}[]#>';
/** @internal */
export const SYMBOL = 1;
/** @internal */
export const PASTE_LEAD = 2;
/** @internal An ASCII word character (letter, digit, `_`): {@link isWordCode} for ASCII, by table. */
export const WORD = 4;

/** A contraction of `not` in a marker (`don't`, `isn’t`, `won't`). */
const SPELLED = /\b(\w+)n['’]t\b/g;

/** Trailing flags of a marker, in the order of {@link Pattern}'s `end`, `question`, `statement`, `more`. */
const FLAGS = '$?!+';
/** @internal The marker lists, in signal-bit order (CORRECTION, CHALLENGE, PREFERENCE, POSITIVE, FRICTION). */
export const LISTS = ['correction', 'challenge', 'preference', 'positive', 'friction'] as const;

const FILLERS =
  'ok okay oh ah well so and but hmm hm ugh wow yes yeah yep hey hi sorry btw please just now then also ' +
  'hello whoa um uh alright';
const NEGATORS =
  'not no never dont doesnt didnt isnt arent wasnt werent cant cannot wont wouldnt shouldnt couldnt ' +
  'hardly nothing nobody without neither nor';

/** @internal One compiled marker. */
export interface Pattern {
  toks: number[];
  /** The second token, when it is a word or a clause break: checked before matching. */
  next: number;
  bits: number;
  start: boolean;
  end: boolean;
  question: boolean;
  statement: boolean;
  more: boolean;
}

/**
 * @internal The patterns that start with one word: those whose second token is known (a word or a
 * clause break) indexed by it, the rest (a gap next, or a single word) in `any`. The scanner looks up
 * the sentence's next token instead of testing every pattern of a common first word ("i" starts 43).
 */
export interface FirstWord {
  any: Pattern[];
  next: Map<number, Pattern[]>;
}

/**
 * Marker lists compiled for {@link scanTurn}: reuse one across calls (compiling takes well under a
 * millisecond, but a 64 MB transcript has a million turns).
 */
export interface CompiledMarkers {
  readonly markers: MarkerSet;
  /** @internal */ keys: Int32Array;
  /** @internal */ ids: Int32Array;
  /** @internal */ mask: number;
  /** @internal */ words: string[];
  /** @internal */ byFirst: (FirstWord | undefined)[];
  /** @internal */ filler: Uint8Array;
  /** @internal */ negator: Uint8Array;
  /** @internal ASCII classes: {@link SYMBOL}, {@link PASTE_LEAD}, {@link WORD}. */ cls: Uint8Array;
  /** @internal */ buf: Int32Array;
  /** @internal The scanned text's code units (`scanner.ts` `codesOf`), reused between calls. */ codes: Uint16Array;
  /** @internal Its UTF-8, on the way there. */ bytes: Uint8Array;
  /** @internal Created on first use. */ encoder: TextEncoder | undefined;
  /** @internal */ pending: number;
  /** @internal */ but: number;
  /**
   * @internal Characters scanned with these markers, counted until the warm-up (`exercise.ts`): it ran
   * once this reaches `WARM_AFTER`.
   */
  scanned: number;
}

export function isWordCode(c: number): boolean {
  if (c < 0x80) {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
  }
  return (
    (c >= 0xc0 && c < 0x2000 && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x2c00 && c < 0x2e00) ||
    (c >= 0x3040 && c < 0xd800) ||
    (c >= 0xf900 && c < 0xfe00) ||
    // Full-width letters and half-width kana; not the full-width digits and ！，：；？ before them.
    (c > 0xff20 && c < 0xfff0)
  );
}

/**
 * @internal Whether `c` is written without spaces between words: kana and CJK ideographs (U+3040 to
 * U+9FFF). Each is a word of its own, in the markers and in the scanned text alike, so "不对" matches
 * inside "还是不对啊" as "not working" matches inside a sentence. Hangul is written with spaces: not here.
 */
export function isIdeograph(c: number): boolean {
  return c >= 0x3040 && c < 0xa000;
}

/**
 * Lower-cases ASCII, Latin-1 and Cyrillic capitals (what `toLowerCase` does to them in the markers),
 * so corrections in Spanish, Portuguese, French, German and Russian match whatever their case.
 */
export function lower(c: number): number {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0xc0 && c <= 0xde && c !== 0xd7) || (c >= 0x410 && c <= 0x42f)
    ? c + 32
    : c >= 0x400 && c <= 0x40f
      ? c + 80
      : c;
}

export function isApostrophe(c: number): boolean {
  return c === 0x27 || c === 0x2019;
}

/** Splits a marker into lower-case words, `,` (clause break) and `*` (gap) tokens. */
function markerTokens(src: string): string[] {
  const out: string[] = [];
  let word = '';
  const flush = () => {
    if (word) out.push(word);
    word = '';
  };
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (isIdeograph(c)) {
      flush();
      out.push(src[i]!);
    } else if (isWordCode(c)) word += src[i]!.toLowerCase();
    else if (isApostrophe(c) && word) continue;
    else {
      flush();
      if (c === 0x2c || c === 0x3b || c === 0x3a) {
        if (out.length && out[out.length - 1] !== ',') out.push(',');
      } else if (c === 0x2a) out.push('*');
    }
  }
  flush();
  while (out[0] === '*') out.shift();
  while (out[out.length - 1] === '*') out.pop();
  return out;
}

/**
 * Compiles marker lists for {@link scanTurn}. Lists that are missing or hold non-strings are tolerated.
 *
 * @example
 * ```ts
 * const compiled = compileMarkers({ ...DEFAULT_MARKERS, correction: [...DEFAULT_MARKERS.correction, 'scrap that'] });
 * heuristicReflect(messages, { markers: compiled });
 * ```
 */
export function compileMarkers(markers: MarkerSet): CompiledMarkers {
  const vocab = new Map<string, number>();
  const words: string[] = ['', ','];
  const idOf = (w: string): number => {
    if (w === ',') return COMMA;
    let id = vocab.get(w);
    if (id === undefined) {
      id = words.length;
      words.push(w);
      vocab.set(w, id);
    }
    return id;
  };
  const byFirst: (FirstWord | undefined)[] = [];
  const add = (raw: string, bits: number) => {
    let src = raw.trim();
    const start = src.startsWith('^');
    if (start) src = src.slice(1);
    // Trailing flags, in any order: `$` end, `?` question, `!` statement, `+` more.
    const flags: boolean[] = [];
    for (;;) {
      const f = FLAGS.indexOf(src[src.length - 1] ?? ' ');
      if (f < 0) break;
      flags[f] = true;
      src = src.slice(0, -1).trimEnd();
    }
    const toks = markerTokens(src);
    if (toks.length === 0 || toks[0] === ',') return;
    const p: Pattern = {
      toks: toks.map((t) => (t === '*' ? GAP : idOf(t))),
      next: GAP,
      bits,
      start,
      end: !!flags[0],
      question: !!flags[1],
      statement: !!flags[2],
      more: !!flags[3],
    };
    p.next = p.toks[1] ?? GAP;
    const first = p.toks[0]!;
    let entry = byFirst[first];
    if (!entry) {
      entry = { any: [], next: new Map<number, Pattern[]>() };
      byFirst[first] = entry;
    }
    if (p.next === GAP) entry.any.push(p);
    else {
      const list = entry.next.get(p.next);
      if (list) list.push(p);
      else entry.next.set(p.next, [p]);
    }
  };
  // One list per signal bit, in bit order: CORRECTION, CHALLENGE, PREFERENCE, POSITIVE, FRICTION.
  LISTS.forEach((key, k) => {
    const list = markers?.[key];
    if (!Array.isArray(list)) return;
    for (const raw of list) {
      if (typeof raw !== 'string') continue;
      add(raw, 1 << k);
      // "do not touch" is "don't touch" spelled out: the same marker.
      const spelled = raw.replace(SPELLED, (_, w: string) => `${w === 'wo' ? 'will' : w} not`);
      if (spelled !== raw) add(spelled, 1 << k);
    }
  });
  const filler = FILLERS.split(' ').map(idOf);
  const negator = NEGATORS.split(' ').map(idOf);
  let size = 64;
  // At most an eighth full: a word in no marker (most words) finds an empty slot at once 7 times in 8,
  // which the scanner decides without a call (1-2 % faster than a quarter full; 32 KB a marker set).
  while (size < words.length * 8) size *= 2;
  const keys = new Int32Array(size);
  const ids = new Int32Array(size);
  for (let id = 2; id < words.length; id++) {
    // Signed, as the scanner's running hash is (`Math.imul` gives int32).
    const h = fnv1a32(words[id]!) | 0;
    let slot = h & (size - 1);
    while (ids[slot] !== 0) slot = (slot + 1) & (size - 1);
    keys[slot] = h;
    ids[slot] = id;
  }
  const flags = (list: number[]) => {
    const a = new Uint8Array(words.length);
    for (const id of list) a[id] = 1;
    return a;
  };
  const cls = new Uint8Array(128);
  for (const ch of SYMBOLS) cls[ch.charCodeAt(0)]! |= SYMBOL;
  for (const ch of PASTE_LEADS) cls[ch.charCodeAt(0)]! |= PASTE_LEAD;
  for (let ch = 0; ch < 128; ch++) if (isWordCode(ch)) cls[ch]! |= WORD;
  return {
    markers,
    cls,
    keys,
    ids,
    mask: size - 1,
    words,
    byFirst,
    filler: flags(filler),
    negator: flags(negator),
    buf: new Int32Array(MAX_SENTENCE),
    codes: new Uint16Array(1024),
    bytes: new Uint8Array(1024),
    encoder: undefined,
    pending: 0,
    but: idOf('but'),
    scanned: 0,
  };
}

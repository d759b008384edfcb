/**
 * The reader's buckets of a turn in one pass over its characters, building no string: the lines are
 * told pasted or prose by their first characters, the prose is lower-cased by code arithmetic, its
 * words are hashed as they are read (the vocabulary is asked, with the code units, for the first two),
 * and the shape features are counted as the scan goes; their names, and the names of their pairs, are
 * hashed once per process and kept by number. It reads the turns whose prose has no surrogate, CJK,
 * decomposed accent, `İ` or `Σ` (other non-ASCII letters go through a per-code-unit table), most of
 * them; prose with a double quote takes a second pass, since the base features read it without the
 * quoted spans and the reader with them. For the other turns it gives nothing and `readerHashes` reads
 * the turn through `baseParts` (Unicode lower-casing and word classes). The buckets are the same set
 * either way (property tests hold the two paths to each other).
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import type { TurnEvidence } from '../heuristic/index.js';
import { ERROR_SHAPE, vocabularyIdOfCodes } from './features.js';
import { BUCKETS, isTemplate, MAX_WORDS, READ, replyParts } from './reader-features.js';
import {
  BucketList,
  END_BUCKETS,
  fnv,
  hashShape,
  more,
  shapeTables,
  step,
  TAIL_ID,
  TAIL_NAMES,
  type Tables,
} from './reader-shape.js';
import { endsAsking, isSpace, pastedLine, unitClass } from './text-scan.js';

const MASK = BUCKETS - 1;
/** The words `baseParts` reads (its `wordsOf` cut). */
const BASE_WORDS = 200;
const NFD = /[\u0300-\u036f]/;
const { LEN, ENDS_Q, Q, BANG, QQ, CAPS, LOWER, LONG, SHORT, PASTE_ERROR, FIRST, NO_REPLY, ASKED } = TAIL_ID;
const { CORRECTION, CHALLENGE, PREFERENCE, APPROVAL, FRICTION, INTERRUPTED, REPEAT, UNDO } = TAIL_ID;

const out = new BucketList();
const push = (bucket: number): void => out.push(bucket);
/** The code units of the word being read, lower-cased (a word is at most the characters read). */
const codes = new Uint16Array(READ);
const shape = new Int32Array(TAIL_NAMES.length);

const U = more(FNV_OFFSET, 'u:');
const V = more(FNV_OFFSET, 'v:');
const V_START = step(more(V, '^'), 95);
const BIAS = fnv('bias');
const FIRST_OTHER = fnv('f:*');
const SECOND_OTHER = fnv('s:*');
const { pastedShare: PASTED_SHARE, template: TEMPLATE, claim: CLAIM, error: ERROR } = END_BUCKETS;
const REPLY_ASKED = END_BUCKETS.asked;
const ACK = END_BUCKETS.ack;

/** What the scan has read of the words so far: kept here so that the per-character loop holds only the word it reads. */
const words = { count: 0, first: -2, read: 0, after: 0 };
const LENGTHS = [0, 2, 5, 10, 20, 40];

/**
 * One word of the base features' prose (its `length` code units in `codes`): counted (the length
 * bucket), and the first two named as `readerHashes` names them (`f:`/`s:`, the vocabulary word or
 * `*`), hashed here to be looked up: the reader reads no other vocabulary feature (`readerFeatures`),
 * so no other word is hashed for the vocabulary.
 */
function baseWord(t: Tables, length: number): void {
  const count = words.count;
  if (count >= 2) {
    if (count < BASE_WORDS) words.count = count + 1;
    return;
  }
  let hash = FNV_OFFSET;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ codes[i]!, FNV_PRIME);
  const id = vocabularyIdOfCodes(codes, length, hash);
  if (count === 0) words.first = id;
  push(id >= 0 ? (count === 0 ? t.first[id]! : t.second[id]!) : count === 0 ? FIRST_OTHER : SECOND_OTHER);
  words.count = count + 1;
}

/** One word of the reader's prose: its `u:` and `v:` buckets, of the first 120 words (`readerWord`: a number reads `0`, a token over 20 characters `~`). */
function readerWord(length: number, digits: boolean): void {
  if (words.read >= MAX_WORDS) return;
  let u = U;
  let pair = words.after;
  let next = V;
  if (digits || length > 20) {
    const c = digits ? 48 : 126;
    u = step(u, c);
    pair = step(pair, c);
    next = step(next, c);
  } else
    for (let i = 0; i < length; i++) {
      const c = codes[i]!;
      u = Math.imul(u ^ c, FNV_PRIME);
      pair = Math.imul(pair ^ c, FNV_PRIME);
      next = Math.imul(next ^ c, FNV_PRIME);
    }
  push(u & MASK);
  push(pair & MASK);
  words.after = step(next, 95);
  words.read++;
}

const BASE = 1;
const READER = 2;
const BOTH = 3;
const [F_ENDS_ASK, F_ASK, F_BANG, F_TWICE, F_CAPS] = [1, 2, 4, 8, 16];
/** The prose lines' bounds, `from, to` by pairs (at most one line per character read, and one more). */
const prose = new Int32Array(2 * (READ + 1));

/**
 * The prose lines (`spans / 2` of them in `prose`) read as `baseParts` reads them joined by line
 * breaks: code spans count as a space, apostrophes are dropped from words, capitals lower-cased. For
 * `BASE`, double-quoted spans count as a space too and the words go to {@link baseWord}, with the
 * punctuation and capitals flags returned (`F_…`); for `READER` the words go to {@link readerWord};
 * `BOTH` is the two at once (a prose without a double quote). -1 for a character this scan leaves to
 * `baseParts` (see `unitClass`).
 */
function readProse(t: Tables, raw: string, spans: number, mode: number): number {
  const base = (mode & BASE) !== 0;
  const reader = (mode & READER) !== 0;
  let flags = 0;
  let previous = 0;
  let endsAsk = false;
  let length = 0;
  let digits = true;
  for (let line = 0; line < spans; line += 2) {
    const from = prose[line]!;
    const to = prose[line + 1]!;
    if (line > 0) {
      if (length > 0) {
        if (base) baseWord(t, length);
        if (reader) readerWord(length, digits);
        length = 0;
      }
      previous = 10;
    }
    let skipTo = from;
    let run = 0;
    let runAfterSpace = false;
    let space = true;
    for (let i = from; i < to; i++) {
      const c = raw.charCodeAt(i);
      // `p:caps` (base): three capitals or more after a space or the line's start, then a space, `.!?,` or its end.
      if (c >= 97 && c <= 122) {
        run = 0;
        space = false;
        // Most characters are lower-case letters: a word's, unless in a code or quoted span.
        if (i < skipTo) continue;
        codes[length++] = c;
        digits = false;
        endsAsk = false;
        previous = c;
        continue;
      }
      if (c >= 65 && c <= 90) {
        if (run === 0) runAfterSpace = space;
        run++;
        space = false;
      } else {
        space = isSpace(c);
        if (run >= 3 && runAfterSpace && (space || c === 46 || c === 33 || c === 63 || c === 44))
          flags |= F_CAPS;
        run = 0;
      }
      if (i < skipTo) continue;
      if (c === 32) {
        if (length > 0) {
          if (base) baseWord(t, length);
          if (reader) readerWord(length, digits);
          length = 0;
        }
        previous = 32;
        continue;
      }
      let p = c;
      if (c === 96) {
        const close = raw.indexOf('`', i + 1);
        if (close >= 0 && close < to) {
          skipTo = close + 1;
          p = 32;
        }
      } else if (c === 34 && base) {
        const close = closingQuote(raw, i + 1, to);
        if (close >= 0) {
          skipTo = close + 1;
          p = 32;
        }
      }
      if (p === 39 || p === 0x2019) {
        // An apostrophe is dropped from the words (`don't` reads `dont`) but stays in the prose.
        previous = p;
        endsAsk = false;
        continue;
      }
      let lower: number;
      let word: boolean;
      if (p < 128) {
        lower = p >= 65 && p <= 90 ? p + 32 : p;
        word = (lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57) || lower === 95;
      } else {
        const k = unitClass(p);
        if (k < 0) return -1;
        word = k > 1;
        lower = word ? k - 2 : p;
      }
      if (word) {
        if (length === 0) digits = true;
        codes[length++] = lower;
        if (lower > 57) digits = false;
        endsAsk = false;
      } else {
        if (length > 0) {
          if (base) baseWord(t, length);
          if (reader) readerWord(length, digits);
          length = 0;
        }
        if (p === 63) {
          flags |= F_ASK;
          if (previous === 63 || previous === 33) flags |= F_TWICE;
          endsAsk = true;
        } else if (p === 33) {
          flags |= F_BANG;
          if (previous === 63) flags |= F_TWICE;
          endsAsk = false;
        } else if (!isSpace(p)) endsAsk = false;
      }
      previous = p;
    }
    if (run >= 3 && runAfterSpace) flags |= F_CAPS;
  }
  if (length > 0) {
    if (base) baseWord(t, length);
    if (reader) readerWord(length, digits);
  }
  return endsAsk ? flags | F_ENDS_ASK : flags;
}

/**
 * Where the double-quoted span opened before `from` closes on its line (before `to`), as
 * `/"[^"\n]*"/` reads the prose after code spans became spaces: the next `"` outside a code span, or -1.
 */
function closingQuote(raw: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = raw.charCodeAt(i);
    if (c === 34) return i;
    if (c === 96) {
      const close = raw.indexOf('`', i + 1);
      if (close >= 0 && close < to) i = close;
    }
  }
  return -1;
}

/**
 * @internal The reader's buckets of `e` read in one pass (see the module comment): a view of a
 * buffer the next call overwrites, or `undefined` for a turn this scan leaves to `baseParts`.
 *
 * @example
 * ```ts
 * scanHashes(turn); // the buckets of readerFeatures(turn), as a set, or undefined
 * ```
 */
export function scanHashes(e: TurnEvidence): Int32Array | undefined {
  const raw = typeof e.text === 'string' ? e.text.slice(0, READ) : '';
  if (NFD.test(raw)) return undefined;
  const t = shapeTables();
  out.reset();
  push(BIAS);
  let lines = 0;
  let pastedLines = 0;
  let pastedFilled = 0;
  let pastedError = false;
  let inFence = false;
  // The prose lines, told by their first characters; their text is read below.
  let spans = 0;
  let quoted = false;
  for (let from = 0; from <= raw.length; ) {
    let to = raw.indexOf('\n', from);
    if (to < 0) to = raw.length;
    let k = from;
    while (k < to && isSpace(raw.charCodeAt(k))) k++;
    const filled = k < to;
    if (filled) lines++;
    if (raw.startsWith('```', k)) {
      inFence = !inFence;
      pastedLines++;
      pastedFilled++;
    } else if (inFence || pastedLine(raw, from, to)) {
      pastedLines++;
      if (filled) pastedFilled++;
      if (!pastedError && ERROR_SHAPE.test(raw.slice(from, to))) pastedError = true;
    } else {
      prose[spans++] = from;
      prose[spans++] = to;
      if (!quoted && filled) {
        const q = raw.indexOf('"', k);
        quoted = q >= 0 && q < to;
      }
    }
    from = to + 1;
  }
  words.count = 0;
  words.first = -2;
  words.read = 0;
  words.after = V_START;
  // With a double quote in the prose, the base features read it without the quoted spans and the
  // reader with them: two passes. Without one, one pass gives both.
  const flags = readProse(t, raw, spans, quoted ? BASE : BOTH);
  if (flags < 0) return undefined;
  if (quoted && readProse(t, raw, spans, READER) < 0) return undefined;
  const { count, after } = words;
  // The tail of `baseParts`, by number.
  let s = 0;
  let b = 0;
  while (b < 6 && count > LENGTHS[b]!) b++;
  shape[s++] = LEN + b;
  if (flags & F_ENDS_ASK) shape[s++] = ENDS_Q;
  if (flags & F_ASK) shape[s++] = Q;
  if (flags & F_BANG) shape[s++] = BANG;
  if (flags & F_TWICE) shape[s++] = QQ;
  if (flags & F_CAPS) shape[s++] = CAPS;
  let k = 0;
  while (k < raw.length && isSpace(raw.charCodeAt(k))) k++;
  if (k < raw.length && raw.charCodeAt(k) >= 97 && raw.charCodeAt(k) <= 122) shape[s++] = LOWER;
  if (pastedLines > 0) shape[s++] = pastedLines > 5 ? LONG : SHORT;
  if (pastedError) shape[s++] = PASTE_ERROR;
  if (e.first) shape[s++] = FIRST;
  if (typeof e.reply !== 'string') shape[s++] = NO_REPLY;
  else {
    let to = e.reply.length;
    while (to > 0 && isSpace(e.reply.charCodeAt(to - 1))) to--;
    if (endsAsking(e.reply, Math.max(0, to - 300), to)) shape[s++] = ASKED;
  }
  const m: Partial<TurnEvidence['signals']> = e.signals ?? {};
  if (m.correction && !m.challenge) shape[s++] = CORRECTION;
  if (m.challenge) shape[s++] = CHALLENGE;
  if (m.preference) shape[s++] = PREFERENCE;
  if (m.approval) shape[s++] = APPROVAL;
  if (m.friction) shape[s++] = FRICTION;
  if (e.interrupted) shape[s++] = INTERRUPTED;
  if (e.repeat) shape[s++] = REPEAT;
  if (e.undo) shape[s++] = UNDO;
  hashShape(t, shape, s, count > 0 ? words.first + 1 : -1, push);
  // `readerParts`: the pasted share, the template test, the end of the word pairs and the reply.
  if (lines > 0) push(PASTED_SHARE[Math.min(4, Math.floor((pastedFilled * 5) / lines))]!);
  if (isTemplate(raw)) push(TEMPLATE);
  if (words.read > 0) push(step(after, 36) & MASK);
  const reply = replyParts(e.reply);
  if (reply.claim) push(CLAIM);
  if (reply.error) push(ERROR);
  if (reply.asked) push(REPLY_ASKED);
  if (e.acknowledged) push(ACK);
  return out.view();
}

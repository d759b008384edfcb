/**
 * The detector: one left-to-right pass over a turn's characters. Words are hashed as they are read
 * (FNV-1a over lower-cased ASCII, apostrophes skipped) and looked up in an open-addressing table of the
 * marker vocabulary, so a word that no marker uses costs a few integer operations and no allocation.
 * Each sentence's token ids go into a reused buffer that is matched once, at the sentence's end, against
 * the patterns indexed by their first word: the cost does not grow with the number of markers.
 *
 * Context is tracked in the same pass: code fences and inline code, double-quoted spans, `>` quoted
 * lines and pasted code or log lines (classified when the line ends, from counts kept on the way, and
 * then rolled back) are never matched; questions are known when their sentence ends.
 */
import { type CompiledMarkers, isApostrophe, isIdeograph, isWordCode, lower } from './compile.js';
import { WARM_AFTER, warmUp } from './exercise.js';
import { codesOf } from './units.js';

// compile.ts's token and class constants, declared here again: V8 does not fold a constant imported
// from another module into optimised code (it reads the module's cell each time), and in these loops
// that cost about 10 % run from source under tsx (measured; any unbundled import reads them the same
// way). A bundler that inlines constants, as the published build's does, hides it.
// test/unit/heuristic-warmup.test.ts checks they are the same.
const UNKNOWN = 0;
const COMMA = 1;
const GAP = -1;
const MAX_GAP = 3;
const MAX_SENTENCE = 512;
const MAX_WORD = 24;
const SYMBOL = 1;
const PASTE_LEAD = 2;
const WORD = 4;
const POSITIVE = 8;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export {
  CHALLENGE,
  CORRECTION,
  type CompiledMarkers,
  compileMarkers,
  FRICTION,
  POSITIVE,
  PREFERENCE,
} from './compile.js';

/** The vocabulary id of the code units [start, end) (lower-cased, apostrophes skipped), or UNKNOWN. */
function lookup(
  c: CompiledMarkers,
  h: number,
  codes: Uint16Array,
  start: number,
  end: number,
  wLen: number,
): number {
  let slot = h & c.mask;
  for (;;) {
    const id = c.ids[slot]!;
    if (id === 0) return UNKNOWN;
    const w = c.words[id]!;
    if (c.keys[slot] === h && w.length === wLen) {
      let k = 0;
      let ok = true;
      for (let i = start; i < end; i++) {
        const ch = codes[i]!;
        if (isApostrophe(ch)) continue;
        if (w.charCodeAt(k++) !== lower(ch)) {
          ok = false;
          break;
        }
      }
      if (ok && k === w.length) return id;
    }
    slot = (slot + 1) & c.mask;
  }
}

function matchFrom(toks: number[], k: number, buf: Int32Array, j: number, n: number): number {
  for (; k < toks.length; k++) {
    const t = toks[k]!;
    if (t === GAP) {
      for (let g = 0; g <= MAX_GAP && j + g <= n; g++) {
        if (g > 0 && buf[j + g - 1] === COMMA) break;
        const r = matchFrom(toks, k + 1, buf, j + g, n);
        if (r >= 0) return r;
      }
      return -1;
    }
    if (j >= n || buf[j] !== t) return -1;
    j++;
  }
  return j;
}

/** Matches one sentence; returns its signal bits and leaves `+` matches in `c.pending`. */
function matchSentence(c: CompiledMarkers, n: number, question: boolean): number {
  const { buf, byFirst, filler, negator } = c;
  let clauseStart = true;
  let bits = 0;
  let pending = 0;
  for (let i = 0; i < n; i++) {
    const t = buf[i]!;
    // A token is anchored when only fillers, a vocative or clause breaks precede it in its clause.
    const anchored = clauseStart;
    if (clauseStart) {
      const vocative = t === UNKNOWN && i + 1 < n && buf[i + 1] === COMMA;
      if (!(t === COMMA || filler[t] === 1 || vocative)) clauseStart = false;
    } else if (t === COMMA) clauseStart = true;
    const entry = byFirst[t];
    if (entry === undefined) continue;
    // The patterns whose second token is the sentence's next one, then those with a gap or no second.
    const follow = i + 1 < n ? entry.next.get(buf[i + 1]!) : undefined;
    for (let q = 0, all = entry.any.length + (follow?.length ?? 0); q < all; q++) {
      const p = q < entry.any.length ? entry.any[q]! : follow![q - entry.any.length]!;
      if (p.question ? !question : p.statement && question) continue;
      if (p.start && !anchored) continue;
      if (((p.more ? pending : bits) & p.bits) === p.bits) continue;
      const end = matchFrom(p.toks, 1, buf, i + 1, n);
      if (end < 0) continue;
      if (p.end && end < n && buf[end] !== COMMA) continue;
      // Approval hedged with a "but" ("this is good, but …") is not approval.
      if (p.bits & POSITIVE && end + 1 < n && buf[end] === COMMA && buf[end + 1] === c.but) continue;
      let negated = false;
      for (let k = i - 1; k >= 0 && k >= i - 3; k--) {
        const t = buf[k]!;
        if (t === COMMA) break;
        if (negator[t] === 1) {
          negated = true;
          break;
        }
      }
      if (negated) continue;
      if (p.more) {
        if (i === 0) pending |= p.bits;
      } else bits |= p.bits;
    }
  }
  c.pending = pending;
  return bits;
}

function isHex(ch: number): boolean {
  return (ch >= 0x30 && ch <= 0x39) || (ch >= 0x61 && ch <= 0x66) || (ch >= 0x41 && ch <= 0x46);
}

/**
 * Scans one user turn and returns its signal bits ({@link CORRECTION}, {@link CHALLENGE},
 * {@link PREFERENCE}, {@link POSITIVE}, {@link FRICTION}). Linear in the text; never throws.
 */
export function scanTurn(text: string, c: CompiledMarkers): number {
  if (typeof text !== 'string') return 0;
  // The warm-up's own calls come once the count has reached the threshold: they do not count.
  if (c.scanned < WARM_AFTER) {
    c.scanned += text.length;
    if (c.scanned >= WARM_AFTER) warmUp(c, scanTurn);
  }
  // Decomposed accents ("está" typed as a + U+0301, as some macOS and mobile keyboards send it) would
  // hash apart from the markers' composed spelling. The scan stops at the first combining mark it
  // meets inside a word and the text is scanned again composed (NFC): text without one (nearly all)
  // pays nothing, not even a separate pass looking for one.
  const bits = scan(text, c, false);
  return bits >= 0 ? bits : scan(text.normalize('NFC'), c, true);
}

/** {@link scanTurn}'s pass; -1 when `composed` is false and a combining mark is met in a word. */
function scan(text: string, c: CompiledMarkers, composed: boolean): number {
  const len = text.length;
  const codes = codesOf(c, text);
  let i = 0;
  while (i < len && codes[i]! <= 0x20) i++;
  // A slash command (`/cost`, `/model opus …`) is addressed to the tool, not to the assistant.
  if (i + 1 < len && codes[i]! === 0x2f && isWordCode(codes[i + 1]!)) return 0;

  const { buf, cls, ids, mask } = c;
  let n = 0;
  let lineStartN = 0;
  let hits = 0;
  let lineHits = 0;
  let pending = 0;
  // Per-line counts, for telling pasted code and logs from prose.
  let nonSpace = 0;
  let letters = 0;
  let symbols = 0;
  let lineWords = 0;
  let indent = 0;
  let first = 0;
  let hexLead = false;
  let prevPasted = false;

  for (; i <= len; i++) {
    const ch = i < len ? codes[i]! : 0x0a;
    if (ch === 0x20) {
      // The most common character first.
      if (nonSpace === 0) indent++;
      continue;
    }
    if (ch < 0x80 ? (cls[ch]! & WORD) !== 0 : isWordCode(ch)) {
      // Read the whole word in a tight loop: hash it (lower-cased, apostrophes skipped) as we go.
      const wStart = i;
      let h = FNV_OFFSET;
      let apostrophes = 0;
      let digits = 0;
      let cc = ch;
      for (;;) {
        const lc = cc | 0x20;
        if (lc >= 0x61 && lc <= 0x7a) h = Math.imul(h ^ lc, FNV_PRIME);
        else if ((cc >= 0x30 && cc <= 0x39) || cc === 0x5f) {
          h = Math.imul(h ^ cc, FNV_PRIME);
          digits++;
        } else if (cc === 0x27 || cc === 0x2019) {
          // An apostrophe joins two word characters, else it ends the word.
          if (i + 1 < len && isWordCode(codes[i + 1]!)) apostrophes++;
          else break;
        } else if (cc > 0x7f && isWordCode(cc)) {
          if (cc >= 0x300 && cc <= 0x36f && !composed) return -1; // a combining mark: compose, scan again
          // A kana or ideograph is a word of its own (compile.ts splits the markers the same way): it
          // ends the word before it, or is the whole word. Checked here, off the ASCII path.
          if (isIdeograph(cc)) {
            if (i > wStart) break;
            h = Math.imul(h ^ lower(cc), FNV_PRIME);
            i++;
            break;
          }
          h = Math.imul(h ^ lower(cc), FNV_PRIME);
        } else break;
        if (++i >= len) break;
        cc = codes[i]!;
      }
      i--;
      const wLen = i - wStart + 1 - apostrophes;
      if (nonSpace === 0) first = ch;
      nonSpace += i - wStart + 1;
      letters += wLen - digits;
      if (lineWords === 0 && digits > 0 && wLen >= 7) {
        let hex = true;
        for (let k = wStart; k <= i && hex; k++) hex = isHex(codes[k]!);
        hexLead = hex;
      }
      lineWords++;
      // Most words are in no marker and land on an empty slot of the eighth-full table: decided here,
      // without a call (V8 does not always inline `lookup` into this loop).
      const id = wLen > MAX_WORD || ids[h & mask] === 0 ? UNKNOWN : lookup(c, h, codes, wStart, i + 1, wLen);
      if (pending !== 0) {
        lineHits |= pending;
        pending = 0;
      }
      if (n === MAX_SENTENCE) {
        lineHits |= matchSentence(c, n, false);
        pending |= c.pending;
        n = 0;
        lineStartN = 0;
      }
      buf[n++] = id;
      continue;
    }
    if (ch === 0x0a) {
      // End of line: keep its matches if it reads as prose, roll them back if it was pasted.
      let pasted = false;
      if (nonSpace > 0) {
        pasted =
          (first < 0x80 && (cls[first]! & PASTE_LEAD) !== 0) ||
          indent >= 4 ||
          hexLead ||
          (symbols >= 3 && symbols * 5 > nonSpace) ||
          (nonSpace >= 12 && letters * 2 < nonSpace) ||
          (prevPasted && !(lineWords >= 3 && letters * 10 >= nonSpace * 7));
      }
      if (pasted) {
        lineHits = 0;
        if (n > lineStartN) n = lineStartN;
      } else {
        hits |= lineHits;
        lineHits = 0;
      }
      prevPasted = pasted;
      // A newline ends the sentence unless the next line continues it (lower-case start).
      let j = i + 1;
      while (j < len && (codes[j]! === 0x20 || codes[j]! === 0x09)) j++;
      const next = j < len ? codes[j]! : 0x0a;
      if (n > 0 && !(next >= 0x61 && next <= 0x7a)) {
        hits |= matchSentence(c, n, false);
        pending |= c.pending;
        n = 0;
      }
      nonSpace = 0;
      letters = 0;
      symbols = 0;
      lineWords = 0;
      indent = 0;
      first = 0;
      hexLead = false;
      lineStartN = n;
      continue;
    }
    if (ch === 0x09 || ch === 0x0d || ch === 0xa0) {
      if (nonSpace === 0) indent += ch === 0x09 ? 4 : ch === 0x0d ? 0 : 1;
      continue;
    }
    if (nonSpace === 0) first = ch;
    nonSpace++;
    // 。 is read as `.`, the full-width ！，：；？ as their ASCII forms (compile.ts isWordCode leaves them out).
    const p = ch === 0x3002 ? 0x2e : ch > 0xff00 && ch < 0xff20 ? ch - 0xfee0 : ch;
    if (p === 0x2e || p === 0x21 || p === 0x3f) {
      // . ! ? end a sentence unless a word follows at once (file.py, 3.13, ?query=); the full-width
      // 。！？ of Chinese and Japanese always do, since no space follows them there (a run of them
      // ends one sentence, the rest end empty ones: only an ASCII run is read as one).
      if (ch < 0x80 && i + 1 < len && isWordCode(codes[i + 1]!)) continue;
      let question = p === 0x3f;
      while (i + 1 < len) {
        const d = codes[i + 1]!;
        if (d !== 0x2e && d !== 0x21 && d !== 0x3f) break;
        if (d === 0x3f) question = true;
        i++;
      }
      if (n > 0) {
        lineHits |= matchSentence(c, n, question);
        pending |= c.pending;
        n = 0;
        lineStartN = 0;
      }
      continue;
    }
    if (p === 0x2c || p === 0x3b || p === 0x3a) {
      // , ; : (and the full-width ，；：) break clauses.
      if (p !== 0x2c) symbols++;
      if (n > 0 && n < MAX_SENTENCE && buf[n - 1] !== COMMA) buf[n++] = COMMA;
      continue;
    }
    if (ch === 0x60) {
      if (text.startsWith('```', i)) {
        // A code fence, possibly opened mid-line: skip to the closing fence (or the end).
        if (n > 0) {
          lineHits |= matchSentence(c, n, false);
          pending |= c.pending;
          n = 0;
          lineStartN = 0;
        }
        const close = text.indexOf('```', i + 3);
        i = close < 0 ? len - 1 : close + 2;
        continue;
      }
      let k = i + 1;
      while (k < len && codes[k]! !== 0x60 && codes[k]! !== 0x0a) k++;
      if (k < len && codes[k]! === 0x60) {
        if (n < MAX_SENTENCE) buf[n++] = UNKNOWN;
        i = k;
      }
      continue;
    }
    if (ch === 0x22 || ch === 0x201c || ch === 0x201d) {
      // A quoted span on one line stands for one unknown word: quoted words are not the user's.
      // Spans may wrap onto the next line (terminal transcripts wrap long prompts), not past a blank line.
      let k = i + 1;
      const limit = Math.min(len, i + 600);
      for (; k < limit; k++) {
        const d = codes[k]!;
        if (d === 0x22 || d === 0x201c || d === 0x201d) break;
        if (d === 0x0a && k + 1 < len && (codes[k + 1]! === 0x0a || codes[k + 1]! === 0x0d)) {
          k = limit;
          break;
        }
      }
      if (k < limit) {
        if (n < MAX_SENTENCE) buf[n++] = UNKNOWN;
        i = k;
      }
      continue;
    }
    if (ch === 0x3c) {
      // `<name>…</name>` wraps quoted rules or pasted material (`<code_style>NEVER add…</code_style>`):
      // the span, or a lone tag, stands for one unknown word.
      let k = i + 1;
      while (k < len && k - i <= 40) {
        const d = codes[k]! | 0x20;
        if (!((d >= 0x61 && d <= 0x7a) || d === 0x7f || (d === 0x2d && k > i + 1))) break;
        k++;
      }
      if (k > i + 1 && k < len && codes[k]! === 0x3e) {
        // Only the 4,000 characters a close may be in are searched: a search to the end for every
        // lone tag (`<a>.<a>.…`) would be quadratic. `>>> 0` makes "not found" (-1) huge.
        const close = text.slice(k, k + 4100).indexOf(`</${text.slice(i + 1, k)}>`);
        i = close >>> 0 <= 4000 ? close + 2 * k - i + 1 : k;
        if (n < MAX_SENTENCE) buf[n++] = UNKNOWN;
        symbols++;
        continue;
      }
    }
    if (
      ch === 0x2013 ||
      ch === 0x2014 ||
      // In bounds: a read past the end deoptimises the whole scan in V8 (it gives undefined, no error).
      (ch === 0x2d && i + 1 < len && (codes[i + 1]! === 0x2d || codes[i + 1]! === 0x20))
    ) {
      // Dashes between words (` - `, `--`, `–`, `—`) break clauses like commas.
      if (n > 0 && n < MAX_SENTENCE && buf[n - 1] !== COMMA) buf[n++] = COMMA;
      if (ch === 0x2d) i++;
      continue;
    }
    if (ch < 0x80 && (cls[ch]! & SYMBOL) !== 0) symbols++;
  }
  return hits;
}

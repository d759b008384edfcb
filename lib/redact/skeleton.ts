/**
 * What the scan reads: the text as a reader sees it. Invisible characters — default-ignorable code points
 * (zero-width space, joiners, soft hyphen, word joiner, BOM, variation selectors, Unicode tags), bidi
 * controls, control characters other than tab and line breaks, lone surrogates — are dropped, and a
 * look-alike is folded to its compatibility form (NFKC, one character of the same general category:
 * fullwidth `ｇｈｐ＿` is `ghp_`; `²` and `¼` stay as they are). A key split
 * by a zero-width space (`ghp_\u200bR8x2…`) is thus found whole, and the placeholder replaces it with
 * the invisible characters inside it: whatever later deletes invisible characters (a prompt sanitizer)
 * cannot re-join it. Positions map back to the original text, so only the found spans change and
 * restoring the originals still gives the input exactly.
 */

/**
 * The scanned text and, when it differs from the input, where its characters came from: a list of
 * segments (only where something changed, so a long text with one zero-width space costs two segments).
 */
export interface Skeleton {
  text: string;
  /** Per segment: where it starts in the scanned text (ascending). */
  at?: number[];
  /** Per segment: where it starts in the input. */
  from?: number[];
  /** Per segment: where it ends in the input, or -1 for an unchanged stretch (one to one). */
  to?: number[];
  /**
   * Where a placeholder wedged into a key was dropped, as positions in the scanned text (ascending). A
   * key may be read across one; an address may not (see the scanner's `emailSpan`): an address that
   * only appears once a placeholder is gone was not in the text the placeholder was written into.
   */
  wedges?: number[];
}

/**
 * A key's fixed start and the run of key characters after it, up to where a placeholder may be wedged
 * (at most 64 characters on). Exported for the tests that tell a wedged placeholder from another.
 *
 * @example
 * ```ts
 * new RegExp(`${KEY_RUN_BEFORE}$`).test('AKIAQ3EG'); // true
 * ```
 */
export const KEY_RUN_BEFORE =
  '(?:AKIA|ASIA|AIza|gh[pousr]_|github_pat_|sk-|[sr]k_(?:live|test)_|xox[a-z]-|eyJ|npm_|hf_|glpat-)[A-Za-z0-9_-]{0,64}';

/**
 * Where the fast path ends: anything but tab, line breaks and printable ASCII, a percent-encoded byte, a
 * JSON-escaped slash, an HTML-escaped quote, or a placeholder inside a key (after a key's fixed start and
 * before a letter or digit).
 */
const SPECIAL = new RegExp(
  /[^\t\n\r\x20-\x7e]+|%[0-9A-Fa-f]{2}|\\\/|&(?:quot|apos|#3[49]|#x2[27]);/.source +
    `|\\[(?<=${KEY_RUN_BEFORE}\\[)[a-z][a-z0-9_-]{0,63}-[1-9][0-9]{0,8}\\](?=[A-Za-z0-9])`,
  'g',
);
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}\p{Cs}]$/u;
const ENTITIES: Readonly<Record<string, string>> = {
  '&quot;': '"',
  '&#34;': '"',
  '&#x22;': '"',
  '&apos;': "'",
  '&#39;': "'",
  '&#x27;': "'",
};

/** Per code point: `''` when dropped, else its NFKC form (cached: texts repeat their characters). */
const folded = new Map<number, string>();
const MAX_CACHE = 4096;

function fold(cp: number): string {
  let f = folded.get(cp);
  if (f !== undefined) return f;
  const ch = String.fromCodePoint(cp);
  f = INVISIBLE.test(ch) ? '' : ch.normalize('NFKC');
  // Only a look-alike is folded: one character of the same general category (fullwidth `ｇ` is `g`,
  // `１` is `1`). A superscript or fraction (`²`, `¼` → `1⁄4`) or a modifier letter (`ᵃ`) written after a
  // key is no part of it: folded, it made `AKIA…²` one character too long to be a key (a leak found by
  // `npm run fuzz`), and one character folded to several let two findings share it.
  if (f !== '' && f !== ch && !(f.length === 1 && generalCategory(f) === generalCategory(ch))) f = ch;
  if (folded.size < MAX_CACHE) folded.set(cp, f);
  return f;
}

/** The Unicode general categories, each as a one-character test. */
const CATEGORIES = /* @__PURE__ */ (() =>
  'Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc Cf Cs Co'
    .split(' ')
    .map((g) => [g, new RegExp(`^\\p{${g}}$`, 'u')] as const))();

/** The general category of one character (its code point), or `Cn` (unassigned). */
function generalCategory(ch: string): string {
  for (const [g, re] of CATEGORIES) if (re.test(ch)) return g;
  return 'Cn';
}

/** The skeleton being built: unchanged stretches are copied lazily, as one segment each. */
class Builder {
  readonly out: string[] = [];
  readonly at: number[] = [];
  readonly from: number[] = [];
  readonly to: number[] = [];
  readonly wedges: number[] = [];
  length = 0;
  copied = 0;
  changed = false;
  constructor(readonly text: string) {}

  /** Replaces text[start, end) by `by` (each of its characters maps to the whole range). */
  put(start: number, end: number, by: string): void {
    this.copy(start);
    if (by.length > 0) {
      this.out.push(by);
      this.at.push(this.length);
      this.from.push(start);
      this.to.push(end);
      this.length += by.length;
    }
    this.copied = end;
    this.changed = true;
  }

  copy(upTo: number): void {
    if (upTo <= this.copied) return;
    this.out.push(this.text.slice(this.copied, upTo));
    this.at.push(this.length);
    this.from.push(this.copied);
    this.to.push(-1);
    this.length += upTo - this.copied;
    this.copied = upTo;
  }
}

/**
 * The skeleton of `text`; the text itself (no maps) when nothing in it changes. Besides invisible and
 * compatibility characters it decodes the spellings a key hides behind in URLs, JSON and HTML —
 * `%3D`, `%40`, `%2F`… (printable ASCII only), `\/`, `&quot;`, `&#39;` — and drops a placeholder of a
 * known kind wedged into a key (`AKIA[email-1]Q3EG…`): a key cut by one is still a key. Only after a
 * key's fixed start, so a placeholder this redactor wrote between two words is never dropped. With
 * `keepWedged` such placeholders stay: the text as a later pass over the redacted output reads it.
 */
export function skeletonOf(text: string, knownKinds: ReadonlySet<string>, keepWedged = false): Skeleton {
  SPECIAL.lastIndex = 0;
  if (!SPECIAL.test(text)) return { text };
  const b = new Builder(text);
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(text); m !== null; m = SPECIAL.exec(text)) {
    const at = m.index;
    const s = m[0];
    const c = s.charCodeAt(0);
    if (c === 37) {
      // %XX: only bytes that are printable ASCII or line breaks; others (UTF-8 bytes, %00) stay.
      const byte = Number.parseInt(s.slice(1), 16);
      if ((byte >= 0x20 && byte < 0x7f) || byte === 10 || byte === 13)
        b.put(at, at + 3, String.fromCharCode(byte));
    } else if (c === 92) {
      if (oddBackslashes(text, at)) b.put(at, at + 2, '/');
    } else if (c === 38) {
      b.put(at, at + s.length, ENTITIES[s]!);
    } else if (c === 91) {
      const kind = s.slice(1, s.lastIndexOf('-'));
      if (!keepWedged && knownKinds.has(kind)) {
        b.put(at, at + s.length, '');
        b.wedges.push(b.length);
      }
    } else {
      foldRun(b, text, at, at + s.length);
    }
  }
  if (!b.changed) return { text };
  b.copy(text.length);
  const sk: Skeleton = { text: b.out.join(''), at: b.at, from: b.from, to: b.to };
  if (b.wedges.length > 0) sk.wedges = b.wedges;
  return sk;
}

/** Folds a run of characters that are not printable ASCII. */
function foldRun(b: Builder, text: string, start: number, end: number): void {
  for (let i = start; i < end; ) {
    const c = text.charCodeAt(i);
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const f = c === 9 || c === 10 || c === 13 ? null : fold(cp);
    if (f !== null && (f.length !== width || f !== text.slice(i, i + width))) b.put(i, i + width, f);
    i += width;
  }
}

/** Whether the backslash at `i` starts an escape (an odd run of backslashes ends there). */
function oddBackslashes(text: string, i: number): boolean {
  let run = 1;
  while (i - run >= 0 && text.charCodeAt(i - run) === 92) run++;
  return run % 2 === 1;
}

/** The original range of the scanned range [start, end) (`end > start`). */
export function originalRange(sk: Skeleton, start: number, end: number): [number, number] {
  const { at, from, to } = sk;
  if (!at || !from || !to) return [start, end];
  const first = segmentOf(at, start);
  const last = segmentOf(at, end - 1);
  const s = to[first] === -1 ? from[first]! + (start - at[first]!) : from[first]!;
  const e = to[last] === -1 ? from[last]! + (end - at[last]!) : to[last]!;
  return [s, e];
}

/** The segment holding scanned position `p` (binary search). */
function segmentOf(at: readonly number[], p: number): number {
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at[mid]! <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

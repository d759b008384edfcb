/**
 * Whether a line is a pointer to evidence: a path, file name or URL with at most one other word
 * beside words that only introduce it. Apart from `text.ts` so each stays a file one can read whole.
 */

import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';

/**
 * Whether the entry is a pointer to evidence: a path, a file name or a URL with at most one other
 * word beside words that only introduce it (`see`, `log:`, `at`). One pass over the characters.
 *
 * @example
 * ```ts
 * isPointer('See lib/retry.ts:42'); // true
 * isPointer('`notes.md`'); // true
 * isPointer('Emphasizes CI/CD.'); // false (an acronym pair, no path)
 * isPointer('Input/output variants'); // false (two words joined by a slash)
 * isPointer('见 /srv/app/error.log'); // true (a CJK run is a word)
 * isPointer('请把它推送到 /srv/app/error.log 然后告诉我'); // false (CJK clauses around it)
 * ```
 */
export function isPointer(raw: string): boolean {
  let links = 0;
  let others = 0;
  let i = 0;
  const len = raw.length;
  // Where the text's last word ends: a caller that passes one code span's contents alone means a path.
  let end = len;
  while (end > 0 && raw.charCodeAt(end - 1) <= 0x20) end--;
  let first = true;
  while (i < len) {
    while (i < len && raw.charCodeAt(i) <= 0x20) i++;
    if (i >= len) break;
    // Chinese, Japanese and Korean prose has no spaces: a run of its letters or full-width
    // punctuation is a word ("见", "日志：", "实体文件：") or, from six characters, a clause, so a sentence
    // holding one path is no pointer.
    if (isWide(raw.charCodeAt(i))) {
      const from = i;
      let letters = 0;
      while (i < len && isWide(raw.charCodeAt(i))) if (!isWidePunctuation(raw.charCodeAt(i++))) letters++;
      // Full-width punctuation alone ("**文件**：") is what ":" is to "**File**: path": no word.
      if (letters === 0) continue;
      first = false;
      others += i - from >= 6 ? 2 : 1;
      if (others > 1) return false;
      continue;
    }
    const s = i;
    let slash = 0;
    let dot = -1;
    let letters = 0;
    let small = 0; // lower-case letters: "TDD/BDD", "CI/CD", "I/O" are no paths
    let run = 0; // the longest run of letters: "v/c" (a ratio) has no name longer than one letter
    let longest = 0;
    let call = false; // "requests.post('http://url')": a name called is code, whatever it holds
    while (i < len && raw.charCodeAt(i) > 0x20 && !isWide(raw.charCodeAt(i))) {
      const c = raw.charCodeAt(i);
      if (c === 0x2f) slash++;
      else if (c === 0x28 && i > s && isNameCode(raw.charCodeAt(i - 1))) call = true;
      else if (c === 0x2e) dot = i;
      if ((c >= 0x61 && c <= 0x7a) || c >= 0x80) {
        letters++;
        small++;
        if (++run > longest) longest = run;
      } else if (c >= 0x41 && c <= 0x5a) {
        letters++;
        if (++run > longest) longest = run;
      } else run = 0;
      i++;
    }
    const lone = first && i === end;
    first = false;
    if (letters === 0) continue;
    // Quotes and closing punctuation around a name are not part of it: "`notes.md`", "(see a.ts).".
    let e = i;
    while (e > s && isClosing(raw.charCodeAt(e - 1))) e--;
    if (dot >= e) for (dot = e - 1; dot > s && raw.charCodeAt(dot) !== 0x2e; dot--);
    // A markup tag ("</bash-stderr>", "<br/>") holds a slash and names no file.
    const tag = raw.charCodeAt(s) === 0x3c && raw.charCodeAt(e - 1) === 0x3e;
    const linky =
      !call &&
      !tag &&
      ((slash > 0 && small > 0 && longest > 1 && i - s > 2 && (lone || !wordPair(raw, s, e, slash, dot))) ||
        // A name, then a dot, then a short extension ("...code" is no file).
        (dot > s &&
          dot < e - 1 &&
          isNameCode(raw.charCodeAt(dot - 1)) &&
          extensionAt(raw, dot, e) &&
          !(slash === 0 && productAt(raw, s, dot, e))));
    if (linky) links++;
    else if (i - s > 9 || !INTRO.has(letterHash(raw, s, i))) others++;
    if (others > 1) return false;
  }
  return links > 0;
}

/**
 * @internal The code points of CJK letters (Han, kana, Hangul) and full-width punctuation (`，`, `。`,
 * `（`, `：`), as the body of a regex character class: where `findLinks` ends a URL, and what
 * {@link isWide} tests (a test holds the two to the same code points).
 *
 * @example
 * ```ts
 * new RegExp(`[${WIDE_RANGES}]`).test('链'); // true
 * ```
 */
export const WIDE_RANGES = '\\u2e80-\\u9fff\\uac00-\\ud7af\\uff00-\\uffef';

/**
 * @internal Whether `c` is in {@link WIDE_RANGES}: by comparisons, as it is asked once a character.
 *
 * @example
 * ```ts
 * isWide('链'.charCodeAt(0)); // true
 * ```
 */
export function isWide(c: number): boolean {
  return (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xff00 && c <= 0xffef);
}

/** CJK and full-width punctuation: `，。：；、！？（）【】「」`, full-width `：` and the like. */
function isWidePunctuation(c: number): boolean {
  return (
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0xff01 && c <= 0xff0f) ||
    (c >= 0xff1a && c <= 0xff20) ||
    (c >= 0xff3b && c <= 0xff40) ||
    (c >= 0xff5b && c <= 0xff65)
  );
}

/**
 * Whether `raw[s … e)` is two words joined by one slash ("input/output", "UX/content",
 * "deprecated/removed"): letters and hyphens on both sides, no dot, no quote or mark around it. A
 * path written that bare in a sentence ("src/lib") reads the same, and the labels call such lines what
 * their words say; in backticks, with a `/`, `.`, `~` or `@` to open it, or alone (a code span's
 * contents passed by a caller), it stays a path.
 */
function wordPair(raw: string, s: number, e: number, slash: number, dot: number): boolean {
  if (slash !== 1 || dot >= s) return false;
  let at = -1;
  for (let k = s; k < e; k++) {
    const c = raw.charCodeAt(k);
    if (c === 0x2f) at = k;
    else if (!(c === 0x2d || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || (c >= 0xc0 && c < 0x2e80)))
      return false;
  }
  return at > s && at < e - 1;
}

/**
 * @internal `` ` ' " ) , . ; ! ? ``: what can close a quoted or punctuated name.
 *
 * @example
 * ```ts
 * isClosing('`'.charCodeAt(0)); // true
 * ```
 */
export function isClosing(c: number): boolean {
  return (
    c === 0x60 ||
    c === 0x27 ||
    c === 0x22 ||
    c === 0x29 ||
    c === 0x2c ||
    c === 0x2e ||
    c === 0x3b ||
    c === 0x21 ||
    c === 0x3f
  );
}

/** A letter, digit, `_` or `-`: what a file name holds before its extension. */
function isNameCode(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/**
 * A library's name, not a file of the project (`Node.js`, `Next.js`, `three.js`): products whose name
 * ends in `.js`, written alone. In the shared sessions' snapshots they took 33 of 2,577 evidence
 * slots. A path (`src/next.js`) or a line (`vue.js:12`) is still a file.
 */
const PRODUCT =
  /^(?:node|next|nuxt|react|vue|vite|nextauth|three|p5|d3|chart|express|nest|ember|backbone|alpine|xterm|moment|pixi|babylon|leaflet)\.js$/i;

/**
 * @internal Whether `name` is a library's name that ends in `.js` ({@link PRODUCT}), not a file.
 *
 * @example
 * ```ts
 * isProductName('Node.js'); // true
 * isProductName('index.js'); // false
 * ```
 */
export function isProductName(name: string): boolean {
  return PRODUCT.test(name);
}

/** Whether the name of `raw[s … e)` (its dot at `dot`, quotes and marks before it skipped) is a product. */
function productAt(raw: string, s: number, dot: number, e: number): boolean {
  if (e - dot !== 3 || (raw.charCodeAt(dot + 1) | 0x20) !== 0x6a) return false;
  let b = s;
  while (b < dot && !isNameCode(raw.charCodeAt(b))) b++;
  return isProductName(raw.slice(b, e));
}

/** FNV-1a of the lower-cased ASCII letters of `raw[s … e)`, without building the string. */
function letterHash(raw: string, s: number, e: number): number {
  let h = FNV_OFFSET | 0;
  for (let k = s; k < e; k++) {
    const c = raw.charCodeAt(k) | 0x20;
    if (c >= 0x61 && c <= 0x7a) h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h;
}

/** Words that only introduce a pointer ("see", "log:"), by {@link letterHash}. */
const INTRO = new Set(
  'see log logs at in evidence link links file path output trace ref cf details here the'
    .split(' ')
    .map((w) => letterHash(w, 0, w.length)),
);

/** Whether `raw[dot+1 … end)` is a short file extension (letters, then maybe `:line`). */
function extensionAt(raw: string, dot: number, end: number): boolean {
  let k = dot + 1;
  let letters = 0;
  for (; k < end; k++, letters++) {
    const c = raw.charCodeAt(k);
    const l = c | 0x20;
    // Letters, then digits too once a letter came: `mp4`, `bz2`, `ps1`.
    if (!((l >= 0x61 && l <= 0x7a) || (letters > 0 && c >= 0x30 && c <= 0x39))) break;
  }
  if (letters === 0 || letters > 5) return false;
  if (!(k === end || raw.charCodeAt(k) === 0x3a || raw.charCodeAt(k) === 0x29 || raw.charCodeAt(k) === 0x2c))
    return false;
  // A file's extension, not an attribute: `pathlib.Path`, `self.port` and `os.environ` name code.
  return isExtension(raw.slice(dot + 1, k).toLowerCase());
}

let extensions: Set<string> | undefined;

/**
 * The file extensions of code, data, documents and logs (a name's last dot-part is one of these). Wider
 * than the list in `text.ts`'s `LINK`, on purpose: `LINK` finds file names inside any prose, where a
 * one- or two-letter extension (`a.s`, `obj.m`) would make false links; a pointer is the whole entry,
 * so a rarer extension is safe here. Every `LINK` extension is in this list too (tested).
 * @internal Whether the lower-cased `ext` is one of them.
 *
 * @example
 * ```ts
 * isExtension('plist'); // true
 * isExtension('port'); // false (`self.port` names code)
 * ```
 */
export function isExtension(ext: string): boolean {
  extensions ??= new Set(
    (
      'ts tsx mts cts js jsx mjs cjs py pyi ipynb rs go java kt kts rb php cs c h cc cpp hpp cxx m mm swift ' +
      'dart lua pl r scala sh bash zsh fish ps1 bat cmd md mdx rst txt adoc json jsonl ndjson yaml yml toml ' +
      'ini cfg conf env lock log out err xml csv tsv sql db html htm css scss sass less vue svelte astro ' +
      'plist epub pdf png jpg jpeg gif svg webp ico wasm gz tgz zip tar bz2 xz gradle proto tf hcl nix el ' +
      'ex exs erl hs ml mli fs clj edn jl zig v sv vhd asm s diff patch orig bak tmp pem crt key spec snap ' +
      'avi mp4 mov mkv webm mp3 wav flac ogg'
    ).split(' '),
  );
  return extensions.has(ext);
}

/**
 * Whether the first token is a plain word ("Run x.py"), not the start of a name ("deploy_list.md")
 * nor an HTTP method ("GET /users/:id").
 *
 * @example
 * ```ts
 * plainFirst('Run x.py'); // true
 * plainFirst('deploy_list.md'); // false
 * plainFirst('GET /users/:id'); // false
 * ```
 */
export function plainFirst(raw: string): boolean {
  const end = firstWord(raw);
  return firstSmall && raw.charCodeAt(end) === 0x20;
}

/**
 * Whether the entry's first word is two or more capitals ("GET request with body …", "GET, HEAD,
 * DELETE … usually don't have a body"): an HTTP method or an acronym, not an imperative.
 *
 * @example
 * ```ts
 * shoutedFirst('GET request with body has `Content-Length`.'); // true
 * shoutedFirst('Get the logs'); // false
 * ```
 */
export function shoutedFirst(raw: string): boolean {
  const end = firstWord(raw);
  return end - firstStart >= 2 && !firstSmall;
}

/** Where the last {@link firstWord} starts, and whether it has a lower-case letter. */
let firstStart = 0;
let firstSmall = false;

/**
 * The end of the run of ASCII letters that opens the entry (after any space); its start and whether it
 * has a lower-case letter go to `firstStart` and `firstSmall` (no object per call: every entry with a
 * path asks).
 */
function firstWord(raw: string): number {
  let i = 0;
  while (i < raw.length && raw.charCodeAt(i) <= 0x20) i++;
  firstStart = i;
  let small = false;
  for (; i < raw.length && (raw.charCodeAt(i) | 0x20) >= 0x61 && (raw.charCodeAt(i) | 0x20) <= 0x7a; i++)
    if (raw.charCodeAt(i) >= 0x61) small = true;
  firstSmall = small;
  return i;
}

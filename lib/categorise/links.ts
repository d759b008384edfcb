/**
 * Links in agent text: URLs, paths and file names (`setup.py:12`), found in one linear pass. They
 * tie snapshot entries together (an entry naming the file another entry changed).
 */

import { isNameChar, isWordChar, opensLink } from './link-chars.js';
import { isExtension, isProductName, WIDE_RANGES } from './pointer.js';
import { folderBefore, WINDOWS_PATH, windowsStart } from './windows-paths.js';

/**
 * A path (a slash with names around it) or a file name by its extension, after `LINK`'s URL. A
 * folder after a slash may be a route group or a dynamic segment, as Next.js, Expo Router and
 * SvelteKit name them (`app/(auth)/login.tsx`, `app/blog/[slug]/page.tsx`, `api/[...auth].ts`), and a
 * name after a slash may hold Remix's `$param` or open with its `($optional)` segment
 * (`routes/($lang).products.$id.tsx`) or SvelteKit's `+` (`routes/+page.svelte`), and a path may open
 * with SvelteKit's `$lib` (a `$` before a lower-case letter; `$HOME` is a shell's variable): a group as
 * a whole folder or glued to the name after it, never at the end; a segment's name opens with a letter and has no one-letter range, so
 * a character class (`refs/heads/[0-9]`, `[a-zA-Z]`) is none. A path may open a diff's added or
 * removed line (`+src/a.ts`). Each branch opens with its own character (`(`, `[`, a name's), so the
 * scan stays linear.
 */
const PATH_OR_FILE =
  /(?:^|(?<=[\s(`'"=:\\])|(?<=(?:^|\n)[+-]))(?:(?:~|\.{1,2})?\/?(?:\$(?=[a-z]))?[\w@.-]+|~)(?:\/(?:[\w@.$+-]+|\(\$?[\w-]+\)(?:(?=\/)|[\w@.$+-]+)|\[(?:\.\.\.)?[A-Za-z_]\w*(?:-\w{2,})*\][\w@.-]*))+\/?(?::\d+(?::\d+)?)?|\b(?=[\w-])(?<!\b[\w-](?:[\w-]|\.(?!\.))*?)[\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|md|json|jsonl|yaml|yml|toml|ini|cfg|txt|sh|css|scss|html|sql|lock|log|xml|csv)(?::\d+(?::\d+)?)?\b/;

/**
 * A URL, a path, or a file name by its extension (`setup.py:12`). A file name is only tried at the
 * first candidate start (`\b` before `[\w-]`) of a dotted run (the lookbehind: no candidate start
 * before it joined to it by `[\w-]` and single dots). A later start in the run can only end at the
 * dots the first one could, so it fails where the first failed: trying every start (`a.a.a.…`) cost
 * quadratic time. The lookbehind is lazy, so it reads back only to the nearest start.
 * {@link findLinksFrom} tries the first start after where a search begins with `FILE_NAME_AT`.
 * A URL ends at a CJK letter or full-width punctuation: in Chinese or Japanese prose the sentence goes
 * on with no space after it (`https://x.dev/aここにプッシュ`); a URL with such letters in its path is cut
 * there, which still leads to the site. A URL also ends at a backslash, which no URL holds: text with
 * its escapes written out (a JSON string in a tool call) glues `\n\n##` to it otherwise.
 */
const LINK = new RegExp(`\\bhttps?:\\/\\/[^\\s<>"'\`)\\]}\\\\${WIDE_RANGES}]+|${PATH_OR_FILE.source}`, 'g');
const FIRST_START = '(?<!\\b[\\w-](?:[\\w-]|\\.(?!\\.))*?)';
/** `LINK`'s file name at one start (sticky), without the first-start lookbehind. */
const FILE_NAME_AT = new RegExp(
  `\\b${LINK.source.slice(LINK.source.indexOf(FIRST_START) + FIRST_START.length)}`,
  'y',
);

/**
 * URLs and file paths mentioned in `text`, in order, without trailing punctuation. A path needs a
 * slash with a file name or two slashes (`lib/a.ts`, `./x/y`, `/etc/hosts`), or a known extension
 * (`setup.py:12`), so `and/or` is not a path. An IDE chat's mention (`@docs/PRD.md`) is the file. A
 * Windows path is the whole path, folders and drive.
 *
 * @example
 * ```ts
 * findLinks('see https://x.dev/a and lib/core/json.ts:12'); // ['https://x.dev/a', 'lib/core/json.ts:12']
 * findLinks('look at @docs/PRD.md'); // ['docs/PRD.md']: a chat's mention of the file
 * findLinks('open C:\\repo\\src\\a.ts'); // ['C:\\repo\\src\\a.ts']
 * ```
 */
export function findLinks(text: string): string[] {
  return findLinksFrom(text, linkStretch(text, 0));
}

/**
 * {@link findLinks} when no link starts before `from` (-1: there is none), which must be the start of
 * the text or follow ASCII whitespace, or be where {@link linkStretch} points.
 *
 * @example
 * ```ts
 * findLinksFrom('see lib/a.ts', 0); // ['lib/a.ts']
 * ```
 */
export function findLinksFrom(text: string, from: number): string[] {
  // A match holds no whitespace, and a `/` or a `.` before a (lower-case) letter: the regex only
  // runs from the first stretch between spaces that has one, and again after each match. The
  // skipped stretches cannot hold a match, so the matches are the same as an exec loop from 0.
  if (from < 0) return [];
  const out: string[] = [];
  // Whether the text holds a drive path (read once, when an escape or a backslash first asks).
  let windows: boolean | undefined;
  // Where the last link ended: a Windows path is read back no further (each character once).
  let floor = 0;
  // Where the last diff side ended (`diff --git a/x b/x`: the `b/` side follows the `a/` one).
  let sideEnd = -2;
  for (;;) {
    // A search that begins inside a dotted run: its first candidate start may be no run's first, so
    // `LINK` skips it; it is tried alone, and wins unless `LINK` matches before or at it.
    const start = firstStartWithin(text, from);
    let found: string | undefined;
    let next = -1;
    if (start >= 0) {
      FILE_NAME_AT.lastIndex = start;
      const f = FILE_NAME_AT.exec(text);
      if (f !== null) {
        found = f[0];
        next = FILE_NAME_AT.lastIndex;
      }
    }
    LINK.lastIndex = from;
    const m = LINK.exec(text);
    if (m !== null && (found === undefined || m.index <= start)) {
      found = m[0];
      next = LINK.lastIndex;
    }
    if (found === undefined) break;
    if (found === '') next++;
    else {
      // `\nconsole.log`, `\tsrc/a.ts`: text with its escapes written out (JSON, a log) puts the
      // escape's letter before the name. Not in Windows text (`C:\temp\notes.txt`), where the
      // backslash separates folders, nor after an escaped backslash (`\\notes.txt`).
      const matchAt = next - found.length;
      let at = matchAt;
      // `app\styles\tailwind.css`: a `\t` after a folder that itself follows a backslash separates
      // folders; no escape.
      const escaped =
        escapedLetter(text, at, found) && (found.includes('/') || !folderBefore(text, at - 1, floor));
      // In Windows text a `\n` before a path written with slashes (`\nbackend/api.js`) is still an escape.
      const slashed = escaped && found.includes('/');
      if (escaped) {
        windows ??= WINDOWS_PATH.test(text);
        if (!windows || slashed) found = found.slice(1);
      }
      // A dot file (`.prettierrc.yaml`): a file name's match starts after the dot, at the word.
      else if (text.charCodeAt(at - 1) === 0x2e && opensLink(text.charCodeAt(at - 2))) found = `.${found}`;
      // A Windows path is the whole path: its folders before a backslash (`app\components\Header.tsx`)
      // and its drive (`C:\repo\a.ts`, `C:/repo/a.ts`), read back from where the match starts.
      const before = text.charCodeAt(at - 1);
      if ((!escaped || (windows && !slashed)) && (before === 0x5c || before === 0x3a)) {
        windows ??= WINDOWS_PATH.test(text);
        const back = windowsStart(text, at, windows, floor);
        if (back < at) {
          found = text.slice(back, at) + found;
          at = back;
        }
      }
      // A diff's side (`--- a/lib/x.py`, `+++ b/lib/x.py`, `diff --git a/x b/x`) names the file
      // without its `a/` or `b/`.
      if (diffSide(text, at, found, sideEnd)) {
        found = found.slice(2);
        sideEnd = next;
      }
      // The tail of a glob (`*.d.ts` → `d.ts`, `**/*.test.ts` → `test.ts`) names no file.
      if (!inGlob(text, matchAt)) pushLink(out, found);
      floor = next;
    }
    from = linkStretch(text, next);
    if (from < 0) break;
  }
  LINK.lastIndex = 0;
  return out;
}

/**
 * Whether the link at `at` opens with the letter of a `\n`, `\t` or `\r` escape: an odd run of
 * backslashes before it, and a name after the letter.
 */
function escapedLetter(text: string, at: number, found: string): boolean {
  const c = found.charCodeAt(0);
  if ((c !== 0x6e && c !== 0x74 && c !== 0x72) || found.length < 2 || !isNameChar(found.charCodeAt(1)))
    return false;
  let k = at;
  while (k > 0 && text.charCodeAt(k - 1) === 0x5c) k--;
  return (at - k) % 2 === 1;
}

/**
 * Whether the link `found` at `at` is one side of a diff's header: `a/` or `b/` right after `--- `,
 * `+++ ` or `diff --git ` at a line's start, or the `b/` side one space after the `a/` side that ended
 * at `sideEnd`. Constant time: only the characters right before the link are read.
 */
function diffSide(text: string, at: number, found: string, sideEnd: number): boolean {
  const c = found.charCodeAt(0);
  if ((c !== 0x61 && c !== 0x62) || found.charCodeAt(1) !== 0x2f || found.length < 3) return false;
  if (c === 0x62 && sideEnd === at - 1 && text.charCodeAt(at - 1) === 0x20) return true;
  const lineStart = (i: number) => i === 0 || text.charCodeAt(i - 1) === 0x0a;
  const head = text.slice(Math.max(0, at - 4), at);
  if ((head === '--- ' || head === '+++ ') && lineStart(at - 4)) return true;
  return c === 0x61 && at >= 11 && text.startsWith('diff --git ', at - 11) && lineStart(at - 11);
}

/** Whether the link at `at` follows a `*` or a `*.`: the rest of a glob pattern. */
function inGlob(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  return before === 0x2a || (before === 0x2e && text.charCodeAt(at - 2) === 0x2a);
}

/**
 * When `from` is inside a run of `[\w.-]`: the first candidate start of a file name (`\b` before
 * `[\w-]`) from `from` on that the run joins to what comes before `from` (no `..` between), else -1.
 */
function firstStartWithin(text: string, from: number): number {
  if (from === 0) return -1;
  const before = text.charCodeAt(from - 1);
  if (before !== 0x2e && !isNameChar(before)) return -1;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      if (text.charCodeAt(i - 1) === 0x2e) return -1;
    } else if (!isNameChar(c)) return -1;
    else if (isWordChar(c) !== isWordChar(text.charCodeAt(i - 1))) return i;
  }
  return -1;
}

/**
 * A date (`2026/04/05`, `10/5`), a date's format (`yyyy/mm/dd`) or numbers one after another
 * (`404/500/`, status codes): slashes, and no path.
 */
const DATE = /^(?:\d{1,4}(?:\/\d{1,4})+|(?:y{2,4}|m{1,2}|d{1,2})(?:\/(?:y{2,4}|m{1,2}|d{1,2}))+)\/?$/i;

/**
 * An XML namespace (`xmlns="http://www.w3.org/2000/svg"`, Android's `xmlns:android`): a name in markup,
 * no page to read. The W3C's dated namespaces only: its specifications (`/TR/…`) are pages.
 */
const NAMESPACE =
  /^https?:\/\/(?:www\.w3\.org\/(?:(?:19|20)\d\d|XML)\/|schemas\.(?:android|microsoft|xmlsoap|openxmlformats)\.(?:com|org)\/)/;

/**
 * Whether `link` holds `..` inside a name (`main..HEAD`, `doc/techspec...main`): a Git range or an
 * ellipsis, not a path. Dots that are a whole component climb a folder (`../a.ts`) or elide some
 * (`~/Library/.../Books.plist`); three after a `[` open a catch-all segment (`api/[...auth].ts`).
 */
function rangeOrEllipsis(link: string): boolean {
  for (let i = link.indexOf('..'); i >= 0; i = link.indexOf('..', i)) {
    const from = i;
    while (link.charCodeAt(i) === 0x2e) i++;
    if (i - from === 3 && link.charCodeAt(from - 1) === 0x5b) continue;
    if ((from > 0 && link.charCodeAt(from - 1) !== 0x2f) || (i < link.length && link.charCodeAt(i) !== 0x2f))
      return true;
  }
  return false;
}

/** Whether `name` ends in a file extension (`package.json`, not `lodash` nor `v1.2`). */
function fileName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && isExtension(name.slice(dot + 1).toLowerCase());
}

/** Adds a match of `LINK` to `out` as `findLinks` keeps it, if it does. */
function pushLink(out: string[], link: string): void {
  // Trailing punctuation off (`[.,;:!?]+$`).
  let end = link.length;
  while (end > 0 && isTrailingPunctuation(link.charCodeAt(end - 1))) end--;
  if (end < link.length) link = link.slice(0, end);
  // JavaScript's `console.log` is code, not a log file.
  if (link === 'console.log' || DATE.test(link) || isProductName(link)) return;
  if (link.startsWith('http')) {
    // A template literal's URL (`https://x.dev/search?q=${query`) is code, not a page.
    if (!NAMESPACE.test(link) && link.indexOf('${') < 0) out.push(link);
  } else {
    if (rangeOrEllipsis(link)) return;
    // A diff's removed line or a list's dash glued to the path (`-.specify/a.md`, `-src/b.ts`): no
    // file's name starts with a hyphen (a command's flag does, and is no path).
    if (link.charCodeAt(0) === 0x2d) {
      let i = 1;
      while (link.charCodeAt(i) === 0x2d) i++;
      link = link.slice(i);
      if (link.length === 0) return;
    }
    // A mention in an IDE chat (`@docs/PRD.md`, Cursor's and Claude Code's): the file is the path
    // after the `@`. A scoped package or an import alias (`@mui/material`, `@/lib/utils.ts`) is kept.
    if (link.charCodeAt(0) === 0x40 && mentionsFile(link)) link = link.slice(1);
    let slashes = 0;
    for (let i = link.indexOf('/'); i >= 0; i = link.indexOf('/', i + 1)) slashes++;
    const pathLike =
      slashes === 0 ||
      link.startsWith('/') ||
      link.startsWith('./') ||
      link.startsWith('../') ||
      link.startsWith('~/') ||
      slashes >= 2 ||
      /\.[A-Za-z][\w]*(?::\d+)*$/.test(link.slice(link.lastIndexOf('/') + 1));
    if (!pathLike) return;
    if (link.endsWith('/') && slashes === 1) link = link.slice(0, -1);
    const slash = link.indexOf('/');
    // Two files, one or the other (`package.json/_config.yml`): a folder is seldom named as a file.
    if (slashes === 1 && slash > 0 && fileName(link.slice(0, slash)) && fileName(link.slice(slash + 1))) {
      out.push(link.slice(0, slash), link.slice(slash + 1));
      return;
    }
    if (link.length > 1) out.push(link);
  }
}

/** Whether `@…` names a file: a path (not an alias's `@/`) whose last name has a known extension. */
function mentionsFile(link: string): boolean {
  if (link.charCodeAt(1) === 0x2f) return false;
  const name = link.slice(link.lastIndexOf('/') + 1);
  const colon = name.indexOf(':');
  const base = colon < 0 ? name : name.slice(0, colon);
  const dot = base.lastIndexOf('.');
  return dot > 0 && isExtension(base.slice(dot + 1).toLowerCase());
}

/**
 * The start of the first stretch of `text` from `from` on (cut at ASCII whitespace) that holds a `/`
 * or a `.` before a letter, or -1. No match of `LINK` starts before it.
 */
function linkStretch(text: string, from: number): number {
  // Returns as soon as the stretch qualifies: reading on to its end would read a long stretch again
  // after each of its links (quadratic time on `x.ts:x.ts:…`).
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2f) return start;
    if (c === 0x2e) {
      const d = i + 1 < text.length ? text.charCodeAt(i + 1) | 0x20 : 0;
      if (d >= 0x61 && d <= 0x7a) return start;
    } else if (c === 0x20 || (c <= 0x0d && c >= 0x09)) start = i + 1;
  }
  return -1;
}

function isTrailingPunctuation(c: number): boolean {
  // . , ; : ! ?
  return c === 0x2e || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x21 || c === 0x3f;
}

/**
 * One place, one evidence item. A session names the same file in several spellings: with and
 * without a trailing slash or a leading `./`, under `~` and under the home folder it stands for
 * (`/Users/<name>/…`, `/home/<name>/…`, `/root/…`), and as a path relative to the project beside its absolute
 * or longer form (`app/src/Main.kt` and `/Users/<name>/proj/app/src/Main.kt`). `samePlaces` groups the
 * evidence links that name one place, so the snapshot lists it once and its slots go to other places.
 *
 * What is kept apart: URLs and paths differ from each other; a line location (`a.py:12`) is a place of
 * its own, apart from the file (`a.py`); a relative path joins a longer one only when every longer
 * listed path it ends (at a `/`) is one place, so `config.py` beside `app/config.py` and
 * `tests/config.py` stays as written; a `../` path joins nothing and nothing joins it (its base is
 * unknown).
 */

import { tildeSpelling } from '../core/index.js';

/** A link with a scheme (`https://…`, `file://…`): compared as written, less a trailing slash. */
const SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;
/** Suffixes of at most this many path components are indexed; a deeper relative path is looked up by its last ones. */
const MAX_SUFFIX_PARTS = 8;
/** Paths longer than this are compared only in full (bounds the suffix index to ~4 KB a path). */
const MAX_INDEXED_LENGTH = 512;

/**
 * The comparison key of a link: trailing slashes and leading `./` dropped, a home folder as `~`,
 * backslashes as slashes.
 *
 * @example
 * ```ts
 * placeKey('/Users/ana/proj/'); // '~/proj'
 * placeKey('./src/a.ts'); // 'src/a.ts'
 * placeKey('app\\src\\a.ts'); // 'app/src/a.ts'
 * ```
 */
export function placeKey(link: string): string {
  // A Windows path's backslashes separate folders as slashes do (`app\src\a.ts` is `app/src/a.ts`).
  const slashed = link.includes('\\') && !SCHEME.test(link) ? link.replaceAll('\\', '/') : link;
  let to = slashed.length;
  while (to > 1 && slashed.charCodeAt(to - 1) === 0x2f) to--;
  let key = to === slashed.length ? slashed : slashed.slice(0, to);
  if (SCHEME.test(key)) return key;
  // Leading `./` pairs dropped by one slice (a loop of slices is quadratic on `././././…`).
  let from = 0;
  while (key.startsWith('./', from) && key.length > from + 2) from += 2;
  if (from > 0) key = key.slice(from);
  // A home folder's path as `~` names it (`tildeSpelling` of rearview/core, as the session's folder is read).
  return tildeSpelling(key) ?? key;
}

/**
 * A spelling's kind, best first: a relative path with a folder in it (`app/src/Main.kt`), one under `~`,
 * an absolute one, a bare name (`opencode.json` says less than `~/.config/opencode/opencode.json`).
 * `key` is the link's {@link placeKey}, already made.
 */
const spellingRank = (link: string, key: string): number =>
  SCHEME.test(link)
    ? 4
    : link.startsWith('~')
      ? 1
      : link.startsWith('/') || DRIVE.test(key)
        ? 2
        : key.includes('/')
          ? 0
          : 3;

/** A drive path's key (`C:/…`, backslashes already slashes). */
const DRIVE = /^[A-Za-z]:\//;
/** Whether a key is an absolute path: from `/` or a drive. */
const isAbsolutePath = (key: string): boolean => key.startsWith('/') || DRIVE.test(key);

/**
 * Whether link `a` is the better spelling of a place than link `b` (both of one group), by index;
 * `ranks` holds each link's {@link spellingRank}, made once.
 */
function better(
  links: readonly string[],
  keys: readonly string[],
  ranks: Int8Array,
  a: number,
  b: number,
): boolean {
  const ra = ranks[a]!;
  const rb = ranks[b]!;
  if (ra !== rb) return ra < rb;
  // The most specific relative path; then the plainest writing (no `./`, no trailing slash).
  const ak = keys[a]!.length;
  const bk = keys[b]!.length;
  if (ak !== bk) return ra === 0 ? ak > bk : ak < bk;
  return links[a]!.length < links[b]!.length;
}

/**
 * The place a relative path of more than {@link MAX_SUFFIX_PARTS} components joins, found by its
 * indexed tail (its last MAX_SUFFIX_PARTS components): the tail's one place, if that place's key ends
 * with the whole path at a `/`. Every listed path that ends with the whole path ends with its tail, so
 * a tail of one place means the path has one place too.
 */
function deepOwner(
  k: string,
  keys: readonly string[],
  bySuffix: ReadonlyMap<string, number>,
): number | undefined {
  let at = k.length;
  for (let c = 0; c < MAX_SUFFIX_PARTS; ) if (k.charCodeAt(--at) === 0x2f) c++;
  const owner = bySuffix.get(k.slice(at + 1));
  if (owner === undefined || owner < 0) return owner;
  const key = keys[owner]!;
  return key.length > k.length && key.endsWith(k) && key.charCodeAt(key.length - k.length - 1) === 0x2f
    ? owner
    : undefined;
}

/**
 * Groups links that name one place. `group[i]` is the index of the first link of link i's group (so a
 * group's first member is its own representative), `spelling[g]` the text to list for the group whose
 * representative is g: a relative path with a folder in it if one is in it (the longest), else one
 * under `~`, else an absolute one (the shortest), else a bare name. Linear in the links' total length
 * (suffixes of at most 8 components are indexed; a deeper relative path is found by its last 8).
 *
 * @example
 * ```ts
 * const { group, spelling } = samePlaces(['app/src/Main.kt', '/Users/ana/p/app/src/Main.kt', 'README.md']);
 * [...group]; // [0, 0, 2]
 * spelling[0]; // 'app/src/Main.kt'
 * ```
 */
export function samePlaces(links: readonly string[]): { group: Int32Array; spelling: string[] } {
  const n = links.length;
  const keys = links.map(placeKey);
  // Links with one key are one place: the first of them stands for the key.
  const firstOf = new Map<string, number>();
  const root = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const seen = firstOf.get(keys[i]!);
    if (seen === undefined) {
      firstOf.set(keys[i]!, i);
      root[i] = i;
    } else root[i] = seen;
  }
  // Distinct keys, most path components first, so a longer path's place is known before its suffixes
  // are read. A proper suffix (at a `/`) always has fewer components.
  const distinct: number[] = [];
  const parts = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (root[i] !== i) continue;
    distinct.push(i);
    const k = keys[i]!;
    // Every component counts: a deep relative path must come after the longer ones it may join.
    let c = 1;
    for (let j = 0; j < k.length; j++) if (k.charCodeAt(j) === 0x2f) c++;
    parts[i] = c;
  }
  distinct.sort((a, b) => parts[b]! - parts[a]! || a - b);
  // Suffix → the place every listed path that ends with it belongs to, or -1 when they are several.
  const bySuffix = new Map<string, number>();
  for (const i of distinct) {
    const k = keys[i]!;
    if (SCHEME.test(k)) continue;
    // A path that climbs out of its folder has no known base: it neither joins nor is joined.
    if (k.startsWith('../') || k === '..') continue;
    if (!isAbsolutePath(k) && !k.startsWith('~')) {
      const owner = parts[i]! > MAX_SUFFIX_PARTS ? deepOwner(k, keys, bySuffix) : bySuffix.get(k);
      if (owner !== undefined && owner >= 0) root[i] = owner;
    }
    if (k.length > MAX_INDEXED_LENGTH) continue;
    const place = root[i]!;
    // Every proper suffix that starts after a `/`, up to MAX_SUFFIX_PARTS components.
    for (let at = k.length - 1, c = 0; at > 0 && c < MAX_SUFFIX_PARTS; at--) {
      if (k.charCodeAt(at) !== 0x2f) continue;
      c++;
      if (at === k.length - 1) continue;
      const suffix = k.slice(at + 1);
      const known = bySuffix.get(suffix);
      if (known === undefined) bySuffix.set(suffix, place);
      else if (known !== place) bySuffix.set(suffix, -1);
    }
  }
  // Resolve chains (a suffix's place is the place of the longer path it joined) and choose spellings.
  const group = new Int32Array(n);
  const spelling: string[] = new Array(n);
  const head = new Int32Array(n).fill(-1);
  // The index of each group's best spelling so far, by its representative.
  const best = new Int32Array(n).fill(-1);
  const ranks = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    let r = root[i]!;
    while (root[r] !== r) r = root[r]!;
    // The group's representative is its first member in input order.
    if (head[r]! < 0) head[r] = i;
    const g = head[r]!;
    group[i] = g;
    ranks[i] = spellingRank(links[i]!, keys[i]!);
    if (best[g]! < 0 || better(links, keys, ranks, i, best[g]!)) {
      best[g] = i;
      spelling[g] = links[i]!;
    }
  }
  return { group, spelling };
}

/**
 * Evidence seen from the folder the session worked in (`SnapshotInput.root`, which
 * `readSnapshotSource` takes from the transcript's `meta.cwd`). An agent resuming the work stands in
 * that folder: `/Users/ana/proj/src/a.ts` is `src/a.ts` to it, and the folder itself or a folder
 * above it (`/Users/ana`) names no piece of evidence. A spelling that only starts like the folder
 * (`/Users/ana/pro`: a sibling project, or a path a terminal's wrap cut short) is left as written.
 * Relative spellings are shorter and leave the person's home folder name out of the snapshot.
 *
 * Two steps, at two places of the build: the folder and those above it are dropped as candidates (a
 * slot goes to real evidence), and the kept items are rewritten only when listed, after `samePlaces`
 * grouped the spellings (a rewritten `frontend/src/App.tsx` would otherwise join
 * `petmarket/frontend/src/App.tsx` by its suffix, though its base is known).
 */

import { tildeSpelling } from '../core/index.js';

/** How a session's folder is written in the texts it produced, once per build. */
export interface RootSpellings {
  /** The folder's spellings without a trailing separator: `/Users/ana/proj` and `~/proj`; `C:\w\r` and `C:/w/r`. */
  readonly whole: readonly string[];
  /** Each spelling followed by its separator, and what it becomes in a listed item: `''`, or `~/` for a home folder. */
  readonly under: readonly (readonly [string, string])[];
}

const isSeparator = (c: number): boolean => c === 0x2f || c === 0x5c;
/** A drive path (`C:\…` or `C:/…`). */
const DRIVE = /^[A-Za-z]:[\\/]/;

/**
 * The spellings of `root`, or undefined when it names no folder to stand in: not a string, empty, a
 * bare `/` or drive, or relative (a folder is only known from an absolute path). When the folder is a
 * home folder itself, what lies under it is listed under `~/` (`~/.config/app.json`, not
 * `.config/app.json`).
 *
 * @example
 * ```ts
 * rootSpellings('/Users/ana/proj')?.whole; // ['/Users/ana/proj', '~/proj']
 * rootSpellings('src'); // undefined
 * ```
 */
export function rootSpellings(root: unknown): RootSpellings | undefined {
  if (typeof root !== 'string' || root.length > 4096) return undefined;
  let to = root.length;
  while (to > 0 && isSeparator(root.charCodeAt(to - 1))) to--;
  const folder = root.slice(0, to);
  const drive = folder.length > 2 && DRIVE.test(folder);
  if (!drive && !(folder.startsWith('/') && folder.length > 1)) return undefined;
  if (drive) {
    // Windows reads a drive letter in either case (`c:/Users/…` and `C:\Users\…` are one folder).
    const other =
      folder[0] === folder[0]!.toUpperCase() ? folder[0]!.toLowerCase() : folder[0]!.toUpperCase();
    const spellings = [folder, `${other}${folder.slice(1)}`].flatMap((f) => [
      f.replaceAll('/', '\\'),
      f.replaceAll('\\', '/'),
    ]);
    return {
      whole: spellings,
      under: spellings.map((w) => [`${w}${w.includes('\\') ? '\\' : '/'}`, ''] as const),
    };
  }
  // A home folder's path, which `~` stands for in the texts of the session too.
  const tilde = tildeSpelling(folder);
  if (tilde === '~') return { whole: [folder, '~'], under: [[`${folder}/`, '~/']] };
  if (tilde === undefined) return { whole: [folder], under: [[`${folder}/`, '']] };
  return {
    whole: [folder, tilde],
    under: [
      [`${folder}/`, ''],
      [`${tilde}/`, ''],
    ],
  };
}

/** Whether `text` opens with an absolute spelling: `/`, `~` or a drive. */
const isAbsolute = (text: string): boolean => {
  const c = text.charCodeAt(0);
  return c === 0x2f || c === 0x7e || DRIVE.test(text);
};

/** Whether a path may start at `at`: the text's start, or after a character no path is spelled with. */
function opensPath(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  return !(
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0x7e ||
    isSeparator(c) ||
    c > 0x7f
  );
}

/**
 * Whether an evidence item is the session's folder or a folder above it (`/Users/ana`, `~`, `/`),
 * written with or without a trailing separator: no evidence to an agent standing in the folder.
 *
 * @example
 * ```ts
 * const root = rootSpellings('/Users/ana/proj')!;
 * isRootOrAbove(root, '/Users/ana/'); // true
 * isRootOrAbove(root, '/Users/ana/pro'); // false: a sibling, or a cut spelling
 * ```
 */
export function isRootOrAbove(root: RootSpellings, text: string): boolean {
  if (!isAbsolute(text)) return false;
  let to = text.length;
  while (to > 1 && isSeparator(text.charCodeAt(to - 1))) to--;
  for (const whole of root.whole) {
    if (to > whole.length || !whole.startsWith(text.slice(0, to))) continue;
    // The item ends where a name of the folder ends (or is a bare `/`).
    if (to === whole.length || isSeparator(whole.charCodeAt(to)) || to === 1) return true;
  }
  return false;
}

/**
 * A listed evidence item as seen from the session's folder: every spelling of the folder followed by
 * a separator and a name is dropped (`/Users/ana/proj/src/a.ts:12` → `src/a.ts:12`, and so inside a
 * sentence that points at a file), or becomes `~/` when the folder is a home folder. Followed by
 * nothing, a space or another separator (`cd /Users/ana/proj/ && ls`), or inside a longer path
 * (`/mnt/Users/ana/proj/a.ts`), it stays. Linear in the item's
 * length; never empty for a non-empty item (the name after the folder stays).
 *
 * @example
 * ```ts
 * const root = rootSpellings('/Users/ana/proj')!;
 * relativeToRoot(root, '/Users/ana/proj/src/a.ts'); // 'src/a.ts'
 * relativeToRoot(root, 'See ~/proj/README.md for the setup.'); // 'See README.md for the setup.'
 * relativeToRoot(root, '/Users/ana/other/b.ts'); // '/Users/ana/other/b.ts'
 * ```
 */
export function relativeToRoot(root: RootSpellings, text: string): string {
  let out = text;
  for (const [under, into] of root.under) {
    let at = out.indexOf(under);
    if (at < 0) continue;
    let kept = '';
    let from = 0;
    for (; at >= 0; at = out.indexOf(under, from)) {
      const next = out.charCodeAt(at + under.length);
      const name = !Number.isNaN(next) && next > 0x20 && !isSeparator(next) && opensPath(out, at);
      kept += out.slice(from, at) + (name ? into : under);
      from = at + under.length;
    }
    out = kept + out.slice(from);
  }
  return out;
}

/** What a path's name may hold for `findLinks` to read it whole (separators, a drive's colon, `~`). */
const PLAIN_SPELLING = /^[\w@.~:\\/-]*$/;

/**
 * The spellings of the folder that `findLinks` would not read whole: a name with white space or a
 * letter outside ASCII (`/Users/ana/My app`, `/Users/ana/café`) is cut there (`/Users/ana/My`,
 * `app/src/a.ts`). Empty for most folders.
 *
 * @example
 * ```ts
 * cutSpellings(rootSpellings('/Users/ana/My app')!); // ['/Users/ana/My app', '~/My app']
 * cutSpellings(rootSpellings('/Users/ana/app')!); // []
 * ```
 */
export function cutSpellings(root: RootSpellings): readonly string[] {
  return root.whole.filter((w) => !PLAIN_SPELLING.test(w));
}

/** A name `findLinks` reads, standing in for the `i`th spelling: it keeps the spelling's start. */
function standIn(spelling: string, i: number): string {
  const name = `rearview-root-${i}`;
  if (spelling.startsWith('~')) return `~/${name}`;
  if (DRIVE.test(spelling)) return `${spelling.slice(0, 3)}${name}`;
  return `/${name}`;
}

/**
 * The links of `text` read with the folder's spellings whole, when `text` spells one of `cut`
 * ({@link cutSpellings}); else null (the text's own links stand). Each spelling is read as a plain
 * name (`/rearview-root-0` for `find`) and given back as written, so `/Users/ana/My app/src/a.ts` is
 * one link, which the listing then shows as `src/a.ts`. Linear in the text's length. A text that
 * itself spells the stand-in next to the folder would have it read back as the folder: no text of the
 * shared data does.
 *
 * @example
 * ```ts
 * const cut = cutSpellings(rootSpellings('/Users/ana/My app')!);
 * linksThroughRoot('See /Users/ana/My app/src/a.ts', cut, findLinks); // ['/Users/ana/My app/src/a.ts']
 * ```
 */
export function linksThroughRoot(
  text: string,
  cut: readonly string[],
  find: (text: string) => string[],
): string[] | null {
  let read = text;
  const joined: [string, string][] = [];
  cut.forEach((s, i) => {
    if (read.indexOf(s) < 0) return;
    const j = standIn(s, i);
    joined.push([j, s]);
    read = read.replaceAll(s, j);
  });
  if (joined.length === 0) return null;
  return find(read).map((link) => {
    let out = link;
    for (const [j, s] of joined) if (out.indexOf(j) >= 0) out = out.replaceAll(j, s);
    return out;
  });
}

/**
 * Words joined by slashes that read like a path: "add run/lint/typecheck/test commands", "our
 * TDD/BDD/ATDD gurus", "null for new/removed/unchanged". `findLinks` keeps two slashes or more as a
 * path (`src/main/java` is one, written bare in a sentence), and only what the session says around
 * them tells the two apart: a folder of the project shows up again, in another path of the session
 * (`src/main/java/com/A.java`, `src/pages/Home.tsx`); a list of alternatives does not. So a bare
 * run of plain words is evidence only when some other path of the session goes through its first
 * folder; one written in backticks is kept as written.
 */

/**
 * Whether `link` has a word list's shape: a relative run of three or more plain names (letters and
 * hyphens, a letter first) joined by single slashes, with no extension, digit, `_` or trailing
 * slash. Names of that shape are also how bare folder paths look (`src/main/java`), which
 * {@link firstFolder} and the session's other paths decide.
 *
 * @example
 * ```ts
 * wordListShape('run/lint/typecheck/test'); // true
 * wordListShape('src/main/java'); // true: the session decides
 * wordListShape('src/a.ts'); // false
 * wordListShape('lib/v2/tests'); // false
 * ```
 */
export function wordListShape(link: string): boolean {
  let slashes = 0;
  let name = 0;
  for (let i = 0; i < link.length; i++) {
    const c = link.charCodeAt(i);
    const l = c | 0x20;
    if (l >= 0x61 && l <= 0x7a) name++;
    else if (c === 0x2d && name > 0) name++;
    else if (c === 0x2f && name > 0) {
      slashes++;
      name = 0;
    } else return false;
  }
  return slashes >= 2 && name > 0;
}

/**
 * The first folder of a relative path (`src` of `src/main/java`), or `''` for a path with no folder.
 *
 * @example
 * ```ts
 * firstFolder('src/main/java'); // 'src'
 * ```
 */
export function firstFolder(link: string): string {
  const slash = link.indexOf('/');
  return slash > 0 ? link.slice(0, slash) : '';
}

/**
 * Adds the folders `link` goes through (every name before a separator) to `into`: what a word-list
 * shaped link's first folder is looked up in.
 *
 * @example
 * ```ts
 * const folders = new Set<string>();
 * addFolders('/home/ana/app/src/a.ts', folders); // folders: home, ana, app, src
 * ```
 */
export function addFolders(link: string, into: Set<string>): void {
  // A URL's host and scheme are no folders of the project.
  const start = link.indexOf('://') >= 0 ? link.indexOf('/', link.indexOf('://') + 3) : 0;
  if (start < 0) return;
  let s = start;
  for (let i = start; i < link.length; i++) {
    const c = link.charCodeAt(i);
    if (c === 0x2f || c === 0x5c) {
      if (i > s) into.add(link.slice(s, i));
      s = i + 1;
    }
  }
}

/**
 * For each of `links` (in the order `findLinks` found them in `text`): 0 when it has no word list's
 * shape, 1 when it has one and is written bare, 2 when it has one but a backtick, quote or `@` comes
 * right before it (a code span or a mention names a path on purpose). Null when no link has the
 * shape. One pass: each link is looked for after the previous one's place, and a link not found there
 * (none should be) is taken as bare without another search, so a text with many links is read once.
 *
 * @example
 * ```ts
 * bareWordLists('add run/lint/test commands in `a/b/c`', ['run/lint/test', 'a/b/c']); // [1, 2]
 * ```
 */
export function bareWordLists(text: string, links: readonly string[]): Uint8Array | null {
  let out: Uint8Array | null = null;
  let from = 0;
  for (let l = 0; l < links.length; l++) {
    const link = links[l]!;
    if (!wordListShape(link)) continue;
    out ??= new Uint8Array(links.length);
    const at = from < 0 ? -1 : text.indexOf(link, from);
    if (at < 0) {
      from = -1;
      out[l] = 1;
      continue;
    }
    from = at + link.length;
    const c = at > 0 ? text.charCodeAt(at - 1) : 0;
    out[l] = c === 0x60 || c === 0x27 || c === 0x22 || c === 0x40 ? 2 : 1;
  }
  return out;
}

/**
 * Leaves out of `candidates` (in place, keeping their order and renumbering `order`) the evidence
 * links `reads` counts as words joined by slashes read bare (a count of their reads; -1 for one read
 * in a code span, which stays) whose first folder no other evidence link goes through; `drop` hears
 * of each with its count of reads. Linear in the candidates and their links' length.
 *
 * @example
 * ```ts
 * const cands = [{ cat: 4, text: 'run/lint/test', order: 0 }, { cat: 4, text: 'src/a.ts', order: 1 }];
 * dropWordLists(cands, new Map([[cands[0], 1]]), () => {}); // cands: [{ text: 'src/a.ts', order: 0 }]
 * ```
 */
export function dropWordLists<C extends { cat: number; text: string; order: number }>(
  candidates: C[],
  reads: ReadonlyMap<C, number>,
  drop: (c: C, reads: number) => void,
): void {
  // The folders the other evidence goes through (category 4: evidence).
  const folders = new Set<string>();
  for (const c of candidates) if (c.cat === 4 && (reads.get(c) ?? -1) < 0) addFolders(c.text, folders);
  let k = 0;
  for (const c of candidates) {
    const n = reads.get(c) ?? -1;
    if (n < 0 || folders.has(firstFolder(c.text))) {
      c.order = k;
      candidates[k++] = c;
    } else drop(c, n);
  }
  candidates.length = k;
}

/**
 * The folder a session worked in, read from its paths when the export records none (SpecStory, Cline,
 * the converted and rendered sessions): a session that spells the same file both ways, absolute in a
 * tool call (`/Users/ana/shop/src/cart.ts`) and relative in its prose (`src/cart.ts`), shows where its
 * relative paths start. Each such pair votes for the folder before the relative path; a folder is
 * taken only when at least two different relative paths vote for it and it has more than three times
 * the votes of any other, so a session whose relative paths start in different folders (an agent that
 * moved into a subfolder) keeps its paths as written.
 */

/** An absolute spelling: a POSIX root or a drive (`C:\`, `c:/`). */
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/])/;
/** A line (and column) after a path: `src/a.ts:12:4`. */
const LINE_SUFFIX = /:\d+(?::\d+)?$/;
/** A home folder itself (`/Users/ana`, `/home/ana`, `C:/Users/ana`) or what is above it. */
const HOME_OR_ABOVE = /^(?:\/(?:Users|home)(?:\/[^/]+)?|[A-Za-z]:(?:\/Users(?:\/[^/]+)?)?|\/[^/]*)$/i;
/** Fewest different relative paths that must vote for a folder. */
const MIN_VOTES = 2;
/** How many times the runner-up's votes the chosen folder must exceed. */
const MARGIN = 3;
/** Most links read, and longest link: enough for any session, and a bound on the work. */
const MAX_LINKS = 20_000;
const MAX_LENGTH = 1_024;
/** Most folders of a relative path: an absolute path is looked up at its last this many folder boundaries. */
const MAX_DEPTH = 16;

/**
 * A link's path with `/` separators, an upper-case drive letter, no line suffix and no trailing
 * separator; empty for a URL.
 */
function pathOf(link: string): string {
  if (typeof link !== 'string' || link.length > MAX_LENGTH || link.includes('://')) return '';
  let p = link.replaceAll('\\', '/').replace(LINE_SUFFIX, '');
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  // Windows reads a drive letter in either case: `c:/w` and `C:\\w` are one folder.
  if (p.length > 1 && p[1] === ':') p = p[0]!.toUpperCase() + p.slice(1);
  return p.startsWith('./') ? p.slice(2) : p;
}

/**
 * The folder the session's relative paths start in, read from its links (`findLinks` of
 * rearview/categorise over its notes, and its tool calls' paths), or undefined when the links do not
 * say so clearly: see the module's rules. Linear in the links' length (an absolute path is looked up at
 * its last 16 folder boundaries; at most 20,000 links of at most 1,024 characters are read). The folder
 * is returned with `/` separators and an upper-case drive letter (`C:/work/repo`). Never throws: what
 * is not an iterable, or an item that is not a string, says nothing.
 *
 * @example
 * ```ts
 * inferRoot(['/Users/ana/shop/src/cart.ts', 'src/cart.ts', '/Users/ana/shop/lib/tax.ts', 'lib/tax.ts']);
 * // '/Users/ana/shop'
 * inferRoot(['/Users/ana/shop/src/cart.ts', 'src/cart.ts']); // undefined: one pair is not enough
 * ```
 */
export function inferRoot(links: Iterable<string>): string | undefined {
  if (links === null || typeof (links as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function')
    return undefined;
  const absolute = new Set<string>();
  const relative = new Set<string>();
  let read = 0;
  for (const link of links) {
    if (++read > MAX_LINKS) break;
    const p = pathOf(link);
    if (p === '') continue;
    if (ABSOLUTE.test(p)) absolute.add(p);
    // A relative path of two names or more ("src/cart.ts"); a lone file name says too little.
    else if (!p.startsWith('~') && !p.startsWith('../') && p.indexOf('/') > 0) relative.add(p);
  }
  if (relative.size < MIN_VOTES) return undefined;
  const votes = new Map<string, number>();
  for (const a of absolute) {
    // Each folder boundary from the end: is what follows it a relative path of the session? At most
    // MAX_DEPTH of them, so a path costs at most that many times its length.
    let depth = 0;
    for (let at = a.lastIndexOf('/'); at > 0 && depth++ < MAX_DEPTH; at = a.lastIndexOf('/', at - 1)) {
      if (relative.has(a.slice(at + 1))) {
        const folder = a.slice(0, at);
        votes.set(folder, (votes.get(folder) ?? 0) + 1);
      }
    }
  }
  let best: string | undefined;
  let top = 0;
  let second = 0;
  for (const [folder, n] of votes) {
    if (n > top || (n === top && best !== undefined && folder.length < best.length)) {
      second = Math.max(second, top);
      best = folder;
      top = n;
    } else second = Math.max(second, n);
  }
  if (best === undefined || top < MIN_VOTES || top <= MARGIN * second || HOME_OR_ABOVE.test(best))
    return undefined;
  return best;
}

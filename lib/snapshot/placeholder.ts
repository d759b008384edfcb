/**
 * Links a document or a template writes to be filled in, which name no place a session can look at:
 * hosts that ask for the reader's own (`your-domain.com`, `your-project.firebaseio.com`,
 * `YOUR_PRODUCTION_URL`, `<host>`, `{host}`), and paths that do (`path/to/file`,
 * `/path/to/your/project`, `github.com/your-username/your-repo.git`, `/Users/xxx/app`). The snapshot
 * lists no such link as evidence. The example domains reserved for documentation (`example.com`) are
 * kept: tests and demos use them for real links. A slot in a path (`/booking/<id>/edit`,
 * `/users/{id}`) is a route's parameter, a real place, and a sentence that holds such a link is read
 * as the sentence it is.
 */

/** The host of an `http(s)` URL: what follows `//` up to a `/`, `?`, `#` or the end. */
const HOST = /^https?:\/\/([^/?#\s]*)/i;
/** A host that asks to be replaced: `your-…`, `your_…`, `yourdomain…`, a `<…>` or `{…}` slot. */
const FILL_IN = /(?:^|[.@])your(?:[-_]|domain|site|app|project|server|host)|[<{]/i;

/**
 * A name in a path that asks to be replaced: `your-username`, `YOUR_REPO`, `yourname` (a noun after
 * "your", so a real `youtube` or `yourls` stays), or a run of `x` (`xxx`). A real file named so
 * (`your-app.md` in a tutorial) is read as one to fill in too.
 */
const FILL_IN_NAME =
  /^(?:your[-_]?(?:user(?:name)?|name|org(?:ani[sz]ation)?|company|team|account|project|app|repo(?:sitory)?(?:[-_]name)?|domain|site|server|host|bucket|service|package|module|component|file(?:name)?|path|dir(?:ectory)?|folder|db|database|table|image|key|id)\b|x{3,}$)/i;
/** `path/to/…` at the start or after a separator: the usual way to write "some path here". */
const PATH_TO = /(?:^|[/\\])path[/\\]to[/\\]/i;

/**
 * Whether `link` is left to fill in: an `http(s)` URL on such a host, or a URL or path (no white
 * space: a sentence is not one) that goes through `path/to/` or holds a name left to fill in.
 *
 * @example
 * ```ts
 * isPlaceholderLink('https://your-project.firebaseio.com'); // true
 * isPlaceholderLink('path/to/file'); // true
 * isPlaceholderLink('https://github.com/your-username/your-repo.git'); // true
 * isPlaceholderLink('https://example.com/docs'); // false: a documentation domain, kept
 * isPlaceholderLink('https://github.com/ana/app'); // false
 * ```
 */
export function isPlaceholderLink(link: string): boolean {
  const host = HOST.exec(link)?.[1];
  if (host !== undefined && host.length > 0 && FILL_IN.test(host)) return true;
  if (/\s/.test(link)) return false;
  if (PATH_TO.test(link)) return true;
  // Names between separators, the host's too: each is read once.
  for (let s = 0, i = 0; i <= link.length; i++) {
    const c = i < link.length ? link.charCodeAt(i) : 0x2f;
    if (c === 0x2f || c === 0x5c) {
      if (i > s && FILL_IN_NAME.test(link.slice(s, i))) return true;
      s = i + 1;
    }
  }
  return false;
}

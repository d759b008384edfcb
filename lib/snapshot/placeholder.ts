/**
 * Links a document or a template writes to be filled in, which name no place a session can look at:
 * hosts that ask for the reader's own (`your-domain.com`, `your-project.firebaseio.com`,
 * `YOUR_PRODUCTION_URL`, `<host>`, `{host}`). The snapshot lists no such link as evidence. The example
 * domains reserved for documentation (`example.com`) are kept: tests and demos use them for real links.
 */

/** The host of an `http(s)` URL: what follows `//` up to a `/`, `?`, `#` or the end. */
const HOST = /^https?:\/\/([^/?#\s]*)/i;
/** A host that asks to be replaced: `your-…`, `your_…`, `yourdomain…`, a `<…>` or `{…}` slot. */
const FILL_IN = /(?:^|[.@])your(?:[-_]|domain|site|app|project|server|host)|[<{]/i;

/**
 * Whether `link` is an `http(s)` URL on a host left to fill in.
 *
 * @example
 * ```ts
 * isPlaceholderLink('https://your-project.firebaseio.com'); // true
 * isPlaceholderLink('https://example.com/docs'); // false: a documentation domain, kept
 * isPlaceholderLink('https://github.com/ana/app'); // false
 * ```
 */
export function isPlaceholderLink(link: string): boolean {
  const host = HOST.exec(link)?.[1];
  if (host === undefined || host.length === 0) return false;
  return FILL_IN.test(host);
}

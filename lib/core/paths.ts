/**
 * Whether a text names one machine's or one project's file: a lesson or instruction that does is
 * bound to that session (the playbook's judge and the failure judge both ask).
 */

/** A path to one machine's files: `/Users/me/…`, `~/x`, `C:\\x`. */
const MACHINE_PATH = /(?:^|[\s`'"(])(?:~|\/(?:Users|home|var|tmp|opt|mnt)|[A-Za-z]:\\)[/\\]?\S*/;
/**
 * A run of the characters a relative path is made of, with a framework's route groups and dynamic
 * segments (`app/(auth)/[id]/page.tsx`): matched greedily once per run, so linear.
 */
const PATH_RUN = /[\w./()[\]-]+/g;
/** A file extension closing a path: `.tsx`, `.py`. */
const EXTENSION = /\.[A-Za-z]{1,5}(?![A-Za-z0-9_])/;

/**
 * Whether `text` names a path to one machine's or one project's file: `/Users/me/…`, `~/x`,
 * `src/app/page.tsx`. A project path is read per run of path characters, with one pass over the run:
 * a slash after a name, then an extension. (A single regex, `\b[\w.-]+\/[\w./-]*\.ext\b`, tries every
 * word boundary of a run such as `b-b-b-…` and is quadratic.) Linear; never throws.
 *
 * @example
 * ```ts
 * namesPath('Show only the diff for app/connection-test/page.tsx.'); // true
 * namesPath('Use pnpm instead of npm.'); // false
 * ```
 */
export function namesPath(text: string): boolean {
  if (typeof text !== 'string') return false;
  if (MACHINE_PATH.test(text)) return true;
  for (const [run] of text.matchAll(PATH_RUN)) {
    // The first slash after a name is enough: a later one leaves less room for the extension.
    let named = false;
    for (let i = 0; i < run.length; i++) {
      const c = run.charCodeAt(i);
      if (c === 47 /* / */) {
        if (named) {
          if (EXTENSION.test(run.slice(i + 1))) return true;
          break;
        }
      } else if (c !== 46 /* . */ && c !== 45 /* - */) named = true;
    }
  }
  return false;
}

/**
 * A POSIX home folder at the start of a path (`/Users/<name>`, `/home/<name>`, and `/root`, the
 * superuser's, where agents in containers often run), up to its end or a slash.
 */
const HOME = /^\/(?:(?:Users|home)\/[^/]+|root)(?=\/|$)/;

/**
 * How a shell writes `folder` (a POSIX path without a trailing slash) from the home folder: `~` for a
 * home folder itself, `~/rest` for a folder under one, undefined for any other folder. The snapshot
 * reads a session's folder in both spellings, and a failure's error class masks both as one path.
 * `/Users/<name>`, `/home/<name>` and `/root` are read as home folders. Never throws.
 *
 * @example
 * ```ts
 * tildeSpelling('/Users/ana/My app'); // '~/My app'
 * tildeSpelling('/home/ana'); // '~'
 * tildeSpelling('/root/app'); // '~/app'
 * tildeSpelling('/srv/app'); // undefined
 * ```
 */
export function tildeSpelling(folder: string): string | undefined {
  if (typeof folder !== 'string') return undefined;
  const home = HOME.exec(folder);
  return home ? `~${folder.slice(home[0].length)}` : undefined;
}

/**
 * Windows paths in agent text (`app\components\Header.tsx`, `C:\repo\src\a.ts`): where such a path
 * starts, read back from a link the finder matched, and whether a backslash is a folder separator or
 * the escape of text with its escapes written out (`\n`, `\t`).
 */
import { isNameChar, opensLink } from './link-chars.js';

/** A drive letter and one backslash (`C:\temp`): Windows paths written as they are, not escaped. */
export const WINDOWS_PATH = /\b[A-Za-z]:\\(?!\\)/;

/** The most folders a Windows path is read back over. */
const MAX_BACK_FOLDERS = 32;

/**
 * Where the Windows path that holds the link starting at `at` starts: read back over `folder\` names
 * (one backslash each; two are an escaped backslash, no separator) and a drive (`C:\`, or `C:` before
 * a `/` path), to a character a link may open after; `at` when there is no such path. In text with no
 * drive path (`windows` false), a folder opening with an escape's letter after its backslash (`\n`,
 * `\t`, `\r`) is an escape: the path starts after the letter. Markdown's escapes (`\_`, `\*`) are
 * not read as folders: the link then opens with that character, and no folder name does.
 */
export function windowsStart(text: string, at: number, windows: boolean, floor: number): number {
  let start = at;
  if (text.charCodeAt(at - 1) === 0x3a) {
    // `C:/repo/a.ts`: the link finder matched `/repo/a.ts` after the drive's colon.
    return text.charCodeAt(at) === 0x2f && at - 2 >= floor && isDrive(text, at - 2) ? at - 2 : at;
  }
  for (let folders = 0; folders < MAX_BACK_FOLDERS; folders++) {
    if (start - 2 < floor || text.charCodeAt(start - 1) !== 0x5c || text.charCodeAt(start - 2) === 0x5c)
      break;
    // Markdown's `\_` (`loan\_data.csv`) escapes the underscore: no folder before it.
    if (text.charCodeAt(start) === 0x5f) break;
    const sep = start - 1;
    if (text.charCodeAt(sep - 1) === 0x3a) {
      if (sep - 2 >= floor && isDrive(text, sep - 2)) start = sep - 2;
      break;
    }
    let k = sep;
    while (k > floor && isFolderChar(text.charCodeAt(k - 1))) k--;
    if (k === sep || !(k === 0 || opensLink(text.charCodeAt(k - 1)) || text.charCodeAt(k - 1) === 0x5c))
      break;
    // `Error:\napp\a.ts` in text with its escapes written out: `\n` after punctuation is an escape,
    // `app` the first folder; after a name (`backend\tests\a.py`) it separates folders.
    if (
      !windows &&
      text.charCodeAt(k - 1) === 0x5c &&
      text.charCodeAt(k - 2) !== 0x5c &&
      isEscapeLetter(text.charCodeAt(k)) &&
      !isNameChar(text.charCodeAt(k - 2)) &&
      !currentFolder(text, k - 2)
    ) {
      start = k + 1 < sep ? k + 1 : start;
      break;
    }
    start = k;
  }
  return start;
}

/**
 * Whether the backslash at `sep` follows a folder name that follows a single backslash itself
 * (`app\styles\` before `tailwind.css`): a chain of folders, so that backslash separates too.
 */
export function folderBefore(text: string, sep: number, floor: number): boolean {
  let k = sep;
  while (k > floor && isFolderChar(text.charCodeAt(k - 1))) k--;
  // A lone `n`, `t` or `r` between backslashes is an escape's letter (`\n\n`), no folder.
  if (k === sep - 1 && isEscapeLetter(text.charCodeAt(k))) return false;
  return k < sep && k - 1 > floor && text.charCodeAt(k - 1) === 0x5c && text.charCodeAt(k - 2) !== 0x5c;
}

/**
 * Whether a drive (`C:`) stands at `at`, with a character a link may open after before it, or an IDE
 * chat's `@` (`@c:\Users\…`).
 */
function isDrive(text: string, at: number): boolean {
  const l = text.charCodeAt(at) | 0x20;
  const before = text.charCodeAt(at - 1);
  return l >= 0x61 && l <= 0x7a && text.charCodeAt(at + 1) === 0x3a && (opensLink(before) || before === 0x40);
}

/** Whether `.` or `..` opening a path stands at `dot` (`.\\tmp\\a.js`, `..\\lib\\b.ts`). */
function currentFolder(text: string, dot: number): boolean {
  let k = dot;
  while (k >= 0 && dot - k < 2 && text.charCodeAt(k) === 0x2e) k--;
  return k < dot && (k < 0 || opensLink(text.charCodeAt(k)));
}

/** A character of a folder's name in a Windows path: `[\w@.-]`. */
function isFolderChar(c: number): boolean {
  return isNameChar(c) || c === 0x2e || c === 0x40;
}

/** `n`, `t` or `r`: the letters of the escapes text with its escapes written out holds most. */
function isEscapeLetter(c: number): boolean {
  return c === 0x6e || c === 0x74 || c === 0x72;
}

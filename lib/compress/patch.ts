/**
 * What the final patch protects from reduction: the lines it touches and the last view of each file
 * it changes. A reducer that drops these loses what the run produced, so {@link pruneTrajectory}
 * never removes them.
 */
import type { Step } from '../transcript/index.js';

/** The files a unified diff changes, with the line numbers it touches on each side. */
export interface PatchFile {
  path: string;
  /** Line numbers of removed lines, in the old file. */
  oldLines: number[];
  /** Line numbers of added lines, in the new file. */
  newLines: number[];
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Parses a unified diff (`git diff` output, a SWE-bench submission) into the files it changes and the
 * line numbers each hunk touches. Linear in the diff; malformed hunks are skipped, never thrown on.
 *
 * @example
 * ```ts
 * parsePatch('--- a/m.py\n+++ b/m.py\n@@ -3,1 +3,1 @@\n-x = 1\n+x = 2');
 * // [{ path: 'm.py', oldLines: [3], newLines: [3] }]
 * ```
 */
export function parsePatch(diff: string): PatchFile[] {
  const files: PatchFile[] = [];
  let file: PatchFile | undefined;
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.slice(4).trim().replace(/^b\//, '');
      file = path === '/dev/null' ? undefined : { path, oldLines: [], newLines: [] };
      if (file) files.push(file);
      inHunk = false;
      continue;
    }
    if (line.startsWith('diff --git') || line.startsWith('--- ')) {
      inHunk = false;
      continue;
    }
    const h = HUNK.exec(line);
    if (h) {
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      inHunk = file !== undefined;
      continue;
    }
    if (!inHunk || !file) continue;
    if (line.startsWith('-')) file.oldLines.push(oldNo++);
    else if (line.startsWith('+')) file.newLines.push(newNo++);
    else {
      oldNo++;
      newNo++;
    }
  }
  return files;
}

/** The content lines (at least 8 characters, trimmed) a diff removes or adds. */
export function patchContentLines(diff: string): Set<string> {
  const out = new Set<string>();
  for (const line of diff.split('\n')) {
    const removed = line.startsWith('-') && !line.startsWith('---');
    const added = line.startsWith('+') && !line.startsWith('+++');
    if (!removed && !added) continue;
    const c = line.slice(1).trim();
    if (c.length >= 8) out.add(c);
  }
  return out;
}

const NUMBERED = /^\s*(\d+)(?:\t|→|:(?!\d))/;

/**
 * The 1-based line number a view line shows (`    12\t…` from `cat -n`/`nl`, `  12→…` from Read,
 * `12:…` from SWE-agent's window), or undefined for an unnumbered line.
 *
 * @example
 * ```ts
 * viewLineNumber('    12\tx = 1'); // 12
 * ```
 */
export function viewLineNumber(line: string): number | undefined {
  const m = NUMBERED.exec(line);
  return m ? Number(m[1]) : undefined;
}

/** A view line without its line-number prefix, trimmed: how lines are compared across views. */
export function lineContent(line: string): string {
  return line.replace(/^\s*\d+(?:→|\t|:(?!\d))/, '').trim();
}

/**
 * Matches paths as actions name them (`/testbed/a/b.py`, `./a/b.py`) against repository-relative
 * patch paths (`a/b.py`): the path itself or any suffix after a `/`. A set lookup per suffix, so the
 * cost is the path's length, whatever the number of patch files.
 *
 * @example
 * ```ts
 * pathMatcher(['a/b.py'])('/testbed/a/b.py'); // 'a/b.py'
 * ```
 */
export function pathMatcher(paths: Iterable<string>): (viewed: string) => string | undefined {
  const set = new Set(paths);
  return (viewed) => {
    const v = viewed.replace(/^\.\//, '');
    if (set.has(v)) return v;
    for (let at = v.indexOf('/'); at >= 0; at = v.indexOf('/', at + 1)) {
      const tail = v.slice(at + 1);
      if (set.has(tail)) return tail;
    }
    return undefined;
  };
}

/** The protection a patch gives: contents to keep anywhere, and steps whose output is kept whole. */
export interface PatchProtection {
  /** Trimmed line contents never removed: patch lines and the touched lines of each last view. */
  lines: Set<string>;
  /** Indexes (positions in `steps`) of the last view of each file the patch changes. */
  finalViews: Set<number>;
}

/**
 * Finds what a patch protects in a trajectory: the last step viewing each changed file (its output is
 * the final file state) and, in that view, the lines at the numbers the diff touches — numbered views
 * by their prefix, unnumbered ones (a plain `cat`) by position. Without a diff, the files written by
 * `Write`/`Edit` calls stand for the patch (Claude Code sessions have no submission).
 *
 * @example
 * ```ts
 * const p = patchProtection(steps, traj.outcome?.submission, viewedFile, editedFile);
 * p.finalViews.has(4); // true when step 4 is the last view of a patched file
 * ```
 */
export function patchProtection(
  steps: readonly Step[],
  diff: string | undefined,
  viewed: (s: Step) => string | undefined,
  edited: (s: Step) => string | undefined,
): PatchProtection {
  const lines = diff ? patchContentLines(diff) : new Set<string>();
  const files = diff ? parsePatch(diff) : [];
  if (!diff) {
    const seen = new Set<string>();
    for (const s of steps) {
      const path = edited(s);
      if (path && !seen.has(path)) {
        seen.add(path);
        files.push({ path, oldLines: [], newLines: [] });
      }
    }
  }
  // One backward pass finds the last view of every patched file.
  const match = pathMatcher(files.map((f) => f.path));
  const lastView = new Map<string, number>();
  for (let i = steps.length - 1; i >= 0 && lastView.size < files.length; i--) {
    const v = viewed(steps[i]!);
    const path = v === undefined ? undefined : match(v);
    if (path !== undefined && !lastView.has(path)) lastView.set(path, i);
  }
  const finalViews = new Set<number>();
  for (const f of files) {
    const last = lastView.get(f.path);
    if (last === undefined) continue;
    finalViews.add(last);
    const touched = new Set([...f.oldLines, ...f.newLines]);
    const view = (steps[last]!.observation ?? '').split('\n');
    for (let k = 0; k < view.length; k++) {
      const no = viewLineNumber(view[k]!) ?? k + 1;
      const c = lineContent(view[k]!);
      if (touched.has(no) && c) lines.add(c);
    }
  }
  return { lines, finalViews };
}

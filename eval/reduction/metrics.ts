/**
 * What a reduction must keep, measured independently of the reducer's own bookkeeping: the distinct
 * error lines (by `isErrorLine`), the lines the final patch touches as they appear in the last view of
 * each patched file, and every line of those last views (the final file state).
 */
import { isErrorLine, parsePatch, viewLineNumber } from '../../lib/compress/index.js';
import { viewOf } from '../../lib/compress/prune-rules.js';
import type { Step } from '../../lib/transcript/index.js';

export interface Kept {
  total: number;
  kept: number;
  lost: string[];
}

function content(line: string): string {
  return line.replace(/^\s*\d+(?:→|\t|:(?!\d))/, '').trim();
}

/** Every output line of the steps, by content: what survived. */
export function outputLines(steps: readonly Step[]): Set<string> {
  const out = new Set<string>();
  for (const s of steps)
    for (const text of [s.observation, s.error])
      if (text) for (const l of text.split('\n')) out.add(content(l));
  return out;
}

export function errorLines(steps: readonly Step[]): Set<string> {
  const out = new Set<string>();
  for (const s of steps)
    for (const text of [s.observation, s.error])
      if (text) for (const l of text.split('\n')) if (l.trim() && isErrorLine(l)) out.add(content(l));
  return out;
}

function samePath(viewed: string, path: string): boolean {
  const v = viewed.replace(/^\.\//, '');
  return v === path || v.endsWith(`/${path}`) || path.endsWith(`/${v}`);
}

/** The patch-touched lines and the final-state lines of the last view of each patched file. */
export function patchTargets(
  steps: readonly Step[],
  submission: string | undefined,
  editedFiles: string[],
): { touched: Set<string>; finalState: Set<string> } {
  const touched = new Set<string>();
  const finalState = new Set<string>();
  const files = submission
    ? parsePatch(submission)
    : editedFiles.map((path) => ({ path, oldLines: [], newLines: [] }));
  for (const f of files) {
    let last = -1;
    for (let i = steps.length - 1; i >= 0 && last < 0; i--) {
      const v = viewOf(steps[i]!);
      if (v !== undefined && samePath(v, f.path)) last = i;
    }
    if (last < 0) continue;
    const numbers = new Set([...f.oldLines, ...f.newLines]);
    const lines = (steps[last]!.observation ?? '').split('\n');
    for (let k = 0; k < lines.length; k++) {
      const c = content(lines[k]!);
      if (!c) continue;
      finalState.add(c);
      if (numbers.has(viewLineNumber(lines[k]!) ?? k + 1)) touched.add(c);
    }
  }
  return { touched, finalState };
}

export function survival(wanted: Set<string>, kept: Set<string>): Kept {
  const lost: string[] = [];
  let n = 0;
  for (const line of wanted) {
    if (kept.has(line)) n++;
    else if (lost.length < 3) lost.push(line.slice(0, 100));
  }
  return { total: wanted.size, kept: n, lost };
}

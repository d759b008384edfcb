/**
 * The backward pass of {@link pruneTrajectory}: what each step's future says about its output —
 * superseded by a later view or edit, re-run later, a listing whose file was opened, lines no later
 * step mentions. Every lookup is a map from a key to the nearest later step, so the pass is linear,
 * and every decision is bounded by a horizon, so a cache-friendly run decides each step once.
 */
import type { Step } from '../transcript/index.js';
import { lineContent } from './patch.js';
import { commandOf, editedFile, isListing, significantWords, viewOf, viewRange } from './prune-rules.js';

/** Why a whole output expired, with the step that made it so. */
export interface Expiry {
  reason: 'view' | 'edit' | 'rerun' | 'listing';
  by: number;
}

/** The future of each step, as far as the horizon lets it see. */
export interface Plan {
  expired: (Expiry | undefined)[];
  /** Views that show the final state of a file the run changes: kept whole. */
  finalView: boolean[];
  /** Per step, the next run of the same command (-1: none), frozen steps included. */
  rerunBy: Int32Array;
  /** Per step, per observation line: 1 when no later step (within the horizon) mentions its words. */
  unmentioned: (Uint8Array | undefined)[];
}

/** A file path as a map key: `./` dropped, so `./a.py` and `a.py` meet. */
function fileKey(path: string): string {
  return path.replace(/^\.\//, '');
}

/** The last path segment of a path or of a listing line (`drwxr-xr-x … name`, `./a/b.py`). */
function basename(path: string): string {
  const trimmed = path.trim();
  const name = trimmed.slice(trimmed.lastIndexOf(' ') + 1);
  // Trailing slashes dropped from the end (`/\/+$/` read a long run of them from each slash).
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 0x2f) end--;
  const p = name.slice(0, end);
  const slash = p.lastIndexOf('/');
  return slash >= 0 ? p.slice(slash + 1) : p;
}

/** A command as a map key: whitespace collapsed, so re-runs typed differently still meet. */
function commandKey(step: Step): string | undefined {
  const cmd = commandOf(step);
  return cmd === undefined ? undefined : `${step.tool ?? ''}\u0000${cmd.replace(/\s+/g, ' ').trim()}`;
}

/**
 * Walks the steps backwards once, building the {@link Plan}. `horizon` bounds how far ahead a step
 * may look (Infinity: the whole run); `patchFile` says whether a viewed path is one the run changes
 * (from the submission), and files edited within the horizon count as changed too.
 */
export function planPrune(
  steps: readonly Step[],
  frozenFrom: number,
  horizon: number,
  patchFile: (path: string) => boolean,
  minUselessLines: number,
): Plan {
  const n = steps.length;
  const plan: Plan = {
    expired: new Array(n),
    finalView: new Array(n).fill(false),
    unmentioned: new Array(n),
    rerunBy: new Int32Array(n).fill(-1),
  };
  const nextView = new Map<string, { at: number; range: [number, number] }>();
  const nextFullView = new Map<string, number>();
  const nextEdit = new Map<string, number>();
  const nextRun = new Map<string, number>();
  const nextViewByName = new Map<string, number>();
  const nextMention = new Map<string, number>();
  const within = (at: number | undefined, i: number): at is number => at !== undefined && at - i <= horizon;
  const firstEdit = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const e = editedFile(steps[i]!);
    if (e !== undefined && !firstEdit.has(fileKey(e))) firstEdit.set(fileKey(e), i);
  }

  for (let i = n - 1; i >= 0; i--) {
    const s = steps[i]!;
    const viewed = viewOf(s);
    const edited = editedFile(s);
    const key = viewed === undefined && edited === undefined ? commandKey(s) : undefined;
    if (key !== undefined) plan.rerunBy[i] = nextRun.get(key) ?? -1;
    if (i < frozenFrom && s.observation) {
      if (viewed !== undefined) {
        const f = fileKey(viewed);
        const range = viewRange(s);
        const later = nextView.get(f);
        const laterFull = nextFullView.get(f);
        const edit = nextEdit.get(f);
        const changed = patchFile(viewed) || within(firstEdit.get(f), i);
        if (changed && !within(later?.at, i)) plan.finalView[i] = true;
        else if (within(laterFull, i)) plan.expired[i] = { reason: 'view', by: laterFull };
        else if (later && within(later.at, i) && later.range[0] <= range[0] && later.range[1] >= range[1])
          plan.expired[i] = { reason: 'view', by: later.at };
        else if (within(edit, i)) plan.expired[i] = { reason: 'edit', by: edit };
      } else if (key !== undefined && within(nextRun.get(key), i)) {
        plan.expired[i] = { reason: 'rerun', by: nextRun.get(key)! };
      } else if (isListing(s)) {
        let by: number | undefined;
        for (const line of s.observation.split('\n')) {
          const at = nextViewByName.get(basename(line));
          if (within(at, i) && (by === undefined || at < by)) by = at;
        }
        if (by !== undefined) plan.expired[i] = { reason: 'listing', by };
      }
      if (!plan.expired[i] && !plan.finalView[i])
        plan.unmentioned[i] = unmentionedLines(s.observation, nextMention, i, horizon, minUselessLines);
    }
    if (viewed !== undefined) {
      const f = fileKey(viewed);
      const range = viewRange(s);
      nextView.set(f, { at: i, range });
      if (range[0] <= 1 && range[1] === Number.MAX_SAFE_INTEGER) nextFullView.set(f, i);
      nextViewByName.set(basename(viewed), i);
    }
    if (edited !== undefined) nextEdit.set(fileKey(edited), i);
    if (key !== undefined) nextRun.set(key, i);
    for (const w of significantWords(`${s.thought ?? ''}\n${s.action ?? ''}`)) nextMention.set(w, i);
  }
  return plan;
}

/** Flags the lines of an output whose words no later thought or action (within the horizon) uses. */
function unmentionedLines(
  text: string,
  nextMention: Map<string, number>,
  i: number,
  horizon: number,
  minLines: number,
): Uint8Array | undefined {
  const lines = text.split('\n');
  if (lines.length < minLines) return undefined;
  const flags = new Uint8Array(lines.length);
  let any = false;
  for (let k = 0; k < lines.length; k++) {
    const words = significantWords(lineContent(lines[k]!));
    // A line without words of its own (blank, a brace, dashes) goes with the line before it.
    let mentioned = words.length === 0 && (k === 0 || flags[k - 1] === 0);
    for (const w of words) {
      const at = nextMention.get(w);
      if (at !== undefined && at - i <= horizon) {
        mentioned = true;
        break;
      }
    }
    if (!mentioned) {
      flags[k] = 1;
      any = true;
    }
  }
  return any ? flags : undefined;
}

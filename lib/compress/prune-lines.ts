/**
 * The text-level half of {@link pruneTrajectory}: replacing a whole output by a note, the line rules
 * inside an output, and the attribution of saved tokens to categories. Linear in the text.
 */
import type { Step } from '../transcript/index.js';
import { marker } from './compact-rules.js';
import { isFrameLine, isNoiseLine, isPassingTestLine } from './prune-rules.js';

/** The four kinds of removal {@link pruneTrajectory} counts. */
export type PruneCategory = 'expired' | 'redundant' | 'useless' | 'masked';

/**
 * Every category, in the order savings are attributed.
 *
 * @example
 * ```ts
 * for (const c of PRUNE_CATEGORIES) console.log(c, diagnostics.saved[c]);
 * ```
 */
export const PRUNE_CATEGORIES: readonly PruneCategory[] = ['expired', 'redundant', 'useless', 'masked'];

/** Characters removed per category in one step. */
export type Removed = Record<PruneCategory, number>;
const CATEGORIES: readonly PruneCategory[] = ['expired', 'redundant', 'useless', 'masked'];
export const zero = (): Removed => ({ expired: 0, redundant: 0, useless: 0, masked: 0 });

/** Replaces a whole output by one note, keeping only the lines that must never go. */
export function wholeOutput(
  text: string,
  keeps: (line: string) => boolean,
  removed: Removed,
  category: PruneCategory,
  note: string,
  lost: string[],
  elsewhere?: Set<string>,
): string {
  lost.push(note);
  const kept: string[] = [marker(note)];
  const once = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('[rearview: ')) continue;
    if (keeps(line) && !once.has(line) && !elsewhere?.has(line)) {
      kept.push(line);
      once.add(line);
    } else removed[category] += line.length + 1;
  }
  return kept.join('\n');
}

/**
 * The output lines of a step that stays in the context: for an expired run, the last run of the
 * command. A copy of an error line may go only where the same line stays visible there.
 */
export function lineSets(
  steps: readonly Step[],
  rerunBy: Int32Array,
  horizon: number,
): (i: number) => Set<string> {
  const cache = new Map<number, Set<string>>();
  // The last run of each chain of re-runs (as far as the horizon sees), filled backwards so the walk
  // stays linear; with a finite horizon the walk is at most `horizon` long.
  const last = new Int32Array(steps.length);
  for (let k = steps.length - 1; k >= 0; k--) last[k] = rerunBy[k]! >= 0 ? last[rerunBy[k]!]! : k;
  const lastSeen = (i: number): number => {
    if (horizon === Number.POSITIVE_INFINITY) return last[i]!;
    let at = i;
    while (rerunBy[at]! >= 0 && rerunBy[at]! - i <= horizon) at = rerunBy[at]!;
    return at;
  };
  return (i) => {
    const at = lastSeen(i);
    let set = cache.get(at);
    if (!set) {
      set = new Set((steps[at]!.observation ?? '').split('\n'));
      cache.set(at, set);
    }
    return set;
  };
}

/** Line-level rules: noise, passing-test tables, repeated frames and lines, unmentioned lines. */
export function pruneLines(
  text: string,
  keeps: (line: string) => boolean,
  removed: Removed,
  unmentioned: Uint8Array | undefined,
  lost: string[],
): string {
  const lines = text.split('\n');
  const cat: (PruneCategory | undefined)[] = new Array(lines.length);
  const frames = new Set<string>();
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    if (keeps(line)) continue;
    if (isNoiseLine(line) || (k > 0 && line === lines[k - 1] && line.trim() !== '')) cat[k] = 'redundant';
    else if (
      isPassingTestLine(line) &&
      (isPassingTestLine(lines[k - 1] ?? '') || isPassingTestLine(lines[k + 1] ?? ''))
    )
      cat[k] = 'redundant';
    else if (isFrameLine(line)) {
      const frame = `${line}\n${lines[k + 1] ?? ''}`;
      if (frames.has(frame)) {
        cat[k] = 'redundant';
        if (k + 1 < lines.length && !keeps(lines[k + 1]!)) cat[++k] = 'redundant';
      } else frames.add(frame);
    } else if (unmentioned?.[k]) cat[k] = 'useless';
  }
  const out: string[] = [];
  const counts = zero();
  for (let k = 0; k < lines.length; ) {
    const c = cat[k];
    if (!c) {
      out.push(lines[k++]!);
      continue;
    }
    let j = k;
    let chars = 0;
    while (j < lines.length && cat[j] === c) chars += lines[j++]!.length + 1;
    if (j - k === 1 && chars < 40) {
      out.push(lines[k]!);
    } else {
      removed[c] += chars;
      counts[c] += j - k;
      out.push(marker(`${j - k} ${c} lines removed`));
    }
    k = j;
  }
  for (const c of CATEGORIES) if (counts[c]) lost.push(`${c}: ${counts[c]} lines`);
  return out.join('\n');
}

/** Splits the tokens a step saved across categories in proportion to the characters each removed. */
export function attribute(saved: number, removed: Removed): Removed {
  const out = zero();
  let chars = 0;
  for (const c of CATEGORIES) chars += removed[c];
  if (chars === 0) return out;
  let given = 0;
  let largest: PruneCategory = 'expired';
  for (const c of CATEGORIES) {
    out[c] = Math.floor((saved * removed[c]) / chars);
    given += out[c];
    if (removed[c] > removed[largest]) largest = c;
  }
  out[largest] += saved - given;
  return out;
}

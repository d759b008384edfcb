/**
 * The shared trajectory data sets (`sharedDataDir()`), parsed once per set, with the bytes of their
 * thoughts, actions and observations — what the throughput (MB/s) of the reduction benches is
 * measured against. Not a suite: a helper of reduction.bench.ts and snapshot.bench.ts.
 */
import { parseTrajectory, type Trajectory } from '../lib/transcript/index.js';
import { readText, sharedDataDir, walkFiles } from './harness.js';

/** The data sets and their file suffixes, in bench order. */
export const SHARED_SETS = [
  ['mini-swe-agent', '.traj.json'],
  ['claude-code-jsonl', '.jsonl'],
  ['swe-agent', '.traj'],
] as const;

/** One data set, parsed leniently. */
export interface SharedSet {
  set: string;
  trajectories: Trajectory[];
  /** UTF-8 bytes of every step's thought, action and observation. */
  bytes: number;
}

/** The named sets found under the shared data directory (none when it is absent). */
export function sharedTrajectories(sets: readonly (readonly [string, string])[]): SharedSet[] {
  const data = sharedDataDir();
  if (!data) return [];
  const encoder = new TextEncoder();
  return sets.map(([set, suffix]) => {
    const trajectories: Trajectory[] = [];
    let bytes = 0;
    for (const file of walkFiles(`${data}/${set}`, (f) => f.endsWith(suffix))) {
      const traj = parseTrajectory(readText(file), { lenient: true });
      trajectories.push(traj);
      for (const s of traj.steps)
        bytes += encoder.encode(`${s.thought ?? ''}${s.action ?? ''}${s.observation ?? ''}`).length;
    }
    return { set, trajectories, bytes };
  });
}

/**
 * One process's figures for bench/heuristic.bench.ts: the shared user turns timed against the naive port
 * in a fresh process, then after both have read every shared conversation three times. The bench runs
 * this file in several child processes because V8's optimisation choices differ from one process to the
 * next: one process's ratio can be off by 10 %, the median of several is steadier.
 *
 * `npx tsx bench/heuristic-process.ts` prints `{ fresh, mixed }`: each the ratio of the naive port's
 * median time to `heuristicReflect`'s, over 20 alternating rounds.
 */
import { naiveSeedReflect } from '../eval/heuristic/seed-naive';
import { heuristicReflect } from '../lib/heuristic/index';
import { sharedDataDir } from './harness';
import { mixedUse, userTurns } from './heuristic.bench';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function ratio(turns: ReturnType<typeof userTurns>): number {
  const fns = [() => heuristicReflect(turns), () => naiveSeedReflect(turns)];
  const wall: number[][] = [[], []];
  for (const fn of fns) fn();
  for (let r = 0; r < 20; r++)
    fns.forEach((fn, k) => {
      const t = performance.now();
      fn();
      wall[k]!.push(performance.now() - t);
    });
  return Math.round((median(wall[1]!) / median(wall[0]!)) * 1000) / 1000;
}

const dir = sharedDataDir();
if (dir) {
  const turns = userTurns(dir);
  const fresh = ratio(turns);
  mixedUse(dir);
  console.log(JSON.stringify({ fresh, mixed: ratio(turns) }));
}

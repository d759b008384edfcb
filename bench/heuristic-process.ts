/**
 * One process's figures for bench/heuristic.bench.ts: the shared user turns timed against the naive port
 * in a fresh process, then after both have read every shared conversation three times. The bench runs
 * this file in several child processes because V8's optimisation choices differ from one process to the
 * next: one process's ratio can be off by 10 %, the median of several is steadier.
 *
 * `npx tsx bench/heuristic-process.ts` prints `{ fresh, mixed, floor }`: `fresh` and `mixed` the ratio of
 * the naive port's median time to `heuristicReflect`'s, over 20 alternating rounds of the bench's own
 * `versus`; `floor` the same ratio for the bench's bare word-hash loop (`floors`), taken in between.
 */
import { sharedDataDir } from './harness';
import { bytesOf, floors, mixedUse, userTurns, versus } from './heuristic.bench';

const dir = sharedDataDir();
if (dir) {
  const turns = userTurns(dir);
  const bytes = bytesOf(turns);
  // The bench's own alternating timer, 20 rounds (no time budget beyond them).
  const ratio = () => versus('child', turns, bytes, 20, 0)[0].vsNaive as number;
  const fresh = ratio();
  // The bare word-hash loop against the naive port in this process: how fast this process runs JIT code.
  const floor = floors(turns, bytes)[0]!.vsNaive as number;
  mixedUse(dir);
  console.log(JSON.stringify({ fresh, mixed: ratio(), floor }));
}

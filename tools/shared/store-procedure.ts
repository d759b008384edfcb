/**
 * The storage benchmark's procedure, shared by the Node side (bench/store.bench.ts) and the Chromium
 * side (test/browser/store-bench.entry.ts, bundled against dist/). Type imports only: each side passes
 * its own copy of the library, so the browser bundle measures the built artifacts.
 */

import type { KeyValueStore } from '../../lib/kv/index.js';
import type { Playbook } from '../../lib/playbook/index.js';
import type { playbookStore } from '../../lib/store/index.js';

/** The figures one run produces, in milliseconds. */
export interface StoreFigures {
  saveMs: number;
  loadMs: number;
  /** `calls` applyTags calls of one tag each on a one-key-point playbook. */
  oneByOneMs: number;
  /** The same tags in one applyTags call. */
  batchedMs: number;
  /** One-tag calls on the big playbook: `sampledCalls` timed, scaled to `calls`. */
  bigOneByOneMs: number;
  sampledCalls: number;
  /** All `calls` tags in one call on the big playbook. */
  bigBatchedMs: number;
  /** Helpful count of the small playbook's key point: must be 2 × calls (nothing lost). */
  total: number;
}

/** A playbook of `size` key points spread over the five sections. */
export function bigPlaybook(size: number, empty: () => Playbook): Playbook {
  const pb = empty();
  const sections = Object.keys(pb.sections) as (keyof Playbook['sections'])[];
  const slugs = ['pat', 'mis', 'pref', 'ctx', 'oth'];
  const next = [0, 0, 0, 0, 0];
  for (let i = 0; i < size; i++) {
    const s = i % 5;
    next[s]! += 1;
    pb.sections[sections[s]!].push({
      name: `${slugs[s]}-${String(next[s]).padStart(3, '0')}`,
      text: `Key point ${i}: prefer small, typed functions and test the edge cases before refactoring.`,
      helpful: i % 7,
      harmful: i % 3,
    });
  }
  return pb;
}

/** Times one async step `runs` times; returns the median in ms. */
async function median(runs: number, step: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await step();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Runs the procedure on `kv` with the caller's `playbookStore` and `emptyPlaybook`. */
export async function runStoreProcedure(
  lib: { playbookStore: typeof playbookStore; emptyPlaybook: () => Playbook },
  kv: KeyValueStore,
  size: number,
  calls: number,
): Promise<StoreFigures> {
  const store = lib.playbookStore(kv, { onWarning: () => {}, broadcast: false });
  const pb = bigPlaybook(size, lib.emptyPlaybook);
  let version = 0;
  const saveMs = await median(3, async () => {
    // Alternate texts so every save is a real content change.
    pb.sections.OTHERS[0]!.text = `changed ${++version}`;
    await store.save('big', pb);
  });
  const loadMs = await median(3, () => store.load('big'));
  const names = Object.values(pb.sections)
    .flat()
    .map((k) => k.name);
  const tags = Array.from({ length: calls }, (_, i) => ({
    name: names[(i * 37) % names.length]!,
    tag: 'helpful',
  }));
  await store.applyDelta('small', [{ type: 'ADD', section: 'OTHERS', text: 'x' }]);
  const smallTags = tags.map(() => ({ name: 'oth-001', tag: 'helpful' }));
  const t0 = performance.now();
  for (const t of smallTags) await store.applyTags('small', [t]);
  const oneByOneMs = performance.now() - t0;
  const t1 = performance.now();
  await store.applyTags('small', smallTags);
  const batchedMs = performance.now() - t1;
  // One-by-one on the big playbook is slow: time a sample and scale it (reported as sampledCalls).
  const sampledCalls = Math.min(200, calls);
  const t2 = performance.now();
  for (const t of tags.slice(0, sampledCalls)) await store.applyTags('big', [t]);
  const bigOneByOneMs = (performance.now() - t2) * (calls / sampledCalls);
  const t3 = performance.now();
  await store.applyTags('big', tags);
  const bigBatchedMs = performance.now() - t3;
  const total = (await store.load('small')).sections.OTHERS[0]!.helpful;
  return { saveMs, loadMs, oneByOneMs, batchedMs, bigOneByOneMs, sampledCalls, bigBatchedMs, total };
}

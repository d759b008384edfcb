/**
 * Browser entry for the multi-tab test (test/runtime/store-tabs.test.ts) and the Chromium benchmark
 * (bench/store.bench.ts): bundled from dist/ and loaded by real pages with `import()`.
 */
import { emptyPlaybook, type Playbook } from 'rearview/playbook';
import { idbStore, memoryStore, type PlaybookChange, playbookStore } from 'rearview/store';

export { idbStore, memoryStore, playbookStore };

const quiet = { onWarning: () => {} };

/** Tab side of the multi-tab test: applies `n` single-tag calls, one transaction each. */
export async function tagLoop(db: string, n: number, name: string): Promise<number> {
  const store = playbookStore(idbStore(db, 'kv'), quiet);
  for (let i = 0; i < n; i++) await store.applyTags('shared', [{ name, tag: 'helpful' }]);
  return n;
}

const seen: PlaybookChange[] = [];
/** Subscribes this tab to changes of playbook `shared`; `changes()` reads what arrived. */
export function listen(db: string): void {
  playbookStore(idbStore(db, 'kv'), quiet).subscribe('shared', (c) => seen.push(c));
}
export function changes(): { remote: number; local: number; kinds: string[] } {
  return {
    remote: seen.filter((c) => c.origin === 'remote').length,
    local: seen.filter((c) => c.origin === 'local').length,
    kinds: [...new Set(seen.map((c) => c.kind))].sort(),
  };
}

export async function addKeyPoint(db: string, text: string): Promise<void> {
  await playbookStore(idbStore(db, 'kv'), quiet).applyDelta('shared', [
    { type: 'ADD', section: 'OTHERS', text },
  ]);
}

export async function seed(db: string): Promise<void> {
  const store = playbookStore(idbStore(db, 'kv'), quiet);
  await store.applyDelta('shared', [
    { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'shared key point' },
  ]);
}

export async function counts(db: string): Promise<{ helpful: number; harmful: number; replica: string }> {
  const store = playbookStore(idbStore(db, 'kv'), quiet);
  const kp = (await store.load('shared')).sections['PATTERNS & APPROACHES'][0]!;
  return { helpful: kp.helpful, harmful: kp.harmful, replica: await store.replicaId() };
}

/** A playbook of `size` key points spread over the five sections. */
export function bigPlaybook(size: number): Playbook {
  const pb = emptyPlaybook();
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

/** The storage benchmark, run in whatever runtime loads this module (real Chromium for the bench). */
export async function runStoreBench(kind: 'indexeddb' | 'memory', size = 10_000, calls = 1_000) {
  const kv = kind === 'indexeddb' ? idbStore(`bench-${Date.now()}-${Math.random()}`, 'kv') : memoryStore();
  const store = playbookStore(kv, { ...quiet, broadcast: false });
  const pb = bigPlaybook(size);
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
  const t2 = performance.now();
  for (const t of tags.slice(0, 200)) await store.applyTags('big', [t]);
  const bigOneByOneMs = (performance.now() - t2) * (calls / 200);
  const t3 = performance.now();
  await store.applyTags('big', tags);
  const bigBatchedMs = performance.now() - t3;
  const total = (await store.load('small')).sections.OTHERS[0]!.helpful;
  return { kind, size, calls, saveMs, loadMs, oneByOneMs, batchedMs, bigOneByOneMs, bigBatchedMs, total };
}

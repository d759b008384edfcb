/**
 * Browser entry for the multi-tab test (test/runtime/store-tabs.test.ts) and the Chromium benchmark
 * (bench/store.bench.ts): bundled from dist/ and loaded by real pages with `import()`.
 */

import { idbStore, memoryStore } from 'rearview/kv';
import { emptyPlaybook } from 'rearview/playbook';
import { type PlaybookChange, playbookStore } from 'rearview/store';
import { runStoreProcedure } from '../../tools/shared/store-procedure';

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

/** The storage benchmark (shared procedure), run in whatever runtime loads this module: real Chromium. */
export async function runStoreBench(kind: 'indexeddb' | 'memory', size = 10_000, calls = 1_000) {
  const kv = kind === 'indexeddb' ? idbStore(`bench-${Date.now()}-${Math.random()}`, 'kv') : memoryStore();
  return {
    kind,
    size,
    calls,
    ...(await runStoreProcedure({ playbookStore, emptyPlaybook }, kv, size, calls)),
  };
}

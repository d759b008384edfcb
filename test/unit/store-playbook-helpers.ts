/**
 * What the playbook store tests share: a clock a second apart per reading, store options, a delta's
 * ADD and a tag, the counters of a playbook by key point, and a store seeded with three key points.
 */
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import type { KeyPointTag, Playbook } from 'rearview/playbook';
import { type PlaybookStoreOptions, playbookStore } from 'rearview/store';

export function clock(start = Date.UTC(2025, 0, 1)) {
  let t = start;
  return () => {
    t += 1000;
    return new Date(t).toISOString();
  };
}

export const opts = (extra: PlaybookStoreOptions = {}): PlaybookStoreOptions => ({
  now: clock(),
  broadcast: false,
  onWarning: () => {},
  ...extra,
});

export const ADD = (section: string, text: string) => ({ type: 'ADD', section, text });
export const tag = (name: string, t: string): KeyPointTag => ({ name, tag: t });
export const counters = (pb: Playbook) =>
  Object.fromEntries(
    Object.values(pb.sections)
      .flat()
      .map((k) => [k.name, [k.helpful, k.harmful]]),
  );

export async function seeded(kv: KeyValueStore = memoryStore(), o: PlaybookStoreOptions = {}) {
  const store = playbookStore(kv, opts(o));
  await store.applyDelta('p', [
    ADD('PATTERNS & APPROACHES', 'use types'),
    ADD('PATTERNS & APPROACHES', 'write tests'),
    ADD('MISTAKES TO AVOID', 'retrying 4xx'),
  ]);
  return store;
}

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { type KeyValueStore, memoryStore, workersKvStore } from 'rearview/kv';
import { emptyPlaybook, type KeyPointTag, type Playbook } from 'rearview/playbook';
import {
  MIGRATED_REPLICA,
  mergePlaybookDocuments,
  type PlaybookChange,
  type PlaybookStoreOptions,
  playbookStore,
  syncPlaybooks,
} from 'rearview/store';
import { describe, expect, it, vi } from 'vitest';
import { fakeKvNamespace } from './store-helpers';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/store/${name}`, import.meta.url), 'utf8');

function clock(start = Date.UTC(2025, 0, 1)) {
  let t = start;
  return () => {
    t += 1000;
    return new Date(t).toISOString();
  };
}

const opts = (extra: PlaybookStoreOptions = {}): PlaybookStoreOptions => ({
  now: clock(),
  broadcast: false,
  onWarning: () => {},
  ...extra,
});

const ADD = (section: string, text: string) => ({ type: 'ADD', section, text });
const tag = (name: string, t: string): KeyPointTag => ({ name, tag: t });
const counters = (pb: Playbook) =>
  Object.fromEntries(
    Object.values(pb.sections)
      .flat()
      .map((k) => [k.name, [k.helpful, k.harmful]]),
  );

async function seeded(kv: KeyValueStore = memoryStore(), o: PlaybookStoreOptions = {}) {
  const store = playbookStore(kv, opts(o));
  await store.applyDelta('p', [
    ADD('PATTERNS & APPROACHES', 'use types'),
    ADD('PATTERNS & APPROACHES', 'write tests'),
    ADD('MISTAKES TO AVOID', 'retrying 4xx'),
  ]);
  return store;
}

describe('playbookStore basics', () => {
  it('loads an empty playbook for an unknown id', async () => {
    const store = playbookStore(memoryStore(), opts());
    expect(await store.load('nope')).toEqual(emptyPlaybook());
    expect((await store.open('nope')).exists).toBe(false);
  });

  it('applies deltas and tags (seed semantics) and lists playbooks', async () => {
    const warnings: string[] = [];
    const store = await seeded(memoryStore(), { onWarning: (m) => warnings.push(m) });
    const r = await store.applyTags('p', [
      tag('pat-001', 'helpful'),
      tag('pat-001', 'helpful'),
      tag('mis-001', 'harmful'),
      tag('pat-002', 'neutral'),
      tag('pat-999', 'helpful'),
      tag('pat-002', 'bogus'),
    ]);
    expect(r.applied).toBe(3);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'unknown key point "pat-999"',
      'unknown tag "bogus" for pat-002',
    ]);
    expect(warnings).toHaveLength(2);
    expect(counters(await store.load('p'))).toEqual({
      'pat-001': [2, 0],
      'pat-002': [0, 0],
      'mis-001': [0, 1],
    });
    expect(await store.list()).toEqual(['p']);
  });

  it('save replaces content as a new version; counters only grow', async () => {
    const store = await seeded();
    await store.applyTags('p', [tag('pat-001', 'helpful')]);
    const pb = await store.load('p');
    pb.sections['PATTERNS & APPROACHES'][0]!.text = 'use strict types';
    pb.sections['PATTERNS & APPROACHES'][0]!.helpful = 5; // raised by 4
    pb.sections['MISTAKES TO AVOID'] = []; // removed
    pb.sections.OTHERS.push({ name: 'oth-001', text: 'new', helpful: 0, harmful: 0 });
    const w = await store.save('p', pb);
    expect(w).toMatchObject({ changed: true, version: 2 });
    const back = await store.load('p');
    expect(counters(back)).toEqual({ 'pat-001': [5, 0], 'pat-002': [0, 0], 'oth-001': [0, 0] });
    expect(back.sections['PATTERNS & APPROACHES'][0]!.text).toBe('use strict types');
    // Lower counters are ignored, never applied as decrements.
    back.sections['PATTERNS & APPROACHES'][0]!.helpful = 1;
    const again = await store.save('p', back);
    expect(again.ignoredDecreases).toEqual(['pat-001']);
    expect(again.changed).toBe(false);
    expect(counters(await store.load('p'))['pat-001']).toEqual([5, 0]);
  });

  it('rejects an invalid playbook on save with a ValidationError and changes nothing', async () => {
    const store = await seeded();
    const bad = await store.load('p');
    (bad.sections.OTHERS as unknown[]).push({ name: 'oth-001', text: 1 });
    await expect(store.save('p', bad)).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await store.open('p')).version).toBe(1);
  });

  it('MERGE sums counters, including increments made later to the merged-away key point elsewhere', async () => {
    const store = await seeded();
    await store.applyTags('p', [
      tag('pat-001', 'helpful'),
      tag('pat-002', 'helpful'),
      tag('pat-002', 'harmful'),
    ]);
    const r = await store.applyDelta('p', [
      { type: 'MERGE', names: ['pat-001', 'pat-002'], text: 'types+tests' },
    ]);
    expect(r.rejected).toEqual([]);
    expect(counters(r.playbook)).toEqual({ 'pat-001': [2, 1], 'mis-001': [0, 0] });
  });

  it('subscribe fires for local changes until unsubscribed', async () => {
    const store = await seeded();
    const seen: PlaybookChange[] = [];
    const off = store.subscribe('p', (c) => seen.push(c));
    await store.applyTags('p', [tag('pat-001', 'helpful')]);
    await store.applyDelta('p', [ADD('OTHERS', 'x')]);
    off();
    await store.applyTags('p', [tag('pat-001', 'helpful')]);
    expect(seen.map((c) => [c.kind, c.version, c.origin])).toEqual([
      ['tags', 1, 'local'],
      ['delta', 2, 'local'],
    ]);
  });

  it('two PlaybookStore objects on one memory store share the replica slot and lose nothing', async () => {
    const kv = memoryStore();
    const a = await seeded(kv);
    const b = playbookStore(kv, opts());
    await Promise.all([
      ...Array.from({ length: 100 }, () => a.applyTags('p', [tag('pat-001', 'helpful')])),
      ...Array.from({ length: 100 }, () => b.applyTags('p', [tag('pat-001', 'helpful')])),
    ]);
    expect(await a.replicaId()).toBe(await b.replicaId());
    expect(counters(await a.load('p'))['pat-001']).toEqual([200, 0]);
  });
});

describe('replicas and G-counters', () => {
  it('Workers KV: writers on one namespace each own a counter record, so last-write-wins drops nothing', async () => {
    const ns = fakeKvNamespace();
    const a = await seeded(workersKvStore(ns), { replicaId: 'colo-a' });
    const b = playbookStore(workersKvStore(ns), opts({ replicaId: 'colo-b' }));
    await Promise.all([
      ...Array.from({ length: 60 }, () => a.applyTags('p', [tag('pat-001', 'helpful')])),
      ...Array.from({ length: 40 }, () =>
        b.applyTags('p', [tag('pat-001', 'helpful'), tag('mis-001', 'harmful')]),
      ),
    ]);
    expect(counters(await b.load('p'))).toMatchObject({ 'pat-001': [100, 0], 'mis-001': [0, 40] });
    const writers = new Set(
      [...ns.data.keys()].filter((k) => k.includes(':c:')).map((k) => k.replace(/:[0-9a-f]{2}$/, '')),
    );
    expect([...writers].sort()).toEqual(['pb:p:c:colo-a', 'pb:p:c:colo-b']);
  });

  it('two diverged replicas converge to the sum of their increments whatever the sync order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.constantFrom(0, 1, 2), fc.constantFrom('pat-001', 'pat-002', 'mis-001'), fc.boolean()),
          {
            maxLength: 30,
          },
        ),
        fc.array(fc.tuple(fc.constantFrom(0, 1, 2), fc.constantFrom(0, 1, 2)), {
          minLength: 2,
          maxLength: 6,
        }),
        async (increments, syncs) => {
          const origin = await seeded(memoryStore(), { replicaId: 'r0' });
          const doc = await origin.exportJson('p');
          const replicas = [origin];
          for (const r of ['r1', 'r2']) {
            const s = playbookStore(memoryStore(), opts({ replicaId: r }));
            await s.importJson(doc);
            replicas.push(s);
          }
          const expected: Record<string, [number, number]> = {
            'pat-001': [0, 0],
            'pat-002': [0, 0],
            'mis-001': [0, 0],
          };
          for (const [r, name, helpful] of increments) {
            await replicas[r]!.applyTags('p', [tag(name, helpful ? 'helpful' : 'harmful')]);
            expected[name]![helpful ? 0 : 1]++;
          }
          // Random pairwise syncs, then a full round so every replica has heard from every other.
          for (const [x, y] of syncs) if (x !== y) await syncPlaybooks(replicas[x]!, replicas[y]!, 'p');
          await syncPlaybooks(replicas[0]!, replicas[1]!, 'p');
          await syncPlaybooks(replicas[1]!, replicas[2]!, 'p');
          await syncPlaybooks(replicas[0]!, replicas[1]!, 'p');
          for (const s of replicas) expect(counters(await s.load('p'))).toEqual(expected);
          // Syncing again changes nothing (idempotent).
          await syncPlaybooks(replicas[0]!, replicas[2]!, 'p');
          expect(counters(await replicas[2]!.load('p'))).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('mergePlaybookDocuments is commutative and idempotent; content is last-writer-wins with tombstones', async () => {
    const a = await seeded(memoryStore(), { replicaId: 'a' });
    const b = playbookStore(memoryStore(), opts({ replicaId: 'b', now: clock(Date.UTC(2026, 0, 1)) }));
    await b.importJson(await a.exportJson('p'));
    await a.applyDelta('p', [{ type: 'UPDATE', name: 'pat-001', text: 'from a' }]);
    await b.applyDelta('p', [{ type: 'REMOVE', name: 'pat-002' }, ADD('OTHERS', 'from b')]);
    await a.applyTags('p', [tag('pat-001', 'helpful')]);
    await b.applyTags('p', [tag('pat-001', 'helpful'), tag('oth-001', 'harmful')]);
    const da = await a.exportDocument('p');
    const db = await b.exportDocument('p');
    const ab = mergePlaybookDocuments(da, db);
    const ba = mergePlaybookDocuments(db, da);
    const strip = ({ id: _i, version: _v, ...rest }: typeof ab) => rest;
    expect(strip(ab)).toEqual(strip(ba));
    expect(strip(mergePlaybookDocuments(ab, ab))).toEqual(strip(ab));
    await syncPlaybooks(a, b, 'p');
    const pa = await a.load('p');
    expect(pa).toEqual(await b.load('p'));
    expect(pa.sections['PATTERNS & APPROACHES'].map((k) => [k.name, k.text, k.helpful])).toEqual([
      ['pat-001', 'from a', 2],
    ]);
    expect(pa.sections.OTHERS.map((k) => [k.name, k.harmful])).toEqual([['oth-001', 1]]);
  });
});

describe('change log, history and revert', () => {
  it('logs every change (who/what/when) and reverts to any retained version without losing later history', async () => {
    const store = await seeded(memoryStore(), { actor: 'alice', maxVersions: 5 });
    await store.applyTags('p', [tag('pat-001', 'helpful')]);
    await store.applyDelta('p', [{ type: 'UPDATE', name: 'pat-001', text: 'v2 text' }]);
    await store.applyDelta('p', [{ type: 'REMOVE', name: 'pat-002' }]);
    const before = await store.history('p');
    expect(before.map((e) => (e.type === 'version' ? `${e.kind}@${e.version}` : 'tags'))).toEqual([
      'delta@1',
      'tags',
      'delta@2',
      'delta@3',
    ]);
    expect(before[0]).toMatchObject({ actor: 'alice', at: expect.stringMatching(/^2025-01-01T/), size: 3 });
    expect(before[1]).toMatchObject({ type: 'tags', increments: { 'pat-001': { helpful: 1, harmful: 0 } } });

    const r = await store.revert('p', 1);
    expect(r).toMatchObject({ changed: true, version: 4 });
    const pb = await store.load('p');
    expect(pb.sections['PATTERNS & APPROACHES'].map((k) => [k.name, k.text, k.helpful])).toEqual([
      ['pat-001', 'use types', 1], // counters are evidence: not rolled back
      ['pat-002', 'write tests', 0],
    ]);
    const after = await store.history('p');
    expect(after.at(-1)).toMatchObject({ type: 'version', kind: 'revert', revertedTo: 1, version: 4 });
    expect(after).toHaveLength(5);
    // Reverting forward again restores version 3's content.
    await store.revert('p', 3);
    expect((await store.load('p')).sections['PATTERNS & APPROACHES'].map((k) => k.text)).toEqual(['v2 text']);
    // Ids stay allocated after a revert: the next ADD does not reuse pat-002.
    const added = await store.applyDelta('p', [ADD('PATTERNS & APPROACHES', 'fresh')]);
    expect(added.applied[0]).toMatchObject({ name: 'pat-003' });
  });

  it('keeps a bounded log and refuses to revert to an evicted version', async () => {
    const store = await seeded(memoryStore(), { maxVersions: 3 });
    for (let i = 0; i < 5; i++) await store.applyDelta('p', [ADD('OTHERS', `n${i}`)]);
    const versions = (await store.history('p')).filter((e) => e.type === 'version').map((e) => e.version);
    expect(versions).toEqual([4, 5, 6]);
    expect(await store.kv.keys('pb:p:v:')).toHaveLength(3);
    await expect(store.revert('p', 2)).rejects.toMatchObject({ code: 'store_not_found' });
  });
});

describe('validation, quarantine and migration', () => {
  it('quarantines a corrupt key point, reports store_corrupt, and loads the others', async () => {
    const kv = memoryStore();
    const onCorrupt = vi.fn();
    const store = await seeded(kv, { onCorrupt });
    await kv.update<{ sections: Record<string, unknown[]> }>('pb:p:doc', (d) => {
      d!.sections['PATTERNS & APPROACHES']![1] = { name: 'pat-002', text: 42 };
      return d!;
    });
    const opened = await store.open('p');
    expect(opened.diagnostics.map((e) => e.code)).toEqual(['store_corrupt']);
    expect(onCorrupt).toHaveBeenCalledOnce();
    expect(Object.keys(counters(opened.playbook))).toEqual(['pat-001', 'mis-001']);
    const q = await kv.keys('quarantine:');
    expect(q).toHaveLength(1);
    expect(await kv.get(q[0]!)).toMatchObject({
      key: 'pb:p:doc',
      error: { code: 'store_corrupt' },
      value: { name: 'pat-002', text: 42 },
    });
    // Moved, not copied: a second load is clean.
    expect((await store.open('p')).diagnostics).toEqual([]);
  });

  it('quarantines a corrupt document and recovers the newest valid version', async () => {
    const kv = memoryStore();
    const store = await seeded(kv);
    await store.applyDelta('p', [ADD('OTHERS', 'second')]);
    await kv.set('pb:p:doc', { schema: 2, sections: 'garbage' });
    const opened = await store.open('p');
    expect(opened.diagnostics[0]).toMatchObject({ code: 'store_corrupt', key: 'pb:p:doc' });
    expect(opened.playbook.sections.OTHERS.map((k) => k.text)).toEqual(['second']);
    expect(await kv.keys('quarantine:pb:p:doc')).toHaveLength(1);
  });

  it('quarantines a corrupt counter record while the other replicas still count', async () => {
    const kv = memoryStore();
    const a = await seeded(kv, { replicaId: 'a' });
    const b = playbookStore(kv, opts({ replicaId: 'b' }));
    await a.applyTags('p', [tag('pat-001', 'helpful')]);
    await b.applyTags('p', [tag('pat-001', 'helpful')]);
    const [key] = await kv.keys('pb:p:c:b:');
    await kv.set(key!, { replica: 'b', counts: { 'pat-001': { helpful: -3 } } });
    const opened = await a.open('p');
    expect(opened.diagnostics).toHaveLength(1);
    expect(counters(opened.playbook)['pat-001']).toEqual([1, 0]);
    expect(await kv.keys(`quarantine:${key}`)).toHaveLength(1);
  });

  it('migrates seed 001 playbook.json (v0) forward, keeping legacy kpt_ ids and their counters', async () => {
    const kv = memoryStore({ initial: [['pb:legacy:doc', JSON.parse(fixture('playbook-v0.json'))]] });
    const warnings: string[] = [];
    const store = playbookStore(kv, opts({ onWarning: (m) => warnings.push(m) }));
    const opened = await store.open('legacy');
    expect(opened.legacyNames).toEqual(['kpt_001', 'kpt_002', 'kpt_003']);
    expect(counters(opened.playbook)).toEqual({
      kpt_001: [5, 1],
      'pat-002': [3, 0],
      kpt_002: [2, 0],
      'ctx-001': [0, 0],
      kpt_003: [1, 2],
    });
    expect(opened.playbook.sections.OTHERS.map((k) => k.name)).toEqual(['kpt_003']);
    expect(warnings[0]).toContain('LEGACY NOTES');
    expect(await kv.get('pb:legacy:doc')).toMatchObject({ schema: 2, version: 1 });
    const slots = await kv.keys(`pb:legacy:c:${encodeURIComponent(MIGRATED_REPLICA)}:`);
    expect(slots.length).toBeGreaterThan(0);
    expect((await kv.get<{ replica: string }>(slots[0]!))?.replica).toBe(MIGRATED_REPLICA);
    expect((await store.history('legacy'))[0]).toMatchObject({ kind: 'migrate', migratedFrom: 0 });
    // Cited legacy ids still take tags; new ids continue above the high-water mark.
    await store.applyTags('legacy', [tag('kpt_001', 'helpful')]);
    const added = await store.applyDelta('legacy', [ADD('PATTERNS & APPROACHES', 'new')]);
    expect(added.applied[0]).toMatchObject({ name: 'pat-003' });
    expect(counters(added.playbook).kpt_001).toEqual([6, 1]);
  });

  it('migrates a schema-1 document (fixture) forward', async () => {
    const kv = memoryStore({ initial: [['pb:team:doc', JSON.parse(fixture('playbook-v1.json'))]] });
    const store = playbookStore(kv, opts());
    const pb = await store.load('team');
    expect(counters(pb)).toEqual({
      'pat-001': [4, 1],
      kpt_007: [1, 0],
      'mis-003': [0, 0],
      'pref-001': [2, 0],
    });
    expect(pb.sections['USER PREFERENCES'][0]).toMatchObject({ source: { session: 's1' } });
    const added = await store.applyDelta('team', [
      ADD('PATTERNS & APPROACHES', 'x'),
      ADD('MISTAKES TO AVOID', 'y'),
    ]);
    expect(added.applied.map((o) => (o as { name: string }).name)).toEqual(['pat-006', 'mis-004']);
  });

  it('two devices migrating the same legacy file do not double its counters when they sync', async () => {
    const raw = fixture('playbook-v0.json');
    const a = playbookStore(memoryStore(), opts({ replicaId: 'a' }));
    const b = playbookStore(memoryStore(), opts({ replicaId: 'b' }));
    await a.importJson(raw, { id: 'legacy' });
    await b.importJson(raw, { id: 'legacy' });
    await a.applyTags('legacy', [tag('kpt_001', 'helpful')]);
    await syncPlaybooks(a, b, 'legacy');
    expect(counters(await b.load('legacy')).kpt_001).toEqual([6, 1]);
  });

  it('an unmigratable document is quarantined, not dropped', async () => {
    const kv = memoryStore({ initial: [['pb:x:doc', { sections: { OTHERS: [{ name: 5 }] } }]] });
    const opened = await playbookStore(kv, opts()).open('x');
    expect(opened.exists).toBe(false);
    expect(opened.diagnostics[0]?.code).toBe('store_corrupt');
    expect(await kv.keys('quarantine:pb:x:doc')).toHaveLength(1);
  });
});

describe('import and export', () => {
  it('round-trips through exportJson/importJson', async () => {
    const a = await seeded();
    await a.applyTags('p', [tag('pat-001', 'helpful')]);
    const b = playbookStore(memoryStore(), opts());
    const r = await b.importJson(await a.exportJson('p'));
    expect(r).toMatchObject({ id: 'p', changed: true });
    expect(await b.load('p')).toEqual(await a.load('p'));
  });

  it('malformed JSON gives a located validation error and changes nothing', async () => {
    const store = await seeded();
    const before = await store.exportJson('p');
    const keys = await store.kv.keys();
    const broken = before.replace('"use types"', '"use types",,');
    const err = await store.importJson(broken).catch((e) => e);
    expect(err).toMatchObject({ code: 'validation_failed' });
    const line = before.split('\n').findIndex((l) => l.includes('"use types"')) + 1;
    expect(err.message).toContain(`line ${line}, column`);
    const schemaErr = await store
      .importJson(before.replace('"text": "use types"', '"text": 7'))
      .catch((e) => e);
    expect(schemaErr.message).toMatch(/sections\.PATTERNS & APPROACHES\.0\.text/);
    await expect(store.importJson('{"hello": 1}')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(store.importJson(fixture('playbook-v0.json'))).rejects.toThrow(/id/);
    expect(await store.kv.keys()).toEqual(keys);
    expect(await store.exportJson('p')).toBe(before);
  });
});

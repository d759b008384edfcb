/**
 * The playbook store (rearview/store): loading, deltas and tags, saving, merging, subscriptions;
 * replicas whose G-counters converge whatever the sync order (memory and Workers KV); the change log,
 * history and revert.
 */
import fc from 'fast-check';
import { memoryStore, workersKvStore } from 'rearview/kv';
import { emptyPlaybook } from 'rearview/playbook';
import { mergePlaybookDocuments, type PlaybookChange, playbookStore, syncPlaybooks } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { fakeKvNamespace } from './store-helpers';
import { ADD, clock, counters, opts, seeded, tag } from './store-playbook-helpers';

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

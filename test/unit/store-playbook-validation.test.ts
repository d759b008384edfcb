/**
 * The playbook store (rearview/store) on what it cannot trust: corrupt key points, documents and
 * counter records quarantined, older schemas (test/fixtures/store) migrated forward, and import and
 * export.
 */
import { readFileSync } from 'node:fs';
import { memoryStore } from 'rearview/kv';
import { MIGRATED_REPLICA, playbookStore, syncPlaybooks } from 'rearview/store';
import { describe, expect, it, vi } from 'vitest';
import { ADD, counters, opts, seeded, tag } from './store-playbook-helpers';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/store/${name}`, import.meta.url), 'utf8');

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

import { parseJsonLocated } from 'rearview/core';
import { memoryEntryStore, memoryStore } from 'rearview/kv';
import { applyDelta, applyKeyPointTags, emptyPlaybook } from 'rearview/playbook';
import { mergePlaybookDocuments, playbookStore, syncPlaybooks } from 'rearview/store';
import { check, checkEqual, checkRejects } from '../check';
import type { ConformanceCase } from '../suite';

/** A clock that ticks one second per call, so outputs are identical everywhere. */
function clock() {
  let t = Date.UTC(2025, 0, 1);
  return () => {
    t += 1000;
    return new Date(t).toISOString();
  };
}

const quiet = { broadcast: false as const, onWarning: () => {} };

/** Stores: memoryStore and PlaybookStore on it, applyDelta and G-counter merging. Deterministic outputs. */
export const storeCases: ConformanceCase[] = [
  {
    name: 'store/memoryStore basics and transact',
    async run() {
      const s = memoryStore();
      await s.setMany([
        ['b', { n: 1 }],
        ['a', [1, 'x']],
      ]);
      await Promise.all(Array.from({ length: 20 }, () => s.update<number>('n', (v) => (v ?? 0) + 1)));
      const r = await s.transact(['n'], ([n]) => ({
        writes: [['log:1', { n }]],
        deletes: ['a'],
        result: n,
      }));
      await checkRejects(() => s.set('bad', { f: () => 1 }), 'store_invalid_value', 'function value');
      const out = { keys: await s.keys(), values: await s.getMany(['b', 'n', 'log:1', 'a']), r };
      checkEqual(out.values, [{ n: 1 }, 20, { n: 20 }, undefined], 'values');
      return out;
    },
  },
  {
    name: 'store/applyDelta and applyKeyPointTags (seed 001)',
    run() {
      const now = () => '2025-01-01T00:00:00.000Z';
      const base = emptyPlaybook();
      base.sections.OTHERS.push({ name: 'kpt_001', text: 'legacy', helpful: 1, harmful: 0 });
      const d = applyDelta(
        base,
        [
          { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'a' },
          { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'b' },
          { type: 'MERGE', names: ['pat-001', 'pat-002'], text: 'ab', into: 'pat-002' },
          { type: 'UPDATE', name: 'pat-001', text: 'gone' },
          { type: 'REMOVE', name: 'kpt_001' },
        ],
        { now },
      );
      applyKeyPointTags(
        d.playbook,
        [
          { name: 'pat-002', tag: 'helpful' },
          { name: 'pat-002', tag: 'helpful' },
          { name: 'pat-002', tag: 'harmful' },
          { name: 'pat-002', tag: 'neutral' },
          { name: 'pat-001', tag: 'helpful' },
        ],
        { onWarning: () => {} },
      );
      checkEqual(
        d.playbook.sections['PATTERNS & APPROACHES'][0],
        {
          name: 'pat-002',
          text: 'ab',
          helpful: 2,
          harmful: 1,
          createdAt: now(),
          updatedAt: now(),
        },
        'merged key point',
      );
      check(d.rejected.length === 1, 'the UPDATE of a merged-away key point is rejected');
      return d;
    },
  },
  {
    name: 'store/playbookStore on memoryStore: tags, delta, history, revert, export',
    async run() {
      const store = playbookStore(memoryStore(), { ...quiet, replicaId: 'r1', now: clock() });
      await store.applyDelta('p', [
        { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'use types' },
        { type: 'ADD', section: 'MISTAKES TO AVOID', text: 'retrying 4xx' },
      ]);
      const tags = await store.applyTags('p', [
        { name: 'pat-001', tag: 'helpful' },
        { name: 'mis-001', tag: 'harmful' },
        { name: 'pat-404', tag: 'helpful' },
      ]);
      await store.applyDelta('p', [{ type: 'UPDATE', name: 'pat-001', text: 'use strict types' }]);
      await store.revert('p', 1);
      const pb = await store.load('p');
      checkEqual(pb.sections['PATTERNS & APPROACHES'][0]?.text, 'use types', 'reverted text');
      checkEqual(pb.sections['PATTERNS & APPROACHES'][0]?.helpful, 1, 'counters not rolled back');
      await checkRejects(() => store.importJson('{"format": '), 'validation_failed', 'malformed import');
      let located = '';
      try {
        parseJsonLocated('{\n  "a": [1,\n  ]\n}');
      } catch (err) {
        located = (err as Error).message;
      }
      return {
        tags,
        pb,
        history: await store.history('p'),
        doc: JSON.parse(await store.exportJson('p')),
        located,
      };
    },
  },
  {
    name: 'store/G-counter replicas converge to the sum',
    async run() {
      const a = playbookStore(memoryStore(), { ...quiet, replicaId: 'a', now: clock() });
      await a.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'shared' }]);
      const b = playbookStore(memoryStore(), { ...quiet, replicaId: 'b', now: clock() });
      await b.importJson(await a.exportJson('p'));
      for (let i = 0; i < 3; i++) await a.applyTags('p', [{ name: 'oth-001', tag: 'helpful' }]);
      for (let i = 0; i < 4; i++) await b.applyTags('p', [{ name: 'oth-001', tag: 'helpful' }]);
      const merged = mergePlaybookDocuments(await a.exportDocument('p'), await b.exportDocument('p'));
      await syncPlaybooks(a, b, 'p');
      await syncPlaybooks(b, a, 'p');
      const pa = await a.load('p');
      checkEqual(pa, await b.load('p'), 'replicas equal');
      checkEqual(pa.sections.OTHERS[0]?.helpful, 7, 'sum of both replicas');
      return { counters: merged.counters, pa };
    },
  },
  {
    name: 'store/memoryEntryStore bounded log',
    async run() {
      const mem = memoryEntryStore<{ k: number }>(memoryStore(), {
        namespace: 'x',
        maxEntries: 3,
        now: clock(),
      });
      await mem.append([{ k: 1 }, { k: 2 }]);
      await mem.append([{ k: 3 }, { k: 4 }]);
      const list = await mem.list();
      checkEqual(
        list.map((e) => e.value.k),
        [2, 3, 4],
        'oldest evicted',
      );
      return list;
    },
  },
];

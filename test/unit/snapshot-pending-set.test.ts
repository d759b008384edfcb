/**
 * The `pending` set (eval/snapshot/sets/pending): blind readers' labels of next-action and blocker items,
 * kept as references only. Every row still points at an entry the snapshot reads from its file (same
 * message, same text), so `eval/snapshot/pending.ts` scores what the readers read; the labels are the
 * rules' words; a second reading is on a sample of each round.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readSnapshotSource } from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';

const set = resolve(import.meta.dirname, '../../eval/snapshot/sets/pending');
const data = resolve(import.meta.dirname, '../../../shared/data');
const read = (name: string) =>
  readFileSync(join(set, name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const labels = read('labels.jsonl');
const blockers = read('blockers.jsonl');
const fixed = read('fixed.jsonl');
const fixedRuns = read('fixed-runs.jsonl');
const acted = read('acted.jsonl');
const actedRuns = read('acted-runs.jsonl');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the pending set', () => {
  it('labels every item by the rules, with distinct ids and a second reading on a sample', () => {
    for (const r of labels) expect(['pending', 'not-pending', 'not-a-step', 'unclear']).toContain(r.label);
    for (const r of [...blockers, ...fixed, ...fixedRuns, ...acted, ...actedRuns])
      expect(['open', 'resolved', 'not-a-problem', 'unclear']).toContain(r.label);
    for (const r of [...acted, ...actedRuns]) expect(['acted', 'not-acted']).toContain(r.group);
    expect(acted.filter((r) => r.second !== undefined).length).toBeGreaterThan(10);
    for (const r of [...fixed, ...fixedRuns]) expect(['fixed', 'unfixed']).toContain(r.group);
    expect(new Set(fixed.map((r) => r.id)).size).toBe(fixed.length);
    expect(new Set(labels.map((r) => r.id)).size).toBe(labels.length);
    for (const round of [1, 2, 3])
      expect(labels.filter((r) => r.round === round && r.second !== undefined).length).toBeGreaterThan(10);
    expect(blockers.filter((r) => r.second !== undefined).length).toBeGreaterThan(10);
    expect(fixed.filter((r) => r.second !== undefined).length).toBeGreaterThan(10);
    // References only: no row carries the item's text.
    for (const r of [...labels, ...blockers, ...fixed, ...fixedRuns])
      expect(Object.keys(r)).not.toContain('text');
  });

  it.skipIf(!existsSync(data))("points at entries the snapshot still reads from each row's file", () => {
    const byFile = new Map<string, Set<string>>();
    for (const r of [...labels, ...blockers, ...fixed, ...fixedRuns, ...acted, ...actedRuns]) {
      const file = String(r.file);
      let found = byFile.get(file);
      if (!found) {
        const entries = readSnapshotSource(readFileSync(join(data, file), 'utf8')).input.entries ?? [];
        found = new Set(entries.map((e) => `${e.sourceIteration}#${sha(String(e.value).trim())}`));
        byFile.set(file, found);
      }
      expect(found.has(`${r.message}#${r.sha256}`), `${file} message ${r.message}`).toBe(true);
    }
  });

  it.skipIf(!existsSync(data))('the failed calls drawn as made good are the entries of scope `fixed`', () => {
    for (const r of [...fixed, ...fixedRuns]) {
      const entries =
        readSnapshotSource(readFileSync(join(data, String(r.file)), 'utf8')).input.entries ?? [];
      const e = entries.find(
        (x) => x.sourceIteration === r.message && sha(String(x.value).trim()) === r.sha256,
      );
      expect(e?.scope, `${r.file} message ${r.message}`).toBe(r.group === 'fixed' ? 'fixed' : 'observation');
    }
    for (const r of acted) {
      const entries =
        readSnapshotSource(readFileSync(join(data, String(r.file)), 'utf8')).input.entries ?? [];
      const e = entries.find(
        (x) => x.sourceIteration === r.message && sha(String(x.value).trim()) === r.sha256,
      );
      expect(e?.scope === 'fixed', `${r.file} message ${r.message}`).toBe(r.group === 'acted');
    }
  });
});

/**
 * The sets of Claude Code console copies of authors in no folder of the shared data
 * (eval/heuristic/sets/fresh-console*, eval/snapshot/sets/fresh-console*-notes,
 * eval/failures/sets/fix-audit-fresh): what the repository holds of them is checked here (the copies
 * are not in it): well-formed rows, each from a copy of the manifest, authors none of the shared data's,
 * second readings of labelled rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRows } from '../../eval/heuristic/rows';
import { readLabels } from '../../eval/snapshot/score';
import { fixText } from '../../lib/failures/index';
import { entriesOf, expectLabelled, type Row, sharedOwners } from './unseen-sets-shared';

/**
 * `fresh-console` (eval/heuristic/sets/fresh-console/) and `fix-audit-fresh`
 * (eval/failures/sets/fix-audit-fresh/): Claude Code console transcripts of 45 authors in no folder
 * of the shared data, found by the index's text search (so a copy is named by its index id, not a
 * repository), their people's turns labelled blind and the fixes the code credits on them read blind.
 */
/** How `fixText` opens a `read-first` fix ("first read the file with `Read`"), read from it. */
const READ_FIRST_WORDS = fixText([{ kind: 'read-first', values: [''] }]).split('`')[0]!;

describe('the fresh-console sets', () => {
  const fcRows = readRows<Row>('sets/fresh-console/labels.jsonl');
  const fcSecond = readRows<{ n: number; label: string }>('sets/fresh-console/labels-second.jsonl');
  const fcCopies = readRows<{ file: string; index_id: string; author: string; sha256: string }>(
    'sets/fresh-console/files.jsonl',
  );
  const fixSet = join(import.meta.dirname, '../../eval/failures/sets/fix-audit-fresh');
  const lines = (name: string) =>
    readFileSync(join(fixSet, name), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');

  it('label every extracted turn once, with a hash and no text', () => {
    expect(fcRows.length).toBe(211);
    expectLabelled(fcRows, 'fresh-console');
    const counts: Record<string, number> = {};
    for (const r of fcRows) for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual({ correction: 40, friction: 13, preference: 10, approval: 1 });
    expect(new Set(fcRows.map((r) => r.author)).size).toBe(45);
  });

  it('name copies of the manifest by index id, no author of the shared data', () => {
    expect(fcCopies.length).toBe(60);
    const files = new Map(fcCopies.map((c) => [c.file, c]));
    for (const c of fcCopies) {
      expect(c.file).toBe(`${c.index_id}.md`);
      expect(c.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    for (const r of fcRows) expect(files.get(r.source)?.author, r.source).toBe(r.author);
    const shared = sharedOwners();
    expect(shared.size).toBeGreaterThan(50);
    // Authors here are home-folder names (the index gives no repository): none may be a shared owner's
    // name; the README says how the names were searched in the shared data beyond that.
    for (const c of fcCopies) expect(shared.has(c.author.toLowerCase()), c.author).toBe(false);
  });

  it('have second readings of labelled rows, and report their agreement', () => {
    const byN = new Map(fcRows.map((r) => [r.n, r]));
    expect(fcSecond.length).toBe(68);
    for (const s of fcSecond) expect(byN.has(s.n)).toBe(true);
    expect(fcSecond.filter((s) => byN.get(s.n)!.label === s.label).length).toBe(67);
  });

  it('hold agent sentences of the copies, each labelled, and a second reading of 60', () => {
    const entries = entriesOf('fresh-console-notes');
    expect(entries.length).toBe(357);
    const files = new Map(fcCopies.map((c) => [`console/${c.file}`, c.author]));
    for (const e of entries) expect(files.get(e.file), e.file).toBe(e.author);
    const labels = readLabels('sets/fresh-console-notes/labels.tsv');
    const again = readLabels('sets/fresh-console-notes/labels-second.tsv');
    expect(labels.size).toBe(357);
    for (const e of entries) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(60);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(60);
  });

  it('read every credited fix of the copies twice, and match the causal ones', () => {
    const cases = lines('cases.jsonl').map(
      (l) => JSON.parse(l) as { id: string; file: string; sha256: string; change: string },
    );
    expect(cases.length).toBe(33);
    const copies = new Map(fcCopies.map((c) => [c.file, c.sha256]));
    for (const c of cases) expect(copies.get(c.file), c.file).toBe(c.sha256);
    const ids = cases.map((c) => c.id);
    const first = lines('labels.tsv').map((l) => l.split('\t'));
    const second = lines('labels-second.tsv').map((l) => l.split('\t'));
    expect(first.map((l) => l[0])).toEqual(ids);
    expect(second.map((l) => l[0])).toEqual(ids);
    for (const l of [...first, ...second]) {
      expect(['yes', 'no', 'unclear']).toContain(l[1]);
      expect(['call', 'between', 'both', 'neither', 'unclear']).toContain(l[2]);
    }
    // A credit naming the file read first claims a step between the calls: matched on `between_what`.
    const readFirst = new Set(cases.filter((c) => c.change.startsWith(READ_FIRST_WORDS)).map((c) => c.id));
    const causal = first
      .filter(
        (l) =>
          l[1] === 'yes' &&
          (readFirst.has(l[0]!) ? l[2] === 'between' || l[2] === 'both' : l[2] === 'call' || l[2] === 'both'),
      )
      .map((l) => l[0]);
    const match = lines('match.tsv').map((l) => l.split('\t'));
    expect(match.map((l) => l[0]).sort()).toEqual([...causal].sort());
    expect(match.filter((l) => l[1] === 'same').length).toBe(9);
  });
});

/**
 * `fresh-console-2` (eval/heuristic/sets/fresh-console-2/) and `fresh-console-2-notes`: Claude Code
 * console copies of 38 more authors, their people's turns and agent sentences labelled blind.
 */
describe('the fresh-console-2 sets', () => {
  const cRows = readRows<Row>('sets/fresh-console-2/labels.jsonl');
  const cSecond = readRows<{ n: number; label: string }>('sets/fresh-console-2/labels-second.jsonl');
  const cCopies = readRows<{ file: string; index_id: string; author: string; sha256: string }>(
    'sets/fresh-console-2/files.jsonl',
  );

  it('label every read turn once, each from a copy of the manifest, whose authors are not the shared data’s', () => {
    expect(cRows.length).toBe(112);
    expectLabelled(cRows, 'fresh-console-2');
    const counts: Record<string, number> = {};
    for (const r of cRows) for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual({ correction: 20, preference: 4, friction: 4, approval: 2 });
    expect(cCopies.length).toBe(39);
    expect(new Set(cCopies.map((c) => c.author)).size).toBe(38);
    const files = new Map(cCopies.map((c) => [c.file, c]));
    for (const c of cCopies) expect(c.file).toBe(`${c.index_id}.md`);
    for (const r of cRows) expect(files.get(r.source)?.author, r.source).toBe(r.author);
    const shared = sharedOwners();
    for (const c of cCopies) expect(shared.has(c.author.toLowerCase()), c.author).toBe(false);
    const byN = new Map(cRows.map((r) => [r.n, r]));
    expect(cSecond.length).toBe(38);
    expect(cSecond.filter((s) => byN.get(s.n)?.label === s.label).length).toBe(37);
  });

  it('hold agent sentences of the copies, each labelled, a second reading of every third, and the folded calls apart', () => {
    const entries = entriesOf('fresh-console-2-notes');
    expect(entries.length).toBe(283);
    const files = new Map(cCopies.map((c) => [`console/${c.file}`, c.author]));
    for (const e of entries) expect(files.get(e.file), e.file).toBe(e.author);
    const labels = readLabels('sets/fresh-console-2-notes/labels.tsv');
    const again = readLabels('sets/fresh-console-2-notes/labels-second.tsv');
    expect(labels.size).toBe(283);
    for (const e of entries) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(95);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(92);
    const excluded = readFileSync(
      join(import.meta.dirname, '../../eval/snapshot/sets/fresh-console-2-notes/excluded.tsv'),
      'utf8',
    )
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'))
      .map((l) => l.split('\t')[0]!);
    expect(excluded.length).toBe(8);
    for (const id of excluded) expect(labels.has(id), id).toBe(true);
  });
});

/**
 * `fresh-console-3` (eval/heuristic/sets/fresh-console-3/) and `fresh-console-3-notes`: a third round
 * of Claude Code console copies, 42 more authors; turns of copies that start mid-session relabelled.
 */
describe('the fresh-console-3 sets', () => {
  const rows3 = readRows<Row & { relabelled?: string }>('sets/fresh-console-3/labels.jsonl');
  const second3 = readRows<{ n: number; label: string }>('sets/fresh-console-3/labels-second.jsonl');
  const copies3 = readRows<{ file: string; index_id: string; author: string }>(
    'sets/fresh-console-3/files.jsonl',
  );

  it('label every read turn once, from copies of 42 authors none of the shared data; a second reading agrees', () => {
    expect(rows3.length).toBe(145);
    expectLabelled(rows3, 'fresh-console-3');
    const counts: Record<string, number> = {};
    for (const r of rows3) for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual({ correction: 31, preference: 10, friction: 10, approval: 4 });
    // The turns of copies that start mid-session were labelled again, and none is a first turn.
    const relabelled = rows3.filter((r) => r.relabelled === 'mid-session');
    expect(relabelled.length).toBe(14);
    for (const r of relabelled) expect(r.first).toBe(false);
    expect(copies3.length).toBe(42);
    expect(new Set(copies3.map((c) => c.author)).size).toBe(42);
    const files = new Map(copies3.map((c) => [c.file, c.author]));
    for (const r of rows3) expect(files.get(r.source), r.source).toBe(r.author);
    const shared = sharedOwners();
    for (const c of copies3) expect(shared.has(c.author.toLowerCase()), c.author).toBe(false);
    const byN = new Map(rows3.map((r) => [r.n, r]));
    expect(second3.length).toBe(49);
    expect(second3.filter((s) => byN.get(s.n)?.label === s.label).length).toBe(46);
  });

  it('hold agent sentences of the copies, each labelled, and a second reading of every third', () => {
    const entries = entriesOf('fresh-console-3-notes');
    expect(entries.length).toBe(329);
    const files = new Map(copies3.map((c) => [`console/${c.file}`, c.author]));
    for (const e of entries) expect(files.get(e.file), e.file).toBe(e.author);
    const labels = readLabels('sets/fresh-console-3-notes/labels.tsv');
    const again = readLabels('sets/fresh-console-3-notes/labels-second.tsv');
    expect(labels.size).toBe(329);
    for (const e of entries) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(110);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(108);
  });
});

/** `fresh-console-4` and `fresh-console-4-notes`: a fourth round, 44 more authors. */
describe('the fresh-console-4 sets', () => {
  const rows4 = readRows<Row>('sets/fresh-console-4/labels.jsonl');
  const second4 = readRows<{ n: number; label: string }>('sets/fresh-console-4/labels-second.jsonl');
  const copies4 = readRows<{ file: string; index_id: string; author: string }>(
    'sets/fresh-console-4/files.jsonl',
  );

  it('label every read turn once, from copies of 44 authors none of the shared data; a second reading agrees', () => {
    expect(rows4.length).toBe(178);
    expectLabelled(rows4, 'fresh-console-4');
    const counts: Record<string, number> = {};
    for (const r of rows4) for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual({ correction: 24, preference: 12, approval: 5, friction: 2 });
    expect(copies4.length).toBe(44);
    expect(new Set(copies4.map((c) => c.author)).size).toBe(44);
    const files = new Map(copies4.map((c) => [c.file, c.author]));
    for (const r of rows4) expect(files.get(r.source), r.source).toBe(r.author);
    const shared = sharedOwners();
    for (const c of copies4) expect(shared.has(c.author.toLowerCase()), c.author).toBe(false);
    const byN = new Map(rows4.map((r) => [r.n, r]));
    expect(second4.length).toBe(60);
    expect(second4.filter((s) => byN.get(s.n)?.label === s.label).length).toBe(58);
  });

  it('hold agent sentences of the copies, each labelled, and a second reading of every third', () => {
    const entries = entriesOf('fresh-console-4-notes');
    expect(entries.length).toBe(333);
    const files = new Map(copies4.map((c) => [`console/${c.file}`, c.author]));
    for (const e of entries) expect(files.get(e.file), e.file).toBe(e.author);
    const labels = readLabels('sets/fresh-console-4-notes/labels.tsv');
    const again = readLabels('sets/fresh-console-4-notes/labels-second.tsv');
    expect(labels.size).toBe(333);
    for (const e of entries) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(111);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(107);
  });
});

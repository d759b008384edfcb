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
import { readExcluded, readLabels } from '../../eval/snapshot/score';
import { fixText } from '../../lib/failures/index';
import { entriesOf, expectExcludedTurns, expectLabelled, type Row, sharedOwners } from './unseen-sets-shared';

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
    expectExcludedTurns('fresh-console', fcRows, 1);
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
 * The later console rounds (eval/heuristic/sets/fresh-console-2 … 5 and their `-notes` sets): what each
 * holds, as its README says. Turns of copies that start mid-session were labelled again
 * (`relabelled: 'mid-session'`, never a first turn); notes a later reader no longer gives as prose are
 * listed in the notes set's `excluded.tsv`, each a labelled entry.
 */
const ROUNDS = [
  {
    set: 'fresh-console-2',
    turnsExcluded: 1,
    turns: 112,
    counts: { correction: 20, preference: 4, friction: 4, approval: 2 },
    copies: 39,
    authors: 38,
    second: [38, 37],
    relabelled: 7,
    notes: 283,
    notesSecond: [95, 92],
    excluded: 8,
  },
  {
    set: 'fresh-console-3',
    turnsExcluded: 1,
    turns: 145,
    counts: { correction: 31, preference: 10, friction: 10, approval: 4 },
    copies: 42,
    authors: 42,
    second: [49, 46],
    relabelled: 14,
    notes: 329,
    notesSecond: [110, 108],
    excluded: 1,
  },
  {
    set: 'fresh-console-4',
    turnsExcluded: 1,
    turns: 178,
    counts: { correction: 24, preference: 12, approval: 5, friction: 2 },
    copies: 44,
    authors: 44,
    second: [60, 58],
    relabelled: 0,
    notes: 333,
    notesSecond: [111, 107],
    excluded: 0,
  },
  {
    set: 'fresh-console-5',
    turnsExcluded: 2,
    turns: 115,
    counts: { correction: 17, preference: 10, approval: 3, friction: 2 },
    copies: 42,
    authors: 40,
    second: [38, 38],
    relabelled: 0,
    notes: 299,
    notesSecond: [100, 94],
    excluded: 0,
  },
];

describe.each(ROUNDS)('the $set sets', (round) => {
  const rows = readRows<Row & { relabelled?: string }>(`sets/${round.set}/labels.jsonl`);
  const second = readRows<{ n: number; label: string }>(`sets/${round.set}/labels-second.jsonl`);
  const copies = readRows<{ file: string; index_id: string; author: string }>(
    `sets/${round.set}/files.jsonl`,
  );

  it('label every read turn once, from copies of authors none of the shared data; a second reading agrees', () => {
    expect(rows.length).toBe(round.turns);
    expectLabelled(rows, round.set);
    const counts: Record<string, number> = {};
    for (const r of rows) for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual(round.counts);
    const relabelled = rows.filter((r) => r.relabelled === 'mid-session');
    expect(relabelled.length).toBe(round.relabelled);
    for (const r of relabelled) expect(r.first).toBe(false);
    expect(copies.length).toBe(round.copies);
    expect(new Set(copies.map((c) => c.author)).size).toBe(round.authors);
    const files = new Map(copies.map((c) => [c.file, c.author]));
    for (const c of copies) expect(c.file).toBe(`${c.index_id}.md`);
    for (const r of rows) expect(files.get(r.source), r.source).toBe(r.author);
    const shared = sharedOwners();
    for (const c of copies) expect(shared.has(c.author.toLowerCase()), c.author).toBe(false);
    const byN = new Map(rows.map((r) => [r.n, r]));
    expect(second.length).toBe(round.second[0]);
    expect(second.filter((s) => byN.get(s.n)?.label === s.label).length).toBe(round.second[1]);
    expectExcludedTurns(round.set, rows, round.turnsExcluded);
  });

  it('hold agent sentences of the copies, each labelled, a second reading of every third, exclusions apart', () => {
    const notes = `${round.set}-notes`;
    const entries = entriesOf(notes);
    expect(entries.length).toBe(round.notes);
    const files = new Map(copies.map((c) => [`console/${c.file}`, c.author]));
    for (const e of entries) expect(files.get(e.file), e.file).toBe(e.author);
    const labels = readLabels(`sets/${notes}/labels.tsv`);
    const again = readLabels(`sets/${notes}/labels-second.tsv`);
    expect(labels.size).toBe(round.notes);
    for (const e of entries) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(round.notesSecond[0]);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(
      round.notesSecond[1],
    );
    const excluded = readExcluded(notes);
    expect(excluded.length).toBe(round.excluded);
    for (const id of excluded) expect(labels.has(id), id).toBe(true);
  });
});

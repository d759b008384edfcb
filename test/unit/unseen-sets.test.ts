/**
 * The `unseen` sets (eval/heuristic/sets/unseen/, eval/snapshot/sets/unseen-notes/): labels of people's
 * turns and agent sentences from public aider histories whose authors are in no folder of the shared
 * data. The copies are not in the repository, so what is checked here is what the repository holds:
 * the rows are well-formed, every row names a copy of the manifest, no author's owner has a repository
 * in the shared data (`SOURCES.jsonl`), and the second readings are of labelled rows. The sets of
 * console copies are checked in unseen-console-sets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readRows } from '../../eval/heuristic/rows';
import { readLabels } from '../../eval/snapshot/score';
import { sharedDataDir } from '../../tools/shared/data';
import { entriesOf, expectLabelled, owner, type Row, sharedOwners } from './unseen-sets-shared';

interface Copy {
  file: string;
  repo: string;
  commit: string;
  sha256: string;
}

const rows = readRows<Row>('sets/unseen/labels.jsonl');
const second = readRows<{ n: number; label: string; labels: string[] }>('sets/unseen/labels-second.jsonl');
const copies = readRows<Copy>('sets/unseen/files.jsonl');
const notes = entriesOf('unseen-notes');

describe('the unseen sets', () => {
  it('label every turn once, consistently, with a hash and no text', () => {
    expect(rows.length).toBe(269);
    expectLabelled(rows, 'unseen');
    const counts: Record<string, number> = {};
    for (const r of rows.filter((x) => x.duplicate_of === undefined))
      for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual({ preference: 22, correction: 12, friction: 7, approval: 1 });
  });

  it('name copies of the manifest, one author per owner', () => {
    const files = new Set(copies.map((c) => c.file));
    expect(copies.length).toBe(84);
    for (const c of copies) {
      expect(c.file).toBe(`${c.repo.replace('/', '__')}.md`);
      expect(c.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(c.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    for (const r of rows) expect(files.has(r.source), r.source).toBe(true);
    for (const e of notes) expect(files.has(e.file.replace(/^aider\//, '')), e.file).toBe(true);
    expect(new Set(copies.map((c) => owner(c.repo))).size).toBe(copies.length);
  });

  it('hold no author of the shared data', () => {
    expect(sharedDataDir(), 'the shared data (../shared/data) lists the authors to keep out').toBeTruthy();
    const shared = sharedOwners();
    expect(shared.size).toBeGreaterThan(50);
    for (const c of copies) expect(shared.has(owner(c.repo)), c.repo).toBe(false);
  });

  it('have second readings of labelled rows only, and agree on most', () => {
    const byN = new Map(rows.map((r) => [r.n, r]));
    expect(second.length).toBe(68);
    for (const s of second) expect(byN.has(s.n)).toBe(true);
    expect(second.filter((s) => byN.get(s.n)!.label === s.label).length).toBe(65);
    const labels = readLabels('sets/unseen-notes/labels.tsv');
    const again = readLabels('sets/unseen-notes/labels-second.tsv');
    expect(notes.length).toBe(330);
    expect(labels.size).toBe(330);
    for (const e of notes) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(60);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(58);
  });
});

/** What the SpecStory sets hold (their READMEs give the same numbers). */
const SS = {
  rows: 289,
  counts: { correction: 48, friction: 19, preference: 8, approval: 6 } as Record<string, number>,
  second: 76,
  secondAgree: 73,
  notes: 318,
  notesAgree: 58,
};

/**
 * `unseen-specstory` (eval/heuristic/sets/unseen-specstory/) and `unseen-specstory-notes`
 * (eval/snapshot/sets/unseen-specstory-notes/): the same kind of sets drawn from SpecStory exports
 * (Cursor, Copilot and Claude Code sessions) of public repositories, owners in neither the shared data
 * nor the aider set.
 */
describe('the unseen-specstory sets', () => {
  const ssRows = readRows<Row>('sets/unseen-specstory/labels.jsonl');
  const ssSecond = readRows<{ n: number; label: string }>('sets/unseen-specstory/labels-second.jsonl');
  const ssCopies = readRows<Copy & { path: string }>('sets/unseen-specstory/files.jsonl');
  const ssNotes = entriesOf('unseen-specstory-notes');

  it('label every extracted turn once, with a hash and no text', () => {
    expect(ssRows.length).toBe(SS.rows);
    expectLabelled(ssRows, 'unseen-specstory');
    const counts: Record<string, number> = {};
    for (const r of ssRows.filter((x) => x.duplicate_of === undefined))
      for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual(SS.counts);
  });

  it('name copies of the manifest, one author per owner, none of the shared data or the aider set', () => {
    const files = new Set(ssCopies.map((c) => c.file));
    for (const c of ssCopies) {
      expect(c.file).toBe(`${c.repo.replace('/', '__')}.md`);
      expect(c.path.startsWith('.specstory/history/'), c.path).toBe(true);
      expect(c.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    for (const r of ssRows) expect(files.has(r.source), r.source).toBe(true);
    for (const e of ssNotes) expect(files.has(e.file.replace(/^specstory\//, '')), e.file).toBe(true);
    expect(new Set(ssCopies.map((c) => owner(c.repo))).size).toBe(ssCopies.length);
    const aider = new Set(copies.map((c) => owner(c.repo)));
    for (const c of ssCopies) expect(aider.has(owner(c.repo)), c.repo).toBe(false);
    const shared = sharedOwners();
    expect(shared.size).toBeGreaterThan(50);
    for (const c of ssCopies) expect(shared.has(owner(c.repo)), c.repo).toBe(false);
  });

  it('have second readings of labelled rows, and report their agreement', () => {
    const byN = new Map(ssRows.map((r) => [r.n, r]));
    expect(ssSecond.length).toBe(SS.second);
    for (const s of ssSecond) expect(byN.has(s.n)).toBe(true);
    expect(ssSecond.filter((s) => byN.get(s.n)!.label === s.label).length).toBe(SS.secondAgree);
    const labels = readLabels('sets/unseen-specstory-notes/labels.tsv');
    const again = readLabels('sets/unseen-specstory-notes/labels-second.tsv');
    expect(ssNotes.length).toBe(SS.notes);
    for (const e of ssNotes) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(60);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(SS.notesAgree);
  });
});

/**
 * `fresh-gemini` (eval/heuristic/sets/fresh-gemini/): Gemini CLI console transcripts of 19 authors
 * in no folder of the shared data, their people's turns labelled blind.
 */
describe('the fresh-gemini set', () => {
  const gRows = readRows<Row>('sets/fresh-gemini/labels.jsonl');
  const gSecond = readRows<{ n: number; label: string }>('sets/fresh-gemini/labels-second.jsonl');
  const gExcluded = readRows<{ n: number; reason: string }>('sets/fresh-gemini/excluded.jsonl');
  const gCopies = readRows<{ file: string; index_id: string; author: string; sha256: string }>(
    'sets/fresh-gemini/files.jsonl',
  );

  it('label every read turn once, with a hash and no text; the placeholders apart', () => {
    expect(gRows.length).toBe(64);
    expectLabelled(gRows, 'fresh-gemini');
    const counts: Record<string, number> = {};
    for (const r of gRows) for (const c of r.labels) counts[c] = (counts[c] ?? 0) + 1;
    expect(counts).toEqual({ correction: 8, preference: 8, friction: 1 });
    expect(new Set(gRows.map((r) => r.author)).size).toBe(19);
    expect(gExcluded.length).toBe(3);
    for (const x of gExcluded) expect(gRows.some((r) => r.n === x.n)).toBe(false);
  });

  it('name copies of the manifest by index id, each labelled turn from one', () => {
    expect(gCopies.length).toBe(32);
    const files = new Map(gCopies.map((c) => [c.file, c]));
    for (const c of gCopies) {
      expect(c.file).toBe(`${c.index_id}.md`);
      expect(c.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    for (const r of gRows) expect(files.get(r.source)?.author, r.source).toBe(r.author);
    const shared = sharedOwners();
    for (const c of gCopies) expect(shared.has(c.author.toLowerCase()), c.author).toBe(false);
  });

  it('have a second reading of every third turn, which agrees', () => {
    const byN = new Map(gRows.map((r) => [r.n, r]));
    expect(gSecond.length).toBe(23);
    expect(gSecond.filter((s) => byN.get(s.n)?.label === s.label).length).toBe(23);
  });

  it('hold agent sentences of the copies, each labelled, and a second reading of every third', () => {
    const entries = entriesOf('fresh-gemini-notes');
    expect(entries.length).toBe(152);
    const files = new Map(gCopies.map((c) => [`gemini/${c.file}`, c.author]));
    for (const e of entries) expect(files.get(e.file), e.file).toBe(e.author);
    const labels = readLabels('sets/fresh-gemini-notes/labels.tsv');
    const again = readLabels('sets/fresh-gemini-notes/labels-second.tsv');
    expect(labels.size).toBe(152);
    for (const e of entries) expect(labels.has(e.id), e.id).toBe(true);
    expect(again.size).toBe(51);
    expect([...again].filter(([id, l]) => labels.get(id)!.label === l.label).length).toBe(48);
  });
});

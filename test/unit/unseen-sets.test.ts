/**
 * The `unseen` sets (eval/heuristic/sets/unseen/, eval/snapshot/sets/unseen-notes/): labels of people's
 * turns and agent sentences from public aider histories whose authors are in no folder of the shared
 * data. The copies are not in the repository, so what is checked here is what the repository holds:
 * the rows are well-formed, every row names a copy of the manifest, no author's owner has a repository
 * in the shared data (`SOURCES.jsonl`), and the second readings are of labelled rows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRows } from '../../eval/heuristic/rows';
import { readLabels } from '../../eval/snapshot/score';
import { fixText } from '../../lib/failures/index';
import { sharedDataDir } from '../../tools/shared/data';

interface Row {
  n: number;
  source: string;
  line: number;
  index: number;
  author: string;
  sha256: string;
  lang: string;
  split: string;
  label: string;
  labels: string[];
  standing: boolean | null;
  instruction: string | null;
  first: boolean;
  duplicate_of?: number;
}
interface Copy {
  file: string;
  repo: string;
  commit: string;
  sha256: string;
}

const rows = readRows<Row>('sets/unseen/labels.jsonl');
const second = readRows<{ n: number; label: string; labels: string[] }>('sets/unseen/labels-second.jsonl');
const copies = readRows<Copy>('sets/unseen/files.jsonl');
/** A notes set's entries (eval/snapshot/sets/<set>/entries.jsonl). */
const entriesOf = (set: string) =>
  readFileSync(join(import.meta.dirname, `../../eval/snapshot/sets/${set}/entries.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; author: string; file: string; sha256: string });
const notes = entriesOf('unseen-notes');
const owner = (repo: string) => repo.split('/')[0]!.toLowerCase();

/**
 * The owners of the shared data: every repository of its `SOURCES.jsonl` files, and every
 * `<owner>+<name>` entry of its folders (some folders name authors their SOURCES rows do not list).
 */
function sharedOwners(): Set<string> {
  const dir = sharedDataDir();
  const shared = new Set<string>();
  if (!dir) return shared;
  for (const folder of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const entry of readdirSync(join(dir, folder.name)))
      if (entry.includes('+')) shared.add(entry.split('+')[0]!.toLowerCase());
    let text = '';
    try {
      text = readFileSync(join(dir, folder.name, 'SOURCES.jsonl'), 'utf8');
    } catch {}
    for (const l of text.split('\n').filter((x) => x.trim() !== ''))
      shared.add(owner((JSON.parse(l) as { repo: string }).repo));
  }
  return shared;
}

/**
 * A set's rows: each turn once (by number and by author and index), in `split`, a hash and no text,
 * a known label among its labels, a standing decision exactly on corrections and preferences (with
 * the instruction as a sentence), and a duplicate pointing at the same author's same text.
 */
function expectLabelled(list: readonly Row[], split: string) {
  expect(new Set(list.map((r) => r.n)).size).toBe(list.length);
  expect(new Set(list.map((r) => `${r.author}#${r.index}`)).size).toBe(list.length);
  for (const r of list) {
    expect(r.split).toBe(split);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect('text' in r).toBe(false);
    expect(['none', 'correction', 'preference', 'approval', 'friction']).toContain(r.label);
    expect(r.label === 'none' ? r.labels.length === 0 : r.labels.includes(r.label)).toBe(true);
    const cp = r.labels.includes('correction') || r.labels.includes('preference');
    expect(r.standing === null, `#${r.n} standing`).toBe(!cp);
    if (r.standing) expect(r.instruction, `#${r.n} instruction`).toMatch(/^\p{Lu}.*\S$/u);
    if (r.duplicate_of !== undefined) {
      const d = list.find((x) => x.n === r.duplicate_of)!;
      expect([d.author, d.sha256]).toEqual([r.author, r.sha256]);
    }
  }
}

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
    expect(counts).toEqual({ correction: 17, preference: 4, friction: 4, approval: 2 });
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

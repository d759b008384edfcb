/**
 * The `strangers-notes` and `strangers-notes-2` to `-5` snapshot sets, `sharegpt-notes`, `aider-apart-notes` and `aider-fresh-notes` (issue 39): their
 * rows, blind labels and second-reader samples are well formed and agree with each other, no set holds
 * a text of an earlier one, the third to fifth draw only the kept-apart authors, and every row still resolves, by position and SHA-256, in the shared data folder (skipped when
 * the folder is absent).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AIDER_APART_ENTRIES,
  AIDER_APART_FILES,
  drawAiderApart,
} from '../../eval/snapshot/sets/aider-apart-notes/sample';
import {
  AIDER_FRESH_ENTRIES,
  AIDER_FRESH_FILES,
  drawAiderFresh,
} from '../../eval/snapshot/sets/aider-fresh-notes/sample';
import { drawSharegpt, SHAREGPT_ENTRIES } from '../../eval/snapshot/sets/sharegpt-notes/sample';
import { kappa, readTsv } from '../../eval/snapshot/sets/strangers-notes/agreement';
import { APART_SETS, entriesOf } from '../../eval/snapshot/sets/strangers-notes/apart';
import { loadStrangersNotes, NOTES_ENTRIES } from '../../eval/snapshot/sets/strangers-notes/sample';
import { NOTES2_ENTRIES } from '../../eval/snapshot/sets/strangers-notes-2/sample';
import { sharedDataDir } from '../../tools/shared/data';

const SETS = resolve(import.meta.dirname, '../../eval/snapshot/sets');
const LABELS = [
  'requiredEvidenceLinks',
  'unresolvedQuestions',
  'openHypotheses',
  'blockers',
  'nextActions',
  'irrelevant',
];

interface Row {
  id: string;
  kind: string;
  stratum: string;
  author: string;
  split: string;
  file: string;
  pos: string;
  sha256: string;
  textFrom: string;
  text?: string;
}

function readSet(dir: string) {
  const DIR = join(SETS, dir);
  const rows = readFileSync(join(DIR, 'entries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Row);
  const labelLines = readFileSync(join(DIR, 'labels.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const second = readFileSync(join(DIR, 'second-reader-sample.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { DIR, rows, labelLines, second };
}

const SET_CASES = [
  {
    name: 'strangers-notes',
    prefix: 'notes-',
    strata: /^(?:pos-[1-5]|cue)$/,
    min: 400,
    perAuthor: 25,
    entries: NOTES_ENTRIES,
    authors: 25,
    secondN: 100,
    splits: ['strangers', 'strangers-final'],
  },
  {
    name: 'strangers-notes-2',
    prefix: 'notes2-',
    strata: /^pos-[1-6]$/,
    min: 700,
    perAuthor: 12,
    entries: NOTES2_ENTRIES,
    authors: 25,
    secondN: 100,
    splits: ['strangers', 'strangers-final'],
  },
  // The later draws (apart.ts) read only the authors kept apart, 16 per author over 4 stretches.
  ...APART_SETS.map((n) => ({
    name: `strangers-notes-${n}`,
    prefix: `notes${n}-`,
    strata: /^pos-[1-4]$/,
    min: 300,
    perAuthor: 16,
    entries: entriesOf(n),
    authors: 20,
    secondN: 80,
    splits: ['strangers-final'],
  })),
  // ChatGPT's replies (sharegpt-notes/sample.ts): one positional sentence per conversation, 50 cues.
  {
    name: 'sharegpt-notes',
    prefix: 'sg-',
    strata: /^(?:pos|cue)$/,
    min: 340,
    perAuthor: 2,
    entries: SHAREGPT_ENTRIES,
    authors: 250,
    secondN: 111,
    splits: ['unseen'],
  },
  // The aider agent's replies of six authors no notes set drew from (aider-apart-notes/sample.ts).
  {
    name: 'aider-apart-notes',
    prefix: 'aa-',
    strata: /^pos-[1-4]$/,
    min: 260,
    perAuthor: 60,
    entries: AIDER_APART_ENTRIES,
    authors: 6,
    secondN: 91,
    splits: ['unseen'],
  },
  // The aider agent's replies of the last four aider authors no notes set drew from (aider-fresh-notes/sample.ts).
  {
    name: 'aider-fresh-notes',
    prefix: 'af-',
    strata: /^pos-[1-4]$/,
    min: 240,
    perAuthor: 60,
    entries: AIDER_FRESH_ENTRIES,
    authors: 4,
    secondN: 82,
    splits: ['unseen'],
  },
];

describe.each(SET_CASES)(
  '$name set',
  ({ name, prefix, strata, min, perAuthor: maxPerAuthor, entries, authors, secondN, splits }) => {
    const { DIR, rows, labelLines, second } = readSet(name);
    it('rows carry references only, numbered in order, a bounded number per author over enough authors', () => {
      expect(rows.length).toBeGreaterThanOrEqual(min);
      rows.forEach((r, i) => {
        expect(r.id).toBe(`${prefix}${String(i + 1).padStart(3, '0')}`);
        expect(r.text).toBeUndefined();
        expect(r.textFrom).toBe('data');
        expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(r.file.startsWith(`${r.kind}/`)).toBe(true);
        expect(r.stratum).toMatch(strata);
        expect(splits).toContain(r.split);
      });
      const perAuthor = new Map<string, number>();
      for (const r of rows) perAuthor.set(r.author, (perAuthor.get(r.author) ?? 0) + 1);
      expect(perAuthor.size).toBeGreaterThanOrEqual(authors);
      expect(Math.max(...perAuthor.values())).toBeLessThanOrEqual(maxPerAuthor);
      expect(new Set(rows.map((r) => `${r.file}|${r.pos}`)).size).toBe(rows.length);
      expect(new Set(rows.map((r) => r.sha256)).size).toBe(rows.length);
    });

    it('labels.tsv labels every row once, in order, with a known label and a 0/1 hard flag', () => {
      expect(labelLines[0]!.startsWith('#')).toBe(true);
      const body = labelLines.slice(1).map((l) => l.split('\t'));
      expect(body.map((c) => c[0])).toEqual(rows.map((r) => r.id));
      for (const c of body) {
        expect(c).toHaveLength(3);
        expect(LABELS).toContain(c[1]);
        expect(['0', '1']).toContain(c[2]);
      }
    });

    it('the second-reader sample is distinct ids of the set', () => {
      const ids = new Set(rows.map((r) => r.id));
      expect(second).toHaveLength(secondN);
      expect(new Set(second).size).toBe(secondN);
      for (const id of second) expect(ids.has(id)).toBe(true);
    });

    it('labels-second.tsv labels exactly the second-reader sample, with a known label and a 0/1 hard flag', () => {
      const lines = readFileSync(join(DIR, 'labels-second.tsv'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      expect(lines[0]!.startsWith('#')).toBe(true);
      const secondLabels = readTsv(join(DIR, 'labels-second.tsv'));
      expect([...secondLabels.keys()].sort()).toEqual([...second].sort());
      for (const [label, hard] of secondLabels.values()) {
        expect(LABELS).toContain(label);
        expect(['0', '1']).toContain(hard);
      }
    });

    it("agreement's kappa: 1 for identical labellings, 0 at chance, negative below it", () => {
      expect(
        kappa([
          ['a', 'a'],
          ['b', 'b'],
          ['a', 'a'],
        ]),
      ).toBe(1);
      // Each reader says a/b half the time, independently: observed = chance = 0.5.
      expect(
        kappa([
          ['a', 'a'],
          ['a', 'b'],
          ['b', 'a'],
          ['b', 'b'],
        ]),
      ).toBe(0);
      expect(
        kappa([
          ['a', 'b'],
          ['b', 'a'],
        ]),
      ).toBe(-1);
    });

    it('every row resolves in the shared data with its stored hash', (ctx) => {
      const dir = sharedDataDir();
      if (!dir || !existsSync(join(dir, 'specstory'))) {
        ctx.skip();
        return;
      }
      const loaded = loadStrangersNotes(entries);
      expect(loaded.map((e) => e.id)).toEqual(rows.map((r) => r.id));
      for (const e of loaded) expect(e.text.length).toBeGreaterThanOrEqual(12);
    }, 120_000);
  },
);

describe('each set against the earlier ones', () => {
  it('holds no text of an earlier set', () => {
    const seen = new Set(readSet('strangers-notes').rows.map((r) => r.sha256));
    for (const name of ['strangers-notes-2', ...APART_SETS.map((n) => `strangers-notes-${n}`)]) {
      const rows = readSet(name).rows;
      for (const r of rows) expect(seen.has(r.sha256)).toBe(false);
      for (const r of rows) seen.add(r.sha256);
    }
  });
});

/** A set's stored draw is what its sample.ts draws from the shared data today, row for row. */
function expectDrawn(ctx: { skip: () => void }, folder: string, draw: () => unknown[], entries: string) {
  const dir = sharedDataDir();
  if (!dir || !existsSync(join(dir, folder))) {
    ctx.skip();
    return;
  }
  expect(
    `${draw()
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`,
  ).toBe(readFileSync(entries, 'utf8'));
}

describe('sharegpt-notes draw', () => {
  it('is what sample.ts draws from the shared data today, row for row', (ctx) => {
    expectDrawn(ctx, 'sharegpt', drawSharegpt, SHAREGPT_ENTRIES);
  }, 120_000);
});

describe('aider-apart-notes draw', () => {
  it('is what sample.ts draws from the shared data today, row for row', (ctx) => {
    expectDrawn(ctx, 'aider', () => drawAiderApart(), AIDER_APART_ENTRIES);
  }, 120_000);

  it('keeps the sentences of reasoning blocks it drew, marked: the reader no longer reads them as reply', (ctx) => {
    const dir = sharedDataDir();
    if (!dir || !existsSync(join(dir, 'aider'))) {
      ctx.skip();
      return;
    }
    const rows = loadStrangersNotes(AIDER_APART_ENTRIES);
    expect(rows).toHaveLength(268);
    const reasoning = rows.filter((r) => r.readAs === 'reasoning');
    // All in the one history whose model thinks aloud (sebbacon/ehrql_aider_demo): 47 of its 60.
    expect(reasoning).toHaveLength(47);
    expect(new Set(reasoning.map((r) => r.author))).toEqual(new Set(['sebbacon+ehrql_aider_demo']));
  }, 120_000);

  it("draws from histories no other notes set drew from (the set's claim to be held out)", () => {
    const apart = new Set(AIDER_APART_FILES);
    for (const name of readdirSync(SETS)) {
      if (name === 'aider-apart-notes' || name === 'pending' || name === 'same-place') continue;
      const path = join(SETS, name, 'entries.jsonl');
      if (!existsSync(path)) continue;
      for (const line of readFileSync(path, 'utf8').split('\n'))
        if (line.trim() !== '') expect(apart.has(String(JSON.parse(line).file)), `${name}`).toBe(false);
    }
  });
});

describe('aider-fresh-notes draw', () => {
  it('is what sample.ts draws from the shared data today, row for row', (ctx) => {
    expectDrawn(ctx, 'aider', () => drawAiderFresh(), AIDER_FRESH_ENTRIES);
  }, 120_000);

  it("no other set names its histories (the set's claim to be held out; pending and same-place asked other questions)", () => {
    const names = AIDER_FRESH_FILES.map((f) => f.slice('aider/'.length).replace(/\.md$/, ''));
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)],
      );
    for (const name of readdirSync(SETS)) {
      if (name === 'aider-fresh-notes' || name === 'pending' || name === 'same-place') continue;
      const dir = join(SETS, name);
      for (const file of existsSync(dir) && !name.includes('.') ? walk(dir) : [dir]) {
        const text = readFileSync(file, 'utf8');
        for (const n of names) expect(text.includes(n), `${file} names ${n}`).toBe(false);
      }
    }
  });
});

/**
 * The `strangers-notes` snapshot set (issue 39): its rows, blind labels and second-reader sample are
 * well formed and agree with each other, and every row still resolves, by position and SHA-256, in the
 * shared data folder (skipped when the folder is absent).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStrangersNotes } from '../../eval/snapshot/sets/strangers-notes/sample';
import { sharedDataDir } from '../../tools/shared/data';

const DIR = resolve(import.meta.dirname, '../../eval/snapshot/sets/strangers-notes');
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

describe('strangers-notes set', () => {
  it('rows carry references only, numbered in order, at most 25 per author over at least 25 authors', () => {
    expect(rows.length).toBeGreaterThanOrEqual(400);
    rows.forEach((r, i) => {
      expect(r.id).toBe(`notes-${String(i + 1).padStart(3, '0')}`);
      expect(r.text).toBeUndefined();
      expect(r.textFrom).toBe('data');
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.file.startsWith(`${r.kind}/`)).toBe(true);
      expect(r.stratum).toMatch(/^(?:pos-[1-5]|cue)$/);
      expect(['strangers', 'strangers-final']).toContain(r.split);
    });
    const perAuthor = new Map<string, number>();
    for (const r of rows) perAuthor.set(r.author, (perAuthor.get(r.author) ?? 0) + 1);
    expect(perAuthor.size).toBeGreaterThanOrEqual(25);
    expect(Math.max(...perAuthor.values())).toBeLessThanOrEqual(25);
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

  it('the second-reader sample is 100 distinct ids of the set', () => {
    const ids = new Set(rows.map((r) => r.id));
    expect(second).toHaveLength(100);
    expect(new Set(second).size).toBe(100);
    for (const id of second) expect(ids.has(id)).toBe(true);
  });

  it('every row resolves in the shared data with its stored hash', (ctx) => {
    const dir = sharedDataDir();
    if (!dir || !existsSync(join(dir, 'specstory'))) {
      ctx.skip();
      return;
    }
    const loaded = loadStrangersNotes();
    expect(loaded.map((e) => e.id)).toEqual(rows.map((r) => r.id));
    for (const e of loaded) expect(e.text.length).toBeGreaterThanOrEqual(12);
  }, 120_000);
});

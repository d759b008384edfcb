/**
 * The people's turns of the spent held-out sets, stored as the reader's buckets so that they train it
 * (eval/heuristic/spent-features.ts): one row per distinct labelled turn of each set, no text, the
 * features fingerprint the reader's features of today (a change of the features must rewrite them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticTraining } from '../../eval/heuristic/reader-train';
import { readRows } from '../../eval/heuristic/rows';
import { featuresVersion, SPENT_SETS, spentTraining } from '../../eval/heuristic/spent-features';

const SETS = join(import.meta.dirname, '../../eval/heuristic/sets');
const CATEGORIES = ['correction', 'preference', 'approval', 'friction'];

describe('the spent sets as training rows', () => {
  const version = featuresVersion(syntheticTraining());

  it('hold one row per distinct labelled turn of each set, with its labels and author, and no text', () => {
    const expected: Record<string, number> = {
      'fresh-console': 201,
      'fresh-gemini': 64,
      'fresh-console-2': 112,
      'fresh-console-3': 145,
      'fresh-console-4': 178,
    };
    expect([...SPENT_SETS].sort()).toEqual(Object.keys(expected).sort());
    for (const set of SPENT_SETS) {
      const labels = new Map(
        readRows<{ n: number; author: string; labels: string[]; duplicate_of?: number }>(
          `sets/${set}/labels.jsonl`,
        ).map((r) => [r.n, r]),
      );
      const lines = readFileSync(join(SETS, set, 'features.jsonl'), 'utf8')
        .trim()
        .split('\n');
      expect(JSON.parse(lines[0]!)).toEqual({ version });
      const rows = lines.slice(1).map((l) => JSON.parse(l));
      expect(rows.length, set).toBe(expected[set]);
      for (const r of rows) {
        expect(Object.keys(r).sort()).toEqual(['author', 'buckets', 'labels', 'lang', 'n']);
        const label = labels.get(r.n)!;
        expect(label, `${set} ${r.n}`).toBeDefined();
        expect(label.duplicate_of).toBeUndefined();
        expect(r.author).toBe(label.author);
        expect(r.labels).toEqual(label.labels);
        for (const c of r.labels) expect(CATEGORIES).toContain(c);
        // Gaps in base 36: digits and lower-case letters only, nothing of the turn's words.
        expect(r.buckets).toMatch(/^(?:[0-9a-z]+(?: [0-9a-z]+)*)?$/);
      }
    }
  });

  it('read back as rows that only train: sorted buckets, no evidence, split spent', () => {
    const rows = spentTraining(version);
    expect(rows.length).toBe(700);
    for (const r of rows) {
      expect(r.split).toBe('spent');
      expect(r.evidence).toBeUndefined();
      const b = r.buckets!;
      expect(b.length).toBeGreaterThan(0);
      for (let i = 1; i < b.length; i++) expect(b[i]!).toBeGreaterThan(b[i - 1]!);
      expect(b[b.length - 1]!).toBeLessThan(2 ** 20);
    }
    expect(new Set(rows.map((r) => r.author)).size).toBeGreaterThan(150);
  });

  it('refuse to train when the reader features changed since they were written', () => {
    expect(() => spentTraining('0')).toThrow(/other reader features/);
  });
});

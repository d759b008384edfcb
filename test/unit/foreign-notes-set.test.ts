/**
 * The `foreign-notes` snapshot set (eval/snapshot/sets/foreign-notes, issue 39): its rows, blind labels
 * and second reading are well formed, the agreement its README reports is what the two files give, the
 * kept-apart authors are the two the README names, and the draw is reproduced from the shared data
 * (skipped when the folder is absent) — so every row still resolves, holds a sentence in one of the
 * set's languages, and is no text of the `strangers-notes` draws.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  drawForeign,
  FOREIGN,
  FOREIGN_NOTES_ENTRIES,
  isApart,
} from '../../eval/snapshot/sets/foreign-notes/sample';
import { kappa, readTsv } from '../../eval/snapshot/sets/strangers-notes/agreement';
import { loadStrangersNotes } from '../../eval/snapshot/sets/strangers-notes/sample';
import { fnv1a32 } from '../../lib/core/index';
import { sharedDataDir } from '../../tools/shared/data';

const DIR = resolve(import.meta.dirname, '../../eval/snapshot/sets/foreign-notes');
const LABELS = new Set([
  'requiredEvidenceLinks',
  'unresolvedQuestions',
  'openHypotheses',
  'blockers',
  'nextActions',
  'irrelevant',
]);
const rows = readFileSync(FOREIGN_NOTES_ENTRIES, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; author: string; sha256: string; textFrom: string });

describe('the foreign-notes set', () => {
  it('gives every row one label and a hard flag, in id order, and nothing else', () => {
    expect(rows).toHaveLength(241);
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => `foreign-${String(i + 1).padStart(3, '0')}`));
    expect(rows.every((r) => r.textFrom === 'data' && /^[0-9a-f]{64}$/.test(r.sha256))).toBe(true);
    const labels = readTsv(resolve(DIR, 'labels.tsv'));
    expect([...labels.keys()]).toEqual(rows.map((r) => r.id));
    expect([...labels.values()].every(([label]) => LABELS.has(label))).toBe(true);
  });

  it('holds the second reading of the 60 ids its hash chose, agreeing as the README says', () => {
    const first = readTsv(resolve(DIR, 'labels.tsv'));
    const second = readTsv(resolve(DIR, 'labels-second.tsv'));
    const chosen = rows
      .map((r) => r.id)
      .sort((a, b) => fnv1a32(`foreign-notes-second|${a}`) - fnv1a32(`foreign-notes-second|${b}`))
      .slice(0, 60)
      .sort();
    expect([...second.keys()].sort()).toEqual(chosen);
    const pairs = [...second].map(([id, [label]]) => [first.get(id)![0], label] as const);
    const hard = [...second].map(([id, [, h]]) => [first.get(id)![1], h] as const);
    expect(pairs.filter(([a, b]) => a === b)).toHaveLength(59);
    expect(kappa(pairs).toFixed(3)).toBe('0.967');
    expect(hard.filter(([a, b]) => a === b)).toHaveLength(55);
    expect(kappa(hard).toFixed(3)).toBe('0.830');
  });

  it('keeps two of its nine authors apart, by their names only', () => {
    const authors = [...new Set(rows.map((r) => r.author))].sort();
    expect(authors).toHaveLength(9);
    expect(authors.filter(isApart)).toEqual(['Hayden0226/Photography', 'elizabeth-goldsmith/prirodnik']);
    expect(rows.filter((r) => isApart(r.author))).toHaveLength(45);
  });

  it.skipIf(!sharedDataDir())(
    'is reproduced by its draw, and each row resolves to a new sentence in one of its languages',
    () => {
      expect(drawForeign()).toEqual(
        JSON.parse(`[${readFileSync(FOREIGN_NOTES_ENTRIES, 'utf8').trim().split('\n').join(',')}]`),
      );
      const loaded = loadStrangersNotes(FOREIGN_NOTES_ENTRIES);
      expect(loaded).toHaveLength(rows.length);
      expect(loaded.every((r) => FOREIGN.test(r.text))).toBe(true);
    },
    120_000,
  );
});

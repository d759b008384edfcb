/**
 * The invented agent sentences of eval/snapshot/sets/synthetic-notes (training only, never scored):
 * well-formed, one of the six labels, unique ids, and no row passed off as real (`kind` is not a field).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../lib/snapshot/index';

/** The snapshot's categories and `irrelevant`: the labels of eval/snapshot/LABELLING.md. */
const LABELS: readonly string[] = [...CATEGORIES, 'irrelevant'];

const DIR = resolve(import.meta.dirname, '../../eval/snapshot/sets/synthetic-notes');

describe('synthetic-notes', () => {
  it('holds 900 invented sentences with valid labels, languages and unique ids', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    expect(files).toEqual(['writer-a.jsonl', 'writer-b.jsonl', 'writer-c.jsonl']);
    const ids = new Set<string>();
    let n = 0;
    for (const f of files)
      for (const line of readFileSync(resolve(DIR, f), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const r = JSON.parse(line) as Record<string, unknown>;
        expect(Object.keys(r).sort(), `${f} ${line.slice(0, 40)}`).toEqual([
          'hard',
          'id',
          'label',
          'lang',
          'text',
        ]);
        expect(LABELS).toContain(r.label);
        expect([0, 1]).toContain(r.hard);
        expect(r.lang).toMatch(/^(?:en|zh|ja|ru|es|pt|vi|ko|de)$/);
        expect(typeof r.text === 'string' && r.text.trim().length >= 2).toBe(true);
        expect(r.id).toMatch(new RegExp(`^sn-${f[7]}-\\d{3}$`));
        expect(ids.has(r.id as string)).toBe(false);
        ids.add(r.id as string);
        n++;
      }
    expect(n).toBe(900);
  });
});

/**
 * What the tests of the sets of unseen authors share (unseen-sets.test.ts, unseen-console-sets.test.ts):
 * the row of a people's-turn set, the check every such set's rows pass, a notes set's entries, and the
 * owners of the shared data, which no unseen author may be.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { readRows } from '../../eval/heuristic/rows';
import { sharedDataDir } from '../../tools/shared/data';

export interface Row {
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

/** A repository's owner, lower-cased. */
export const owner = (repo: string) => repo.split('/')[0]!.toLowerCase();

/** A notes set's entries (eval/snapshot/sets/<set>/entries.jsonl). */
export const entriesOf = (set: string) =>
  readFileSync(join(import.meta.dirname, `../../eval/snapshot/sets/${set}/entries.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; author: string; file: string; sha256: string });

/**
 * The owners of the shared data: every repository of its `SOURCES.jsonl` files, and every
 * `<owner>+<name>` entry of its folders (some folders name authors their SOURCES rows do not list).
 */
export function sharedOwners(): Set<string> {
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
export function expectLabelled(list: readonly Row[], split: string) {
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

/**
 * A set's `excluded.jsonl`: `count` rows, each a labelled row of the set with no words of a person
 * (`none`, `und`: console chrome the reader no longer reads as a prompt), each with its reason.
 */
export function expectExcludedTurns(set: string, rows: readonly Row[], count: number) {
  const excluded = readRows<{ n: number; id: string; reason: string }>(`sets/${set}/excluded.jsonl`);
  expect(excluded.length).toBe(count);
  const byN = new Map(rows.map((r) => [r.n, r]));
  for (const x of excluded) {
    const r = byN.get(x.n);
    expect(r, `${set} #${x.n}`).toBeDefined();
    expect([r!.label, r!.lang]).toEqual(['none', 'und']);
    expect(x.reason).toMatch(/input box/);
  }
}

/**
 * Hash flooding. The snapshot's own tables hash with FNV-1a and probe linearly; words made to share a
 * hash (test/snapshot/flood.ts) made a snapshot quadratic: 16,384 of them took 4.4 s instead of
 * 0.12 s (bench: `deterministicSnapshot/16384-colliding-words`). Past PROBE_LIMIT probes a table now
 * hands its keys to a Map. These tests check that each table does, that nothing it answers changes,
 * and that a whole snapshot of such words says exactly what it says of ordinary words in their place.
 */
import { describe, expect, it } from 'vitest';
import { scanWords } from '../../lib/categorise/scan';
import { PROBE_LIMIT, Vocabulary } from '../../lib/categorise/vocab';
import {
  createSnapshotMemo,
  deterministicSnapshotWithTrace,
  type MemoryEntry,
  type SnapshotInput,
} from '../../lib/snapshot/index';
import { Buckets } from '../../lib/snapshot/lsh';
import { collidingWords, fnv, randomWords } from '../../tools/shared/flood';

// A suffix keeps the stemmer away from the words' random endings (and keeps the collisions: the
// states after the words are equal, so are they after the same letter).
const FULL = collidingWords(11, 32).map((w) => `${w}q`);
const LOW = collidingWords(11, 16, 7).map((w) => `${w}q`);

/**
 * Entries that name the words: the first half two to a note, the rest one to a note (those share
 * their key hash too). No two notes share a word, so none is a near duplicate of another (at most
 * 2 of 5 terms in common), and none is long enough to be clipped: nothing depends on which notes the
 * MinHash buckets happen to bring together, and every word shows whole in the trace.
 */
function input(words: readonly string[]): SnapshotInput {
  const entries: MemoryEntry[] = [];
  const half = words.length / 2;
  for (let i = 0; i < half; i += 2)
    entries.push({
      scope: 'notes',
      key: `n${i}`,
      value: `The build fails on ${words[i]} and ${words[i + 1]}`,
      sourceIteration: i,
    });
  for (let i = half; i < words.length; i++)
    entries.push({
      scope: 'notes',
      key: `w${i}`,
      value: `The build fails on ${words[i]}`,
      sourceIteration: i,
    });
  // The same notes worded again (the same comparable key, another text), the first ones among them
  // filed before the tables flooded: found by key.
  for (let i = 0; i < half; i += 6)
    entries.push({
      scope: 'notes',
      key: `e${i}`,
      value: `THE BUILD FAILS ON ${words[i]!.toUpperCase()} AND ${words[i + 1]!.toUpperCase()}`,
      sourceIteration: i + 1,
    });
  for (let i = half; i < words.length; i += 3)
    entries.push({
      scope: 'notes',
      key: `d${i}`,
      value: `the build FAILS on ${words[i]!.toUpperCase()}!`,
      sourceIteration: i + 1,
    });
  return { objective: 'Fix the build', entries };
}

describe('hash flooding', () => {
  it('the words share their hash: all 32 bits, or the low 16 (the test would prove nothing else)', () => {
    expect(new Set(FULL).size).toBe(FULL.length);
    expect(new Set(FULL.map(fnv)).size).toBe(1);
    expect(new Set(LOW.map((w) => fnv(w) & 0xffff)).size).toBe(1);
    expect(new Set(LOW.map(fnv)).size).toBeGreaterThan(LOW.length / 2);
  });

  it('the vocabulary hands words and terms to a Map, giving the ids it gives ordinary words', () => {
    for (const words of [FULL, LOW]) {
      const v = new Vocabulary();
      const ids = scanWords(words.join(' '), v)!;
      expect(v.flooded).toBe(true);
      // Ids come in order of arrival either way: the same as for words that share nothing.
      const control = new Vocabulary();
      expect(ids).toEqual(scanWords(randomWords(words).join(' '), control));
      expect(control.flooded).toBe(false);
      expect(ids.map((id) => v.words[id])).toEqual(words);
      // Looked up again (upper case too), each word finds its id; each is its own term.
      expect(scanWords(words.join(' ').toUpperCase(), v)).toEqual(ids);
      expect(new Set(ids.map((id) => v.wordTerm[id])).size).toBe(words.length);
      expect(v.termIdsOf(words.slice(0, 50))).toEqual(ids.slice(0, 50).map((id) => v.wordTerm[id]));
    }
  });

  it('buckets whose keys share a slot go to a Map, keeping every chain and its order', () => {
    const b = new Buckets<number>(16);
    // Keys equal in their low 16 bits: one slot in any table of up to 65,536 slots.
    const keys = Array.from({ length: 6 * PROBE_LIMIT }, (_, i) => (i + 1) << 16);
    keys.forEach((k, i) => {
      b.add(i % 3, k, i);
      b.add(i % 3, k, -i);
    });
    expect((b as unknown as { bySlot: unknown }).bySlot).not.toBeNull();
    keys.forEach((k, i) => {
      const chain: number[] = [];
      for (let e = b.first(i % 3, k); e >= 0; e = b.after(e)) chain.push(b.item(e));
      expect(chain).toEqual([i, -i]);
      expect(b.first((i + 1) % 3, k)).toBe(-1);
    });
  });

  it('a snapshot of flooding words says what it says of ordinary words in their place', () => {
    for (const words of [FULL, LOW]) {
      const control = randomWords(words).map((w) => `${w.slice(0, -1)}q`);
      const back = new Map(control.map((c, i) => [c, words[i]!]));
      const got = JSON.stringify(deterministicSnapshotWithTrace(input(words)));
      const want = JSON.stringify(deterministicSnapshotWithTrace(input(control))).replace(
        /[a-z]{20,}/gi,
        (c) => {
          const w = back.get(c.toLowerCase());
          return w === undefined ? c : c === c.toLowerCase() ? w : w.toUpperCase();
        },
      );
      expect(got).toBe(want);
      expect(got.length).toBeGreaterThan(100_000); // every entry is in the trace
      expect(got.match(/"reason":"duplicate"/g)).toHaveLength(
        Math.ceil(words.length / 12) + Math.ceil(words.length / 6),
      );
    }
  });

  it('a memo that met flooding words drops them, so later snapshots take the fast path again', () => {
    const memo = createSnapshotMemo();
    const plain = JSON.stringify(deterministicSnapshotWithTrace(input(FULL)));
    expect(JSON.stringify(deterministicSnapshotWithTrace(input(FULL), { memo }))).toBe(plain);
    expect(memo.size).toBe(0);
    deterministicSnapshotWithTrace(input(randomWords(FULL)), { memo });
    expect(memo.size).toBeGreaterThan(FULL.length / 2);
  });
});

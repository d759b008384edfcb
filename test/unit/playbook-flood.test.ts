/**
 * Hash flooding in the playbook's near-duplicate index (lib/playbook/dedup-index.ts). Word ids come in
 * order of first appearance, so whoever writes the key points chooses which id pairs occur as
 * adjacent words, and pairs that share a slot of the pair table can be searched for offline. Past
 * PAIR_PROBE_LIMIT probes the table hands its pairs to a Map: these tests check that it does, that it
 * answers the same, and that `findDuplicates` still equals its all-pairs oracle on such a playbook.
 */
import { describe, expect, it } from 'vitest';
import { fmix32 } from '../../lib/core/index';
import { PAIR_PROBE_LIMIT, PairTable } from '../../lib/playbook/dedup-index';
import {
  emptyPlaybook,
  findDuplicates,
  findDuplicatesAllPairs,
  SECTION_NAMES,
} from '../../lib/playbook/index';

/** The pair table's slot of (a, b) under `mask` (its hash, as dedup-index.ts computes it). */
const slotOf = (a: number, b: number, mask: number) =>
  fmix32(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & mask;

/** Pairs of ids below `range` whose slot is 0 in every table of up to mask + 1 slots. */
function collidingPairs(range: number, mask: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < range; a++)
    for (let b = 0; b < range; b++) if (a !== b && slotOf(a, b, mask) === 0) out.push([a, b]);
  return out;
}

/** A word per id, all letters (no stop word, nothing the plural rule trims). */
const word = (i: number) =>
  `q${String.fromCharCode(97 + (((i / 676) | 0) % 26), 97 + (((i / 26) | 0) % 26), 97 + (i % 26))}z`;

describe('hash flooding in the playbook index', () => {
  it('the pair table hands pairs that share a slot to a Map, answering the same', () => {
    const pairs = collidingPairs(600, 1023).slice(0, 3 * PAIR_PROBE_LIMIT);
    expect(pairs.length).toBe(3 * PAIR_PROBE_LIMIT);
    const t = new PairTable(16); // 1,024 slots: every pair above in slot 0
    pairs.forEach(([a, b], i) => {
      expect(t.getOrAdd(a, b, i)).toBe(-1);
    });
    expect(t.flooded).toBe(true);
    pairs.forEach(([a, b], i) => {
      expect(t.getOrAdd(a, b, 99_999)).toBe(i);
    });
    expect(t.getOrAdd(7, 7, 5)).toBe(-1);
    expect(t.getOrAdd(7, 7, 6)).toBe(5);
    // An ordinary table does not flood.
    const plain = new PairTable(16);
    for (let i = 0; i < 500; i++) plain.getOrAdd(i, i + 1, i);
    expect(plain.flooded).toBe(false);
  });

  it('findDuplicates equals its all-pairs oracle on a playbook built to flood the table', () => {
    // The first key point names 1,000 words in order (ids 0 … 999); the others are pairs of them that
    // share a slot of the index's table (4,096 slots for this many key points and pairs), some written
    // twice so that there are duplicates to find.
    const pairs = collidingPairs(1000, 4095).slice(0, 240);
    expect(pairs.length).toBe(240);
    const pb = emptyPlaybook();
    const first = SECTION_NAMES[0];
    pb.sections[first].push({
      name: 'kpt_0',
      text: Array.from({ length: 1000 }, (_, i) => word(i)).join(' '),
      helpful: 0,
      harmful: 0,
    });
    pairs.forEach(([a, b], i) => {
      const section = SECTION_NAMES[i % SECTION_NAMES.length]!;
      const text = `${word(a)} ${word(b)}${i % 3 === 0 ? ` ${word((a + 1) % 1000)}` : ''}`;
      pb.sections[section].push({ name: `kpt_${i + 1}`, text, helpful: i % 4, harmful: 0 });
      if (i % 5 === 0)
        pb.sections[section].push({ name: `kpt_${i + 1}_again`, text, helpful: 0, harmful: 1 });
    });
    for (const sameSection of [true, false]) {
      const groups = findDuplicates(pb, { sameSection });
      expect(groups.length).toBeGreaterThanOrEqual(48);
      expect(groups).toEqual(findDuplicatesAllPairs(pb, { sameSection }));
    }
  });
});

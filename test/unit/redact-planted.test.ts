/**
 * Secrets never leave: every documented kind, planted in every position secrets take in real
 * transcripts (after a `\n` escape in JSON, inside a JSON string, in a URL, in a code fence, …), is
 * redacted, and look-alikes (hashes, UUIDs, versions, data URLs, paths, digests, colours) are not.
 * The set is built from fixed seeds (tools/shared/redact-planted.ts), the same as `npm run bench`'s.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_KINDS, redact } from '../../lib/redact/index';
import { nonSecrets, POSITIONS, plantedSecrets, scorePlanted } from '../../tools/shared/redact-planted';

const SEEDS = [1, 2, 3];

describe('planted secrets', () => {
  it('plants every built-in kind in every position', () => {
    const kinds = new Set(plantedSecrets(1).map((p) => p.kind));
    expect([...kinds].sort()).toEqual([...BUILTIN_KINDS].sort());
    expect(POSITIONS.length).toBe(9);
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: recall is 100% for every kind in every position`, () => {
      const score = scorePlanted((t) => redact(t), seed);
      expect(score.missed).toEqual([]);
      expect(score.planted).toBe(plantedSecrets(seed).length * POSITIONS.length);
      // Every kind and every position scored (the loops below cannot pass on an empty map).
      expect(Object.keys(score.recallByKind).sort()).toEqual([...BUILTIN_KINDS].sort());
      expect(Object.keys(score.recallByPosition)).toEqual(POSITIONS.map((p) => p.name));
      for (const recall of Object.values(score.recallByKind)) expect(recall).toBe(1);
      for (const recall of Object.values(score.recallByPosition)) expect(recall).toBe(1);
      // Found as the kind it was planted as, not merely swallowed by a neighbour.
      expect(score.misclassified).toEqual([]);
    });

    it(`seed ${seed}: no look-alike is redacted`, () => {
      const score = scorePlanted((t) => redact(t), seed);
      expect(score.nonSecrets).toBe(nonSecrets(seed).length * POSITIONS.length);
      expect(score.falsePositives).toEqual([]);
    });
  }

  it('the set is the same on every run', () => {
    expect(plantedSecrets(2)).toEqual(plantedSecrets(2));
    expect(plantedSecrets(2)).not.toEqual(plantedSecrets(3));
  });
});

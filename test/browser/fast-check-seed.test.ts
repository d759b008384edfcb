/**
 * The browser project runs property tests with the same fixed seed as the unit project
 * (test/setup/fast-check.ts, a vitest setupFiles entry of both), so results never flip between runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXED_SEED } from '../setup/fast-check';

describe('fast-check in the browser project', () => {
  it('uses the fixed seed and the default run count', () => {
    expect(fc.readConfigureGlobal()).toMatchObject({ seed: FIXED_SEED, numRuns: 100 });
  });

  it('draws the same values on every run', () => {
    const draw = () => {
      const seen: number[] = [];
      fc.assert(
        fc.property(fc.integer(), (n) => {
          seen.push(n);
        }),
        { numRuns: 5 },
      );
      return seen;
    };
    expect(draw()).toEqual(draw());
  });
});

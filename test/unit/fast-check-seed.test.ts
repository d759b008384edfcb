/**
 * The unit project runs property tests with one fixed seed (test/setup/fast-check.ts, a vitest
 * setupFiles entry of the unit and browser projects), so results never flip between runs. Under
 * `npm run fuzz` seeds are fresh on purpose, so the second check does not apply there.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXED_SEED } from '../setup/fast-check';

describe('fast-check in the unit project', () => {
  it('uses the fixed seed and the default run count', () => {
    expect(fc.readConfigureGlobal()).toMatchObject({ seed: FIXED_SEED, numRuns: 100 });
  });

  it.skipIf(process.env.REARVIEW_FUZZ === '1')('draws the same values on every run', () => {
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

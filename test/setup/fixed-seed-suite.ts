/**
 * The checks that a vitest project runs its property tests with the fixed seed of
 * test/setup/fast-check.ts, shared by the unit and browser projects.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXED_SEED } from './fast-check';

/** Registers the checks for `project`; `fuzzing` skips the second (fresh seeds are the point there). */
export function describeFixedSeed(project: string, fuzzing = false): void {
  describe(`fast-check in the ${project} project`, () => {
    it('uses the fixed seed and the default run count', () => {
      expect(fc.readConfigureGlobal()).toMatchObject({ seed: FIXED_SEED, numRuns: 100 });
    });

    it.skipIf(fuzzing)('draws the same values on every run', () => {
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
}

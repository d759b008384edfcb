/**
 * The unit project runs property tests with one fixed seed (test/setup/fast-check.ts, a vitest
 * setupFiles entry of the unit and browser projects), so results never flip between runs. Under
 * `npm run fuzz` seeds are fresh on purpose, so the second check does not apply there.
 */
import { describeFixedSeed } from '../setup/fixed-seed-suite';

describeFixedSeed('unit', process.env.REARVIEW_FUZZ === '1');

/**
 * The browser project runs property tests with the same fixed seed as the unit project
 * (test/setup/fast-check.ts, a vitest setupFiles entry of both), so results never flip between runs.
 */
import { describeFixedSeed } from '../setup/fixed-seed-suite';

describeFixedSeed('browser');

/**
 * `fast-check` as `npm run fuzz` sees it (vitest.config.ts aliases the package to this file when
 * REARVIEW_FUZZ=1): the real library, except that `assert` and `check` draw a fresh random seed for
 * every property and run it REARVIEW_FUZZ_MULTIPLIER times (default 10) as often as `npm test` does.
 * A property replaying a recorded counterexample (its parameters give a `path`) runs as written.
 * The real package is imported by file path because the alias would otherwise point back here.
 */
import * as real from '../../node_modules/fast-check/lib/fast-check.js';

export * from '../../node_modules/fast-check/lib/fast-check.js';

const DEFAULT_RUNS = 100;

function multiplier(): number {
  const n = Number(process.env.REARVIEW_FUZZ_MULTIPLIER ?? 10);
  return Number.isFinite(n) && n > 0 ? n : 10;
}

/** A seed the way fast-check draws one when none is given, but always written into the parameters. */
function freshSeed(): number {
  return (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0;
}

function fuzzParameters<P extends { numRuns?: number; seed?: number; path?: string }>(
  params: P | undefined,
): P {
  if (params?.path) return params;
  const base = params?.numRuns ?? DEFAULT_RUNS;
  return { ...(params ?? ({} as P)), numRuns: Math.ceil(base * multiplier()), seed: freshSeed() };
}

/** `fc.assert` with a fresh seed and more runs. */
export const assert = ((property: unknown, params?: real.Parameters<unknown>) =>
  real.assert(property as real.IProperty<unknown>, fuzzParameters(params))) as typeof real.assert;

/** `fc.check` with a fresh seed and more runs. */
export const check = ((property: unknown, params?: real.Parameters<unknown>) =>
  real.check(property as real.IProperty<unknown>, fuzzParameters(params))) as typeof real.check;

const fuzzDefault: typeof real.default = { ...real.default, assert, check };
export default fuzzDefault;

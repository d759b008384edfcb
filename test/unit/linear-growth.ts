/**
 * Growth-ratio check for scanners of untrusted text: times a function on an input and on one twice
 * its size, interleaved, and returns the ratio of the fastest runs. A linear scanner gives about 2; a
 * quadratic one about 4. The ratio is taken within one run, so a busy machine slows both sides alike.
 */

/**
 * Time of `fn(big)` over time of `fn(small)`, each the fastest of `rounds` interleaved runs; the
 * lowest ratio of up to three attempts. The fastest run is the one least disturbed by other work on
 * the machine, and a later attempt only runs when an earlier one came out over `limit`: noise can
 * push a linear scanner's ratio up for one attempt, but a quadratic one stays near 4 in every attempt,
 * so retrying hides no real blow-up.
 *
 * @example
 * ```ts
 * expect(growthRatio(() => parse(a), () => parse(b))).toBeLessThanOrEqual(3);
 * ```
 */
export function growthRatio(small: () => unknown, big: () => unknown, rounds = 7, limit = 3): number {
  small();
  big();
  // Repeat each timed call until the small one takes ~30 ms, so timer grain and one GC pause do not
  // decide the ratio of fast parsers. The fastest of three calls sets the count: one slow call (a GC
  // pause, a busy core) must not set `reps` to 1.
  let t = 0;
  let once = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    small();
    once = Math.min(once, performance.now() - t);
  }
  const reps = Math.min(200, Math.max(1, Math.ceil(30 / Math.max(once, 0.05))));
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && best > limit; attempt++) {
    let a = Number.POSITIVE_INFINITY;
    let b = Number.POSITIVE_INFINITY;
    for (let i = 0; i < rounds; i++) {
      t = performance.now();
      for (let r = 0; r < reps; r++) small();
      a = Math.min(a, performance.now() - t);
      t = performance.now();
      for (let r = 0; r < reps; r++) big();
      b = Math.min(b, performance.now() - t);
    }
    best = Math.min(best, b / Math.max(a, 1e-3));
  }
  return best;
}

/**
 * Runs `fn` and returns what it threw (failing when it throws nothing).
 *
 * @example
 * ```ts
 * expect(thrown(() => parseTranscript('')).code).toBe('transcript_empty');
 * ```
 */
export function thrown<T = Error>(fn: () => unknown): T {
  try {
    fn();
  } catch (err) {
    return err as T;
  }
  throw new Error('expected the call to throw');
}

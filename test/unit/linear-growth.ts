/**
 * Growth-ratio check for scanners of untrusted text: times a function on an input and on one twice
 * its size, interleaved, and returns the ratio of the medians. A linear scanner gives about 2; a
 * quadratic one about 4. The ratio is taken within one run, so a busy machine slows both sides alike.
 */

/**
 * Median time of `fn(big)` over median time of `fn(small)`, `rounds` interleaved runs each.
 *
 * @example
 * ```ts
 * expect(growthRatio(() => parse(a), () => parse(b))).toBeLessThanOrEqual(3);
 * ```
 */
export function growthRatio(small: () => unknown, big: () => unknown, rounds = 7): number {
  small();
  big();
  // Repeat each timed call until the small one takes ~30 ms, so timer grain and one GC pause do not
  // decide the ratio of fast parsers.
  // The fastest of three calls: one slow call (a GC pause, a busy core) must not set `reps` to 1.
  let t = 0;
  let once = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    small();
    once = Math.min(once, performance.now() - t);
  }
  const reps = Math.min(200, Math.max(1, Math.ceil(30 / Math.max(once, 0.05))));
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    t = performance.now();
    for (let r = 0; r < reps; r++) small();
    a.push(performance.now() - t);
    t = performance.now();
    for (let r = 0; r < reps; r++) big();
    b.push(performance.now() - t);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  return median(b) / Math.max(median(a), 1e-3);
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

/**
 * What a reduction policy costs a provider's prompt cache. A model call re-reads the run so far; a
 * cache hits only on the prefix that is byte-identical to the previous call's. A reducer that
 * rewrites old steps differently at each call destroys that prefix, so the saving it reports can be
 * eaten by cache misses. This replays the run call by call to measure both.
 */
import { estimateTokens } from '../core/index.js';
import type { Step } from '../transcript/index.js';

/**
 * Per-policy figures of {@link prefixRetention}, summed over the model calls of a run (call `t` reads
 * steps `0..t-1`, reduced by the policy as it would be at that call).
 *
 * @example
 * ```ts
 * const r = prefixRetention(steps, (prefix) => pruneTrajectory(prefix).steps);
 * console.log(r.retainedPercent, r.observationSavedPercent);
 * ```
 */
export interface PrefixRetention {
  calls: number;
  /** Tokens of each call's context that are a byte-identical prefix of the next call's context. */
  retainedTokens: number;
  /** Tokens of every call's context but the last (the contexts a cache could be reused from). */
  contextTokens: number;
  retainedPercent: number;
  /** Observation tokens read over all calls, unreduced and reduced (AgentDiet's input measure). */
  observationTokensBefore: number;
  observationTokensAfter: number;
  observationSavedPercent: number;
}

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * Replays a run call by call: `reduce` is applied to each prefix of `steps`, and the tokens that stay
 * byte-identical at the front of consecutive contexts are counted, step by step (a step that changed
 * ends the shared prefix). Quadratic in the number of steps by nature — a measurement, not a reducer.
 *
 * @example
 * ```ts
 * prefixRetention(steps, (p) => pruneTrajectory(p, { window: 5, cacheFriendly: true }).steps);
 * // { calls: 42, retainedPercent: 97.1, observationSavedPercent: 51.3, … }
 * ```
 */
export function prefixRetention(
  steps: readonly Step[],
  reduce: (prefix: readonly Step[]) => readonly Step[],
): PrefixRetention {
  const memo = new Map<string, number>();
  const tokens = (text: string | undefined): number => {
    if (!text) return 0;
    let t = memo.get(text);
    if (t === undefined) {
      t = estimateTokens(text);
      memo.set(text, t);
    }
    return t;
  };
  const outputTokens = (s: Step) =>
    tokens(s.observation) + (s.error && s.error !== s.observation ? tokens(s.error) : 0);
  const fixed = steps.map((s) => tokens(s.thought) + tokens(s.action));
  let previous: readonly Step[] = [];
  let previousTokens = 0;
  const r = { retained: 0, context: 0, before: 0, after: 0, calls: 0 };
  let before = 0;
  for (let t = 1; t < steps.length; t++) {
    before += outputTokens(steps[t - 1]!);
    const current = reduce(steps.slice(0, t));
    let shared = 0;
    let same = true;
    let total = 0;
    for (let i = 0; i < current.length; i++) {
      const s = current[i]!;
      const size = fixed[i]! + outputTokens(s);
      total += size;
      r.after += outputTokens(s);
      const p = previous[i];
      same = same && p !== undefined && p.observation === s.observation && p.error === s.error;
      if (same) shared += size;
    }
    if (t > 1) {
      r.retained += shared;
      r.context += previousTokens;
    }
    r.before += before;
    r.calls++;
    previous = current;
    previousTokens = total;
  }
  return {
    calls: r.calls,
    retainedTokens: r.retained,
    contextTokens: r.context,
    retainedPercent: pct(r.retained, r.context),
    observationTokensBefore: r.before,
    observationTokensAfter: r.after,
    observationSavedPercent: pct(r.before - r.after, r.before),
  };
}

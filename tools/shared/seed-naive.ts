/**
 * A naive, faithful port of seed 004's detection, the baseline of the evaluation and the benchmark:
 * lower-case the turn, then `includes` every marker of a list until one hits. Like the seed, its
 * `"I said"` and `"I meant"` never match (they are looked up in lower-cased text).
 */
import { SEED_MARKERS } from './seed-markers';

export interface SeedSignals {
  correction: boolean;
  preference: boolean;
  friction: boolean;
}

export function seedClassify(text: string): SeedSignals {
  const lower = text.toLowerCase();
  return {
    correction: SEED_MARKERS.correction.some((m) => lower.includes(m)),
    preference: SEED_MARKERS.preference.some((m) => lower.includes(m)),
    friction: SEED_MARKERS.friction.some((m) => lower.includes(m)),
  };
}

/** The seed's whole `heuristic_reflect` loop over user messages, naive as written. */
export function naiveSeedReflect(
  messages: readonly { role: string; content: string; id?: string }[],
): number {
  let found = 0;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const s = seedClassify(m.content);
    if (s.correction) found++;
    if (s.preference) found++;
    if (s.friction) found++;
  }
  return found;
}

/**
 * Hostile doubles shared by the "never rejects, never hangs" tests of reduceTrajectory
 * (reduce.test.ts) and computeTrajectoryReduction (snapshot-never-rejects.test.ts).
 */
import type { LlmClient } from '../../lib/llm/index';

/** A client that never answers and ignores its signal: only a race can end the call. */
export function deaf(): LlmClient & { calls: number } {
  const c = {
    calls: 0,
    complete() {
      c.calls++;
      return new Promise<never>(() => {});
    },
  };
  return c;
}

/** The scripted reply of a property run: `{ reject }` rejects with its value, anything else is returned. */
export async function answer(reply: unknown): Promise<never> {
  if (typeof reply === 'object' && reply !== null && 'reject' in reply) throw reply.reject;
  return reply as never;
}

/** Fails the test instead of hanging when `p` does not settle within `ms`. */
export function within<T>(p: Promise<T>, ms = 2000): Promise<T> {
  return Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms),
    ),
  ]);
}

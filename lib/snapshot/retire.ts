/**
 * Step 10 of {@link computeTrajectoryReduction}: which items of the previous snapshot the current one
 * retires, and why.
 */
import { classify, comparableKey, contentTerms, squash, words } from '../categorise/index.js';
import { CATEGORIES } from './deterministic.js';
import type { ActiveContextSnapshot, RetiredTrajectoryRecord, SnapshotInput } from './types.js';

/**
 * The current iteration: given, else the highest sourceIteration (0 when there are no entries). Here,
 * not in reflect.ts, so that retirements (which the playground shows at once) do not pull the
 * reflection's parser into a first visit's JavaScript.
 */
export function currentIteration(input: SnapshotInput): number {
  if (typeof input.iteration === 'number' && Number.isFinite(input.iteration)) return input.iteration;
  let max = 0;
  for (const e of input.entries ?? []) max = Math.max(max, Number(e.sourceIteration) || 0);
  return max;
}

/**
 * Step 10's retirements: items of the previous snapshot the current one no longer holds (compared by
 * comparable key, or as a near duplicate of a current item of the same category). `resolved` when a
 * current entry reports it fixed or gone and shares its words; `superseded` otherwise. Independent of
 * which path produced `current` (safety invariant 4).
 *
 * @example
 * ```ts
 * computeRetirements(previous, snapshot, input); // [{ category: 'blockers', text: 'CI is red', reason: 'resolved', … }]
 * ```
 */
export function computeRetirements(
  previous: ActiveContextSnapshot | null,
  current: ActiveContextSnapshot,
  input: SnapshotInput,
  threshold = 0.6,
): RetiredTrajectoryRecord[] {
  if (!previous) return [];
  const iteration = currentIteration(input);
  let resolvers: { id: string; terms: Set<string> }[] | undefined;
  const out: RetiredTrajectoryRecord[] = [];
  for (const c of CATEGORIES) {
    const now = (current[c] ?? []).map((t) => ({ key: comparableKey(t), terms: contentTerms(words(t)) }));
    const keys = new Set(now.map((n) => n.key));
    for (const text of previous[c] ?? []) {
      const key = comparableKey(text);
      if (key === '' || keys.has(key)) continue;
      const terms = contentTerms(words(text));
      if (now.some((n) => overlap(terms, n.terms) / Math.max(1, union(terms, n.terms)) >= threshold))
        continue;
      resolvers ??= (input.entries ?? []).flatMap((e, i) => {
        const v = squash(String(e.value ?? ''));
        return classify(words(v), v).resolved
          ? [{ id: `m${i + 1}`, terms: new Set(contentTerms(words(v))) }]
          : [];
      });
      const by = resolvers
        .filter((r) => {
          const shared = terms.filter((t) => r.terms.has(t)).length;
          return shared >= 2 || (shared >= 1 && shared * 2 >= terms.length);
        })
        .map((r) => r.id);
      out.push(
        by.length
          ? { category: c, text, reason: 'resolved', iteration, resolvedBy: by }
          : { category: c, text, reason: 'superseded', iteration },
      );
    }
  }
  return out;
}

function overlap(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (const t of a) if (b.includes(t)) n++;
  return n;
}

function union(a: readonly string[], b: readonly string[]): number {
  return a.length + b.length - overlap(a, b);
}

/** Shared by the snapshot rule tests: the category the deterministic snapshot puts one note in. */
import { deterministicSnapshot } from '../../lib/snapshot/index';

const CATS = [
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
] as const;

/** The category the snapshot puts one note in, or 'none'. */
export function where(value: string): string {
  const s = deterministicSnapshot({
    objective: '',
    entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
  });
  return CATS.find((c) => s[c].includes(value)) ?? 'none';
}

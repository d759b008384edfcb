/** Shared by the snapshot rule tests: the category the deterministic snapshot puts one note in. */
import { CATEGORIES, deterministicSnapshot } from '../../lib/snapshot/index';

/** The category the snapshot puts one note in, or 'none'. */
export function where(value: string): string {
  const s = deterministicSnapshot({
    objective: '',
    entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
  });
  return CATEGORIES.find((c) => s[c].includes(value)) ?? 'none';
}

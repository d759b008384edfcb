/** Shared by the snapshot rule tests: the category the deterministic snapshot puts one note in. */
import { CATEGORIES, deterministicSnapshot, listedText } from '../../lib/snapshot/index';

/** The category the snapshot puts one note in, or 'none'. */
export function where(value: string): string {
  const s = deterministicSnapshot({
    objective: '',
    entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
  });
  // A link in Markdown dress is listed as the link (and only when it is evidence).
  return (
    CATEGORIES.find((c) => s[c].includes(value)) ??
    (s.requiredEvidenceLinks.includes(listedText(value)) ? 'requiredEvidenceLinks' : 'none')
  );
}

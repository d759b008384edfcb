/** Shared by the snapshot rule tests: the category the deterministic snapshot puts one note in. */
import { ownCategories } from '../../tools/shared/own-category';

/** The category the snapshot puts one note in, or 'none'. */
export function where(value: string): string {
  return ownCategories({
    objective: '',
    entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
  })[0]!;
}

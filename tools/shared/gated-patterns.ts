/**
 * Every categoriser pattern that has gate data, by the id the library looks it up by: the rows of the
 * stance, evidence and opening tables, and the named forms of forms.ts. `npm run gates` derives
 * their data (gate-derive.ts); the test compares it with lib/categorise/gates-data.ts.
 */
import { FORMS_GATED } from '../../lib/categorise/forms.js';
import { LEAD_RULES } from '../../lib/categorise/lead-rules.js';
import { EVIDENCE_RULES } from '../../lib/categorise/located-rules.js';
import { STANCE_RULES } from '../../lib/categorise/stance-rules.js';

/** `[id, pattern]` of every gated pattern, in a stable order. */
export function gatedPatterns(): [string, RegExp][] {
  return [
    ...STANCE_RULES.map((r): [string, RegExp] => [r.id, r.pattern]),
    ...EVIDENCE_RULES.map((r): [string, RegExp] => [r.id, r.pattern]),
    ...LEAD_RULES.map((r): [string, RegExp] => [r.id, r.pattern]),
    ...Object.entries(FORMS_GATED),
  ];
}

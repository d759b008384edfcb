/**
 * The actionable sentence of a correction or a preference, as the reference design extracts it.
 */
import { truncateUtf8 } from '../core/index.js';
import { STATES_RULE } from './score.js';

const RECOMMENDATION_MARKERS = ['instead,', 'actually,', 'please ', 'use ', "don['’]t "];
/** Compiled on first use (not at module scope), then reused for every insight. */
let recommendationRes: RegExp[] | undefined;

/** The words just before `use ` that belong to the rule: "Never use any" is not "use any". */
const LEADING = /(?:\b(?:never|always|(?:do )?not|don['’]?t)\s+)+$/i;

/**
 * The actionable part of a correction, as in the reference design: from the first of `instead,`, `actually,`,
 * `please `, `use `, `don't ` (in that order of preference, case-insensitive, at a word start; with
 * a `never`, `always`, `not` or `don't` just before it) to the next `.` or 150 bytes; else, for a preference
 * (`preference` true), the sentence that states its rule (`prefer`, `rather`, `always`, `never`, `from
 * now on`…), else its first sentence (a preference a scorer or another language's markers found has
 * no English rule word, and is not a correction); else "Apply the user's correction.".
 *
 * @example
 * ```ts
 * extractRecommendation('No. Please use the fixture. Thanks'); // 'Please use the fixture'
 * extractRecommendation('Never use any in TypeScript.'); // 'Never use any in TypeScript'
 * extractRecommendation('Perfect. From now on run the migrations first.', true); // 'From now on run the migrations first'
 * extractRecommendation('Prefiero pnpm. Gracias', true); // 'Prefiero pnpm'
 * ```
 */
export function extractRecommendation(text: string, preference = false): string {
  if (typeof text === 'string') {
    // Last, a preference's own: the sentence that states its rule ("Perfect. From now on always…"),
    // else its first sentence.
    recommendationRes ??= [
      ...RECOMMENDATION_MARKERS.map((m) => new RegExp(`(?<![a-z])${m}`, 'i')),
      STATES_RULE,
      /\S/,
    ];
    for (const marker of recommendationRes.slice(0, preference ? undefined : -2)) {
      const found = marker.exec(text);
      if (!found) continue;
      const before = LEADING.exec(text.slice(Math.max(0, found.index - 24), found.index));
      const rest = text.slice(found.index - (before?.[0].length ?? 0));
      const dot = rest.indexOf('.');
      const out = (dot >= 0 ? rest.slice(0, dot) : truncateUtf8(rest, 150)).trim();
      if (out) return out;
    }
  }
  return "Apply the user's correction.";
}

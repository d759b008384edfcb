/**
 * The actionable sentence of a correction or a preference, as the reference design extracts it.
 */
import { truncateUtf8 } from '../core/index.js';

const RECOMMENDATION_MARKERS = ['instead,', 'actually,', 'please ', 'use ', "don['’]t "];
/** Compiled on first use (not at module scope), then reused for every insight. */
let recommendationRes: RegExp[] | undefined;

/**
 * The actionable part of a correction, as in the reference design: from the first of `instead,`, `actually,`,
 * `please `, `use `, `don't ` (in that order of preference, case-insensitive, at a word start) to the
 * next `.` or 150 bytes; else "Apply the user's correction.".
 *
 * @example
 * ```ts
 * extractRecommendation('No. Please use the fixture. Thanks'); // 'Please use the fixture'
 * ```
 */
export function extractRecommendation(text: string): string {
  if (typeof text === 'string') {
    recommendationRes ??= RECOMMENDATION_MARKERS.map((m) => new RegExp(`(?<![a-z])${m}`, 'i'));
    for (const marker of recommendationRes) {
      const found = marker.exec(text);
      if (!found) continue;
      const rest = text.slice(found.index);
      const dot = rest.indexOf('.');
      const out = (dot >= 0 ? rest.slice(0, dot) : truncateUtf8(rest, 150)).trim();
      if (out) return out;
    }
  }
  return "Apply the user's correction.";
}

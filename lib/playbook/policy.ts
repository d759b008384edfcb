/**
 * The insight → key point policy: which heuristic insights teach something durable, which section
 * they belong to and how their text reads. One policy for every caller (the session facade, the
 * playground, an app's own "add to playbook" button), so the same turn always becomes the same key
 * point.
 *
 * @module
 */
import { truncateUtf8 } from '../core/index.js';
import type { SectionName } from './model.js';
import { sanitizeKeyPointText } from './sanitize.js';

/**
 * The parts of a heuristic insight the policy reads; `ReflectionInsight` from `rearview/heuristic`
 * fits as it is.
 */
export interface InsightLike {
  /** `correction`, `preference`, `friction`; other categories propose nothing. */
  category: string;
  /** How sure the detector is; compared with `minConfidence` for corrections. */
  confidence: 'high' | 'medium' | 'low';
  /** `approval` marks a bare "thanks, that works", which teaches nothing durable. */
  tags: readonly string[];
  /** The turn and its context, copied to the proposal as provenance. */
  traceRefs: readonly string[];
}

/** A key point the policy proposes from one insight: where it goes and what it says. */
export interface KeyPointProposal<Category extends string = string> {
  section: SectionName;
  text: string;
  /** The insight it comes from. */
  category: Category;
  /** `message:{id}` of the turn, then its context. */
  traceRefs: string[];
}

/** Options of {@link proposeKeyPoint}. */
export interface ProposeOptions {
  /**
   * Lowest confidence of a correction that becomes a key point. Default `'medium'` (challenging
   * questions such as "Shouldn't that use a fixture?" count; `'high'` keeps only explicit ones).
   */
  minConfidence?: 'high' | 'medium' | 'low';
}

const CONFIDENCE_RANK = { high: 3, medium: 2, low: 1 } as const;
const RECOMMENDATION_MARKERS = [
  /(?<![a-z])instead,/i,
  /(?<![a-z])actually,/i,
  /(?<![a-z])please /i,
  /(?<![a-z])use /i,
  /(?<![a-z])don['’]t /i,
];

/**
 * Turns one heuristic insight about a user turn into a key point, or `undefined` when it teaches
 * nothing durable. A correction goes to MISTAKES TO AVOID, a preference (not a bare approval) and a
 * friction that says what to do go to USER PREFERENCES. The text is the specific advice in the turn as
 * a sentence (`No, use pnpm instead of npm.` → `Use pnpm instead of npm.`), else the turn quoted on
 * one line (`The user corrected this: "…"`, `User preference: "…"`). Corrections below
 * `minConfidence` and other categories give `undefined`. Pure; redaction is the caller's (the text
 * quotes the user).
 *
 * @param insight - the insight, e.g. one of `heuristicReflect(messages)`.
 * @param turnText - the full text of the user turn the insight was read from.
 *
 * @example
 * ```ts
 * const [insight] = heuristicReflect([{ role: 'user', content: 'No, use pnpm instead of npm.' }]);
 * proposeKeyPoint(insight, 'No, use pnpm instead of npm.');
 * // { section: 'MISTAKES TO AVOID', text: 'Use pnpm instead of npm.', category: 'correction', traceRefs: ['message:m0'] }
 * ```
 */
export function proposeKeyPoint<I extends InsightLike>(
  insight: I,
  turnText: string,
  options: ProposeOptions = {},
): KeyPointProposal<I['category']> | undefined {
  const text = typeof turnText === 'string' ? turnText : '';
  const make = (section: SectionName, keyPointText: string): KeyPointProposal<I['category']> => ({
    section,
    text: keyPointText,
    category: insight.category,
    traceRefs: [...insight.traceRefs],
  });
  switch (insight.category) {
    case 'correction': {
      const min = CONFIDENCE_RANK[options.minConfidence ?? 'medium'];
      if ((CONFIDENCE_RANK[insight.confidence] ?? 0) < min) return undefined;
      const advice = specificAdvice(text);
      return make(
        'MISTAKES TO AVOID',
        advice ? sentence(advice) : `The user corrected this: ${quote(text, 200)}`,
      );
    }
    case 'preference': {
      if (insight.tags.includes('approval')) return undefined;
      const advice = specificAdvice(text);
      return make('USER PREFERENCES', advice ? sentence(advice) : `User preference: ${quote(text, 200)}`);
    }
    case 'friction': {
      // Repetition is worth remembering only when it says what to do.
      const advice = specificAdvice(text);
      return advice ? make('USER PREFERENCES', sentence(advice)) : undefined;
    }
    default:
      return undefined;
  }
}

/** The specific advice in a turn (`use pnpm instead of npm`), or undefined when there is none. */
function specificAdvice(text: string): string | undefined {
  for (const marker of RECOMMENDATION_MARKERS) {
    const found = marker.exec(text);
    if (!found) continue;
    const rest = text.slice(found.index);
    // A sentence ends at . ! ? followed by a space or the end (not inside `jane.doe` or `v1.2`).
    const end = rest.search(/[.!?](?=\s|$)|\n/);
    let out = truncateUtf8(end >= 0 ? rest.slice(0, end) : rest, 200).trim();
    out = out.replace(/^(?:instead|actually),\s*/i, '').replace(/^please\s+/i, '');
    if (out.split(/\s+/).length >= 2) return out;
  }
  return undefined;
}

function sentence(text: string): string {
  const t = text.trim().replace(/[,;:]+$/, '');
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(cap) ? cap : `${cap}.`;
}

function quote(text: string, bytes: number): string {
  const oneLine = sanitizeKeyPointText(text);
  const cut = truncateUtf8(oneLine, bytes);
  return `"${cut}${cut.length < oneLine.length ? '…' : ''}"`;
}

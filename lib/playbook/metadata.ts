/**
 * `insightMetadata`: the reference design's `insight_metadata`, the record a fact store keeps for an
 * insight (provenance and usage counters). Here, not in `rearview/heuristic`: storing is not detecting,
 * and that entry's eager code has an 8 KB budget.
 */
import type { InsightLike } from './policy.js';

/** Where a fact came from. */
export interface InsightProvenance {
  /** `reflection` for the analysis itself, `trace` for each raw trace reference. */
  source: string;
  reference: string;
  /** ISO timestamp. */
  date: string;
}

/** Metadata for storing an insight as a fact (the reference design's `FactMetadata`). */
export interface FactMetadata {
  confidence: string;
  provenance: InsightProvenance[];
  affectedFiles: string[];
  tags: string[];
  category: string;
  usageCount: number;
  helpfulCount: number;
  outdatedReports: number;
  tenantId?: string;
}

/**
 * Provenance for an insight (any with `category`, `confidence`, `tags` and `traceRefs`: a
 * `ReflectionInsight` of `rearview/heuristic` fits): one `reflection` entry, then one `trace` entry per trace reference, so a
 * consumer can walk back to the raw turns or steps. `now` defaults to the current time.
 *
 * @throws {RangeError} when `now` is not a valid date.
 *
 * @example
 * ```ts
 * insightMetadata(insight, '2025-01-01T00:00:00.000Z').provenance[1]; // { source: 'trace', reference: 'message:m3', … }
 * ```
 */
export function insightMetadata<I extends InsightLike>(
  insight: I,
  now: Date | string | number = new Date(),
): FactMetadata {
  const date = (now instanceof Date ? now : new Date(now)).toISOString();
  const provenance: InsightProvenance[] = [
    { source: 'reflection', reference: 'conversation analysis', date },
  ];
  for (const ref of Array.isArray(insight.traceRefs) ? insight.traceRefs : []) {
    provenance.push({ source: 'trace', reference: ref, date });
  }
  return {
    confidence: insight.confidence,
    provenance,
    affectedFiles: [],
    tags: Array.isArray(insight.tags) ? [...insight.tags] : [],
    category: insight.category,
    usageCount: 0,
    helpfulCount: 0,
    outdatedReports: 0,
  };
}

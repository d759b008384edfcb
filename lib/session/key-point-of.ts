/**
 * Which key point an insight led to: the one link the CLI's report and the playground's Insights tab
 * both show, so they cannot disagree about it.
 */

/**
 * For each insight, in order, the index in `proposed` of the key point written from it, or `null`
 * when none was (the insight is evidence only). A key point is written from the turn it names first
 * (`traceRefs[0]`): its other references are the turn before and the reply it answered, which may be
 * another insight's turn, so only the first reference links. A lesson the dedup merged into another
 * turn's key point links to none. Linear; never throws on malformed entries.
 *
 * @example
 * ```ts
 * const { insights, proposed } = lessons({ messages });
 * keyPointOf(insights, proposed); // e.g. [null, 0]: the second insight's turn gave key point 0
 * ```
 */
export function keyPointOf(
  insights: readonly { traceRefs?: readonly string[] }[],
  proposed: readonly { traceRefs?: readonly string[] }[],
): (number | null)[] {
  const byTurn = new Map<string, number>();
  if (Array.isArray(proposed))
    proposed.forEach((p, i) => {
      const turn = p?.traceRefs?.[0];
      if (typeof turn === 'string' && !byTurn.has(turn)) byTurn.set(turn, i);
    });
  if (!Array.isArray(insights)) return [];
  return insights.map((ins) => {
    const turn = ins?.traceRefs?.[0];
    return typeof turn === 'string' ? (byTurn.get(turn) ?? null) : null;
  });
}

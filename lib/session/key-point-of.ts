/**
 * Which key points an insight led to: the one link the CLI's report and the playground's Insights tab
 * both show, so they cannot disagree about it.
 */

/**
 * For each insight, in order, the indexes in `proposed` of the key points written from it: one per
 * standing instruction of its turn, in order, or none when the insight is evidence only. A key point
 * is written from the turn it names first (`traceRefs[0]`): its other references are the turn before
 * and the reply it answered, which may be another insight's turn, so only the first reference links.
 * A lesson the dedup merged into another turn's key point links to none. Linear; never throws on
 * malformed entries.
 *
 * @example
 * ```ts
 * const { insights, proposed } = lessons({ messages });
 * keyPointOf(insights, proposed); // e.g. [[], [0, 1]]: the second insight's turn gave key points 0 and 1
 * ```
 */
export function keyPointOf(
  insights: readonly { traceRefs?: readonly string[] }[],
  proposed: readonly { traceRefs?: readonly string[] }[],
): number[][] {
  const byTurn = new Map<string, number[]>();
  if (Array.isArray(proposed))
    proposed.forEach((p, i) => {
      const turn = p?.traceRefs?.[0];
      if (typeof turn !== 'string') return;
      const at = byTurn.get(turn);
      if (at) at.push(i);
      else byTurn.set(turn, [i]);
    });
  if (!Array.isArray(insights)) return [];
  return insights.map((ins) => {
    const turn = ins?.traceRefs?.[0];
    return typeof turn === 'string' ? [...(byTurn.get(turn) ?? [])] : [];
  });
}

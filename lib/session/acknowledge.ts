/**
 * How a session reads its people's turns with the heuristics, and what the agent's reply after a turn
 * adds. `heuristicReflect` reads each turn as it came; a session also sees the reply that follows, and
 * with a scorer that reads it (`TurnScorer.acknowledges`: `readerModel`'s) a reply that owns a mistake
 * ("You're right, …") has the turn scored again with `acknowledged`. The correction that only then
 * passes its threshold is reported with the reply — after the turn's own insights, the reply last in its
 * references, tagged `acknowledged` — whether the turn and the reply came in one call or two, and it
 * proposes no key point (the person's words did not carry it).
 */
import { contentText } from '../core/index.js';
import {
  askScorer,
  DEFAULT_MIN_SCORE,
  type HeuristicOptions,
  type MessageLike,
  opensSession,
  type ReflectionInsight,
  type ScoredTurn,
  scoreTurns,
  type TurnEvidence,
  type TurnScorer,
  type TurnScores,
  turnInsights,
} from '../heuristic/index.js';

/** A person's turn as the session first read it, waiting for the agent's reply. */
export interface PendingAck {
  turn: ScoredTurn;
  evidence: TurnEvidence;
  markers: TurnScores;
  /** The turn already gave a correction: a reply can add none. */
  corrected: boolean;
}

/** What one window's reading gives: its insights in order, the fresh turns waiting for a reply, the texts the markers report. */
export interface WindowReading {
  insights: ReflectionInsight[];
  pending: Map<string, PendingAck>;
  /** With a scorer: the texts of the turns the markers alone report (key points come only from those). */
  reported: Set<string> | undefined;
}

/**
 * Reads `window` as `heuristicReflect` does (the same insights, in order, for the turns from `from`
 * on), noting for each turn whose reference is in `fresh` what a reply after it would be scored with.
 * The turns before `from` are context (a repeated request, the previous turn): the caller drops their
 * insights, so the scorer — the reader is most of a call's cost — reads only the turns from `from` on,
 * and those before keep the markers' scores. With a scorer it also notes the
 * texts of the turns the markers alone would report (a marker score at `DEFAULT_MIN_SCORE` or above:
 * a scorer is told the markers' scores of each turn). The session writes key points only from those
 * turns: a scorer finds more corrections than the markers, more of them right, but the turns it adds
 * by their shape and context (a pasted error after "it works now", a pasted brief, a persona prompt)
 * hold no rule, and blind judges rejected every key point they gave over the shared data
 * (eval/heuristic/KEYPOINT-JUDGING.md, 6 December 2026). The price: a rule only the scorer finds is
 * not written either. `learn` is not held so (its rules need two sessions' evidence).
 */
export function readWindow(
  window: readonly MessageLike[],
  heuristic: HeuristicOptions,
  ref: (m: MessageLike, i: number) => string,
  fresh: ReadonlySet<string>,
  from = 0,
): WindowReading {
  const scorer = typeof heuristic.scorer === 'function' ? heuristic.scorer : undefined;
  const insights: ReflectionInsight[] = [];
  const pending = new Map<string, PendingAck>();
  if (!scorer) {
    scoreTurns(window, { ...heuristic, ref }, (turn) => turnInsights(turn, minScoreOf(heuristic), insights));
    return { insights, pending, reported: undefined };
  }
  const reported = new Set<string>();
  // How many turns before `from` the scorer would be asked about: a turn's reading depends only on the
  // messages up to it, so reading the context alone with a scorer that changes nothing counts them.
  let context = 0;
  if (from > 0) scoreTurns(window.slice(0, from), { ...heuristic, scorer: (_e, s) => s }, () => context++);
  let calls = 0;
  let told: { evidence: TurnEvidence; markers: TurnScores } | undefined;
  const noted: TurnScorer = (evidence, markers) => {
    const { correction, preference, approval, friction } = markers;
    if (Math.max(correction, preference, approval, friction) >= DEFAULT_MIN_SCORE)
      reported.add(evidence.text);
    if (calls++ < context) return markers;
    told = { evidence, markers: { ...markers } };
    return scorer(evidence, markers);
  };
  const acknowledges = typeof scorer.acknowledges === 'function';
  const min = minScoreOf(heuristic);
  scoreTurns(window, { ...heuristic, scorer: noted, ref }, (turn) => {
    const from = insights.length;
    turnInsights(turn, min, insights);
    if (acknowledges && told && fresh.has(turn.ref)) {
      const corrected = insights.length > from && insights[from]!.category === 'correction';
      pending.set(turn.ref, { turn, evidence: told.evidence, markers: told.markers, corrected });
    }
    told = undefined;
  });
  return { insights, pending, reported };
}

/**
 * The corrections the agent's replies among `window[from …]` confirm, each with the index of its reply:
 * `awaiting` is the turn read before this window (or undefined), `pending` the turns read in it. Also
 * the turn still waiting at the end, and the one waiting before the last message (for its undo).
 */
export function acknowledgements(
  window: readonly MessageLike[],
  from: number,
  ref: (m: MessageLike, i: number) => string,
  reading: WindowReading,
  awaiting: PendingAck | undefined,
  heuristic: HeuristicOptions,
): { found: { at: number; insight: ReflectionInsight }[]; awaiting?: PendingAck; beforeLast?: PendingAck } {
  const found: { at: number; insight: ReflectionInsight }[] = [];
  let beforeLast = awaiting;
  const scorer = heuristic.scorer;
  if (typeof scorer !== 'function' || typeof scorer.acknowledges !== 'function') return { found };
  for (let w = from; w < window.length; w++) {
    if (w === window.length - 1) beforeLast = awaiting;
    const m = window[w];
    if (m === null || typeof m !== 'object' || m.synthetic) continue;
    const text = contentText(m.content);
    // As `acknowledgedBy` (rearview/heuristic-model) reads a transcript whole: a new session's header
    // ends the wait; tool output is passed over; the first message with text ends it.
    if (m.role === 'system') {
      if (opensSession(m, text)) awaiting = undefined;
      continue;
    }
    const user = m.role === 'user' || m.role === 'human';
    if ((!user && m.role !== 'assistant') || text === undefined || !/\S/.test(text)) continue;
    if (user) {
      awaiting = reading.pending.get(ref(m, w));
      continue;
    }
    const insight = awaiting && confirmed(awaiting, text, ref(m, w), scorer, minScoreOf(heuristic));
    if (insight) found.push({ at: w, insight });
    awaiting = undefined;
  }
  return { found, awaiting, beforeLast };
}

/**
 * The turns' insights (in message order) and the confirmed corrections (each at its reply's position,
 * in order) as one list in message order: one pass over both.
 */
export function mergeByPosition(
  insights: readonly ReflectionInsight[],
  confirmed: readonly { at: number; insight: ReflectionInsight }[],
  positionOf: (i: ReflectionInsight) => number,
): ReflectionInsight[] {
  if (confirmed.length === 0) return insights.slice();
  const out: ReflectionInsight[] = [];
  let k = 0;
  for (const insight of insights) {
    const at = positionOf(insight);
    while (k < confirmed.length && confirmed[k]!.at < at) out.push(confirmed[k++]!.insight);
    out.push(insight);
  }
  while (k < confirmed.length) out.push(confirmed[k++]!.insight);
  return out;
}

/** The correction `reply` confirms for the waiting turn, if it owns a mistake and the score then passes. */
function confirmed(
  p: PendingAck,
  reply: string,
  replyRef: string,
  scorer: TurnScorer,
  minScore: number | Partial<TurnScores>,
): ReflectionInsight | undefined {
  if (p.corrected) return undefined;
  let owns = false;
  try {
    owns = scorer.acknowledges?.(reply) === true;
  } catch {
    return undefined;
  }
  if (!owns) return undefined;
  // Asked as `heuristicReflect` asks (it hands the scorer a copy); the markers' own scores back mean
  // the scorer gave none.
  const again = askScorer(scorer, { ...p.evidence, acknowledged: true }, p.markers);
  if (again === p.markers) return undefined;
  const out: ReflectionInsight[] = [];
  const scores = { correction: again.correction, preference: 0, approval: 0, friction: 0 };
  turnInsights({ ...p.turn, scores }, minScore, out);
  const insight = out[0];
  if (!insight) return undefined;
  insight.tags.push('acknowledged');
  insight.traceRefs.push(replyRef);
  return insight;
}

/** `heuristicReflect`'s reading of `minScore`. */
function minScoreOf(heuristic: HeuristicOptions): number | Partial<TurnScores> {
  const m = heuristic.minScore;
  return typeof m === 'number' || (m !== null && typeof m === 'object') ? m : DEFAULT_MIN_SCORE;
}

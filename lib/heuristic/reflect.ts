/**
 * `heuristicReflect`: the reference design's `heuristic_reflect` on rearview messages, with the word- and
 * context-aware detector of `scanner.ts` in place of substring markers.
 */
import { contentText, defaultRef, truncateUtf8 } from '../core/index.js';
import { DEFAULT_MARKERS, type MarkerSet } from './markers.js';
import { extractRecommendation } from './recommend.js';
import {
  CHALLENGE,
  CORRECTION,
  type CompiledMarkers,
  compileMarkers,
  FRICTION,
  POSITIVE,
  PREFERENCE,
  scanTurn,
} from './scanner.js';
import {
  confidenceOf,
  DEFAULT_MIN_SCORE,
  INTERRUPTED,
  opensSession,
  REPEAT,
  repeatFinder,
  reportsInterrupt,
  STATED,
  STATED_MAX,
  STATES_RULE,
  type TurnScores,
  turnScores,
  UNDO,
} from './score.js';
import type { MessageLike, ReflectionInsight } from './types.js';

/**
 * Options of {@link heuristicReflect}.
 *
 * @example
 * ```ts
 * const options: HeuristicOptions = { markers: { ...DEFAULT_MARKERS, friction: [...DEFAULT_MARKERS.friction, 'ffs'] } };
 * ```
 */
export interface HeuristicOptions {
  /** Marker lists (default {@link DEFAULT_MARKERS}), or lists compiled once with {@link compileMarkers}. */
  markers?: MarkerSet | CompiledMarkers;
  /**
   * Builds a turn's trace reference. Default `message:{id}`, with `id = message.id ?? 'm' + index`.
   * Called only for the messages an insight (or an escalated turn) names, not for every message.
   */
  ref?: (message: MessageLike, index: number) => string;
  /**
   * Insights whose `score` is below this are not reported. Default {@link DEFAULT_MIN_SCORE} (chosen
   * for precision ≥ 0.85 in every category on authors the detector was never tuned on); 0 keeps every
   * insight with any evidence. Per category (`{ correction: 0.8, friction: 0.9 }`) for a scorer whose
   * categories have thresholds of their own (`READER_MIN_SCORE` of `rearview/heuristic-model`); a
   * category left out keeps the default.
   */
  minScore?: number | Partial<TurnScores>;
  /**
   * A learned scorer (for example `correctionModel` from `rearview/heuristic-model`): called for every
   * turn a person wrote, with what the detector found, it returns the turn's scores (it may keep the
   * marker scores it is given). A scorer that throws leaves the marker scores in place.
   */
  scorer?: TurnScorer;
}

/**
 * What a {@link TurnScorer} is told about one user turn: its text, the marker detector's signals and
 * the context the transcript carries.
 *
 * @example
 * ```ts
 * const scorer: TurnScorer = (turn, scores) => (turn.undo ? { ...scores, correction: 1 } : scores);
 * ```
 */
export interface TurnEvidence {
  text: string;
  signals: Omit<TurnSignals, 'positive'>;
  /** A tool call was interrupted or rejected since the previous user turn (or after an `/undo`). */
  interrupted: boolean;
  /** The turn repeats an earlier request of the conversation. */
  repeat: boolean;
  /** The turn is aider's `/undo`. */
  undo: boolean;
  /** No earlier user turn in the conversation: a task, seldom a correction. */
  first: boolean;
  /** The message this turn answers (normally the assistant's reply), if any. */
  reply: string | undefined;
  /**
   * The agent's next reply owns a mistake ("You're right", "I apologize"): set by `observe`
   * (`rearview/session`) when that reply comes, for a scorer with `acknowledges`; never by
   * `heuristicReflect`, which reads each turn as it came.
   */
  acknowledged?: boolean;
}

/**
 * Scores one user turn from its evidence; `scores` are the marker detector's.
 *
 * @example
 * ```ts
 * heuristicReflect(messages, { scorer: (turn, scores) => scores });
 * ```
 */
export type TurnScorer = {
  (turn: TurnEvidence, scores: TurnScores): TurnScores;
  /**
   * Whether the agent's first reply after a turn acknowledges it as a correction (`ownsMistake` of
   * `rearview/heuristic-model`). With it, `observe` (`rearview/session`) scores a turn again with
   * `acknowledged` when that reply comes, and reports the correction the reply confirms.
   */
  acknowledges?: (reply: string) => boolean;
};

/** What {@link classifyTurn} found in one user turn. */
export interface TurnSignals {
  /** Any correction: an explicit one or a challenging question. */
  correction: boolean;
  /** Only a challenging question ("Shouldn't that…?") marked it as a correction. */
  challenge: boolean;
  /** A lasting rule for the future ("I prefer…", "from now on…"). */
  preference: boolean;
  /** Approval of what the assistant did ("Perfect!", "LGTM"): `approval`, not a preference. */
  approval: boolean;
  /** Same as {@link TurnSignals.approval} (its name before approval became a category of its own). */
  positive: boolean;
  friction: boolean;
}

let defaultCompiled: CompiledMarkers | undefined;
let compiledCache: WeakMap<object, CompiledMarkers> | undefined;

/** @internal */
export function resolveMarkers(markers: MarkerSet | CompiledMarkers | undefined): CompiledMarkers {
  // Absent, the defaults themselves, or not an object at all: the compiled defaults.
  if (typeof markers !== 'object' || markers === null || markers === DEFAULT_MARKERS) {
    defaultCompiled ??= compileMarkers(DEFAULT_MARKERS);
    return defaultCompiled;
  }
  if ('byFirst' in markers) return markers;
  compiledCache ??= new WeakMap();
  let compiled = compiledCache.get(markers);
  if (!compiled) {
    compiled = compileMarkers(markers);
    compiledCache.set(markers, compiled);
  }
  return compiled;
}

/**
 * Classifies one user turn. Linear in its length; never throws.
 *
 * @example
 * ```ts
 * classifyTurn('Shouldn\'t that be using a fixture?').correction; // true
 * classifyTurn('Is 49 a perfect square?').preference;             // false
 * ```
 */
export function classifyTurn(text: string, markers?: MarkerSet | CompiledMarkers): TurnSignals {
  return signalsOf(scanTurn(text, resolveMarkers(markers)));
}

/** The signals named by the scanner's bits. */
function signalsOf(bits: number): TurnSignals {
  return {
    correction: (bits & (CORRECTION | CHALLENGE)) !== 0,
    challenge: (bits & (CORRECTION | CHALLENGE)) === CHALLENGE,
    preference: (bits & PREFERENCE) !== 0,
    approval: (bits & POSITIVE) !== 0,
    positive: (bits & POSITIVE) !== 0,
    friction: (bits & FRICTION) !== 0,
  };
}

/**
 * @internal One scored user turn: what {@link heuristicReflect} and `llmReflect`'s escalation
 * (`rearview/llm-reflect`) read. Exported for that entry, not for applications: its shape may change.
 */
export interface ScoredTurn {
  index: number;
  ref: string;
  text: string;
  scores: TurnScores;
  /** @internal What the scores were computed from: the scanner's signal bits and the context bits. */
  bits: number;
  context: number;
  /** The previous user turn, and the message just before this one (normally the reply it answers). */
  prev: { text: string; ref: string } | undefined;
  lastOther: string | undefined;
  /** The text of the message {@link ScoredTurn.lastOther} names (the reply this turn answers). */
  lastOtherText: string | undefined;
}

/**
 * @internal Visits every user turn a person wrote that carries some evidence, scored with its context.
 * Skips synthetic messages; reads tool and assistant messages only for interruption notices. Exported
 * for `rearview/llm-reflect`'s escalation, not for applications.
 *
 * @example
 * ```ts
 * scoreTurns(messages, {}, (turn) => console.log(turn.ref, turn.scores.correction));
 * ```
 */
export function scoreTurns(
  messages: readonly MessageLike[],
  options: HeuristicOptions | undefined,
  visit: (turn: ScoredTurn) => void,
): void {
  if (!Array.isArray(messages)) return;
  const compiled = resolveMarkers(options?.markers);
  const refOf = typeof options?.ref === 'function' ? options.ref : defaultRef;
  const scorer = typeof options?.scorer === 'function' ? options.scorer : undefined;
  // Most turns carry no evidence: their reference, and the previous-turn record, are built only for
  // the turns that are visited (or named as a visited turn's previous turn), not for every turn.
  let prevIndex = -1;
  let prevText = '';
  let prevRef: string | undefined;
  let lastOtherIndex = -1;
  let lastOtherText: string | undefined;
  let context = 0;
  // Whether the agent has answered yet in this session: a person's turn before any reply (the task
  // that opens a session, a request re-sent while the model kept failing) has nothing to correct.
  let answered = false;
  const repeats = repeatFinder();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    // A turn no person wrote (a continuation summary, a command expansion…) teaches nothing.
    if (m === null || typeof m !== 'object' || m.synthetic) continue;
    const text = contentText(m.content);
    const user = m.role === 'user' || m.role === 'human';
    if (text !== undefined && (!user || text.startsWith('[Request interrupted')) && reportsInterrupt(text)) {
      context |= INTERRUPTED;
      if (user) continue;
    }
    if (!user) {
      if (m.role === 'assistant') answered = true;
      else if (opensSession(m, text)) answered = false;
      if (text !== undefined) {
        lastOtherIndex = i;
        lastOtherText = text;
      }
      continue;
    }
    if (text === undefined || text.trim() === '') continue;
    // `indexOf` first: a native search, cheaper than the regex on the many short turns.
    const undo = text.length < 64 && text.indexOf('/undo') >= 0 && /^\s*\/undo\b/.test(text);
    if (repeats(text)) context |= REPEAT;
    const bits = undo ? 0 : scanTurn(text, compiled);
    const ctx =
      context |
      (undo ? UNDO : 0) |
      (bits & PREFERENCE && text.length <= STATED_MAX && STATES_RULE.test(text) ? STATED : 0);
    let ref: string | undefined;
    // A turn without any evidence has nothing to report or escalate, unless a scorer reads it.
    if (bits !== 0 || ctx !== 0 || scorer) {
      let scores = turnScores(answered || ctx & INTERRUPTED ? bits : bits & ~(CORRECTION | CHALLENGE), ctx);
      if (scorer)
        scores = askScorer(
          scorer,
          {
            text,
            signals: signalsOf(bits),
            interrupted: (ctx & INTERRUPTED) !== 0,
            repeat: (ctx & REPEAT) !== 0,
            undo: (ctx & UNDO) !== 0,
            first: prevIndex < 0,
            reply: lastOtherText,
          },
          scores,
        );
      ref = refOf(m, i);
      if (prevIndex >= 0) prevRef ??= refOf(messages[prevIndex]!, prevIndex);
      visit({
        index: i,
        ref,
        text,
        scores,
        bits,
        context: ctx,
        prev: prevIndex >= 0 ? { text: prevText, ref: prevRef! } : undefined,
        lastOther: lastOtherIndex >= 0 ? refOf(messages[lastOtherIndex]!, lastOtherIndex) : undefined,
        lastOtherText,
      });
    }
    prevIndex = i;
    prevText = text;
    prevRef = ref;
    lastOtherIndex = -1;
    lastOtherText = undefined;
    // An undo is itself the correction; it is also the context of the turn that follows.
    context = undo ? INTERRUPTED : 0;
  }
}

/**
 * @internal A scorer's scores of `evidence`, or `scores` itself when it throws or returns something that
 * is not four scores in [0, 1]: how `heuristicReflect` asks, and how a session asks again when the
 * agent's reply comes (rearview/session).
 *
 * @example
 * ```ts
 * askScorer(() => { throw new Error('x'); }, evidence, scores) === scores; // true
 * ```
 */
export function askScorer(scorer: TurnScorer, evidence: TurnEvidence, scores: TurnScores): TurnScores {
  try {
    // A copy: the marker scores may be a shared frozen object, and a scorer may write to what it gets.
    const out = scorer(evidence, { ...scores });
    return out !== null && typeof out === 'object' && KINDS.every((k) => score01(out[k])) ? out : scores;
  } catch {
    return scores;
  }
}

const score01 = (x: unknown): boolean => typeof x === 'number' && x >= 0 && x <= 1;

const KINDS = ['correction', 'preference', 'approval', 'friction'] as const;

/**
 * @internal The insights of one scored turn at or above `minScore`, appended to `out`. Exported for
 * `rearview/llm-reflect`'s escalation, not for applications.
 *
 * @example
 * ```ts
 * const out: ReflectionInsight[] = [];
 * scoreTurns(messages, {}, (turn) => turnInsights(turn, DEFAULT_MIN_SCORE, out)); // = heuristicReflect(messages)
 * ```
 */
export function turnInsights(
  turn: ScoredTurn,
  minScore: number | Partial<TurnScores>,
  out: ReflectionInsight[],
): void {
  const { text, ref, prev, lastOther, scores } = turn;
  for (let k = 0; k < KINDS.length; k++) {
    const category = KINDS[k]!;
    const score = scores[category];
    const min = typeof minScore === 'number' ? minScore : (minScore[category] ?? DEFAULT_MIN_SCORE);
    // A correction that states a rule is one insight, not two: the scores still say both.
    if (!(score > 0 && score >= min) || (k === 1 && out.at(-1)?.traceRefs[0] === ref)) continue;
    const traceRefs = [ref];
    // "User correction: …", "User preference: …", "User approval: …", "Friction point: …".
    let fact = `${k < 3 ? `User ${category}` : 'Friction point'}: ${truncateUtf8(text, 200)}`;
    const tags = ['user_feedback', category];
    if (k === 0) {
      if (prev) {
        traceRefs.push(prev.ref);
        fact += ` (following: ${truncateUtf8(prev.text, 100)})`;
      }
      if (lastOther !== undefined && !traceRefs.includes(lastOther)) traceRefs.push(lastOther);
      if ((turn.bits & (CORRECTION | CHALLENGE)) === CHALLENGE) tags.push('question');
    }
    out.push({
      fact,
      recommendation:
        k === 2
          ? 'Continue this approach.'
          : k === 3
            ? 'Automate or remember this to avoid user repetition.'
            : extractRecommendation(text, k === 1),
      category,
      confidence: confidenceOf(score),
      score,
      tags,
      traceRefs,
    });
  }
}

/**
 * Finds user corrections, preferences, approvals and friction in a conversation without any model
 * call. Only turns a person wrote are analysed: messages flagged
 * `synthetic` (continuation summaries, command expansions, hook output, an agent's task) are skipped
 * as if absent. Tool and assistant messages are read for one thing: an interrupted or rejected tool
 * call (Claude Code's `[Request interrupted by user]`, "The user doesn't want to proceed with this
 * tool use", the console's `Interrupted by user`) or aider's `/undo` before a turn is evidence that
 * it corrects; a turn repeating an earlier request is evidence of friction. A turn the agent has not
 * answered yet in its session (the task that opens it, a request re-sent while the model kept failing)
 * corrects nothing: its correction markers do not count (a scorer still sees them). Every insight carries a
 * `score` in [0, 1]; those below `minScore` are dropped. A correction's `traceRefs` name the turn, the
 * previous user turn and the message just before the correction. Deterministic; never throws on
 * malformed messages.
 *
 * @example
 * ```ts
 * const { messages } = parseTranscript(text);
 * for (const insight of heuristicReflect(messages)) console.log(insight.category, insight.score, insight.fact);
 * ```
 */
export function heuristicReflect(
  messages: readonly MessageLike[],
  options: HeuristicOptions = {},
): ReflectionInsight[] {
  const out: ReflectionInsight[] = [];
  const m = options?.minScore;
  const min = typeof m === 'number' || (m !== null && typeof m === 'object') ? m : DEFAULT_MIN_SCORE;
  scoreTurns(messages, options, (turn) => turnInsights(turn, min, out));
  return out;
}

/**
 * Scores: how likely each category is for one user turn, from the scanner's signal bits and the
 * context the transcript carries (an interrupted or rejected tool call just before the turn, `/undo`,
 * a repeat of an earlier request). Fixed numbers, not fitted: `minScore` is what the evaluation picks.
 */
import { CHALLENGE, CORRECTION, FRICTION, POSITIVE, PREFERENCE } from './scanner.js';
import type { InsightConfidence, MessageLike } from './types.js';

/** @internal A tool call was interrupted or rejected since the previous user turn (or `/undo`). */
export const INTERRUPTED = 1;
/** @internal The turn repeats an earlier user request of the conversation. */
export const REPEAT = 2;
/** @internal The turn is aider's `/undo`: the person rejecting the last edit. */
export const UNDO = 4;
/** @internal A short turn whose preference states a rule ({@link STATES_RULE}). */
export const STATED = 8;

/**
 * @internal The sentence of a preference that states a lasting rule ("I'd rather…", "always", "let me
 * review"), unlike one that only likes or dislikes: matched from the sentence's start (the text's, or
 * after `.`, `!`, `?` or a line break; each sentence read once), so that the match is the rule's
 * sentence (`extractRecommendation` quotes it). Read only in a turn of at most {@link STATED_MAX}
 * characters that holds a preference marker: in a long turn the words belong to a task spec or a
 * pasted prompt.
 */
export const STATES_RULE =
  /(?<![^.!?\n])[^.!?\n]*?\b(?:prefer|rather|always|never|from now on|let me (?:review|approve)|make a note)\b/i;
/** @internal The longest turn {@link STATES_RULE} is read in. */
export const STATED_MAX = 300;

/**
 * Per-category scores of one user turn, in [0, 1] (0: no evidence at all).
 *
 * @example
 * ```ts
 * const s: TurnScores = { correction: 0.9, preference: 0, approval: 0, friction: 0 };
 * ```
 */
export interface TurnScores {
  correction: number;
  preference: number;
  approval: number;
  friction: number;
}

/**
 * The insights a caller keeps by default: the smallest threshold that held precision ≥ 0.85 in every
 * category on held-out authors in every fold of `npm run eval:heuristic` (see eval/heuristic).
 *
 * @example
 * ```ts
 * heuristicReflect(messages, { minScore: DEFAULT_MIN_SCORE }); // the default
 * ```
 */
export const DEFAULT_MIN_SCORE = 0.75;

/**
 * The uncertain band of `llmReflect`'s escalation (`rearview/llm-reflect`), `[low, high)`: turns
 * scored here go to the model.
 * Its top is {@link DEFAULT_MIN_SCORE}, so what the model is not asked about is decided exactly as
 * `heuristicReflect` decides it.
 *
 * @example
 * ```ts
 * import { llmReflect } from 'rearview/llm-reflect';
 * await llmReflect(messages, { llm, escalate: { band: DEFAULT_ESCALATION_BAND } });
 * ```
 */
export const DEFAULT_ESCALATION_BAND: readonly [number, number] = [0.3, DEFAULT_MIN_SCORE];

/**
 * @internal The kind of evidence a turn gives for each category (correction, preference, approval,
 * friction), an index into {@link SCORES}, or -1 for none:
 * 0 correction marker, 1 … after an interruption, 2 challenging question, 3 … after an interruption,
 * 4 interruption alone, 5 `/undo`, 6 preference marker, 7 approval, 8 approval that also corrects,
 * 9 friction marker, 10 … repeating an earlier request, 11 a repeat alone, 12 a preference that
 * states a rule in a short turn.
 */
export function signalKinds(bits: number, context: number): number[] {
  const cut = context & INTERRUPTED;
  const repeat = context & REPEAT;
  return [
    context & UNDO ? 5 : bits & CORRECTION ? cut : bits & CHALLENGE ? 2 + cut : cut ? 4 : -1,
    bits & PREFERENCE ? (context & STATED ? 12 : 6) : -1,
    bits & POSITIVE ? (bits & (CORRECTION | CHALLENGE) ? 8 : 7) : -1,
    bits & FRICTION ? (repeat ? 10 : 9) : repeat ? 11 : -1,
  ];
}

/**
 * @internal The score of each kind of evidence: its precision on the labelled turns of every author
 * outside the held-out sets, shrunk towards a prior worth two turns (`calibratedOnPool` of
 * `npm run eval:heuristic`, which also recalibrates it in every fold on the authors it trains on).
 */
export const SCORES: readonly number[] = [
  0.83, 0.93, 0.89, 0.86, 0.3, 0.94, 0.44, 0.88, 0.25, 0.82, 0.91, 0.01, 0.84,
];

const NO_SCORES: TurnScores = Object.freeze({ correction: 0, preference: 0, approval: 0, friction: 0 });

/** @internal Scores from signal bits and context bits. */
export function turnScores(bits: number, context: number, table: readonly number[] = SCORES): TurnScores {
  // Most turns carry no evidence at all: one shared answer, no allocation.
  if (bits === 0 && context === 0) return NO_SCORES;
  const [c, p, a, f] = signalKinds(bits, context).map((k) => (k < 0 ? 0 : table[k]!));
  return { correction: c!, preference: p!, approval: a!, friction: f! };
}

/**
 * The coarse band of a score: `high` from 0.8, `medium` from 0.6, else `low`.
 *
 * @example
 * ```ts
 * confidenceOf(0.9);  // 'high'
 * confidenceOf(0.65); // 'medium'
 * ```
 */
export function confidenceOf(score: number): InsightConfidence {
  return score >= 0.8 ? 'high' : score >= 0.6 ? 'medium' : 'low';
}

/**
 * @internal Whether a message opens a new session of the conversation: aider appends every session in
 * a repository to one history, and its header (`# aider chat started at …`, a system message once
 * parsed by rearview/transcript) starts the next. Exported for `rearview/session`'s `observe`.
 *
 * @example
 * ```ts
 * opensSession({ role: 'system', content: 'aider chat started at 2025-01-02 10:00:00' }, 'aider chat started at 2025-01-02 10:00:00'); // true
 * ```
 */
export const opensSession = (m: MessageLike, text: string | undefined): boolean =>
  m.role === 'system' && !!text?.startsWith('aider chat started');

/**
 * Interruption and rejection notices in tool or user messages: Claude Code's JSONL ("[Request
 * interrupted by user]", "doesn't want to proceed with this tool use", read as "with this tool use")
 * and console (`Interrupted by user`, the later `Interrupted · What should Claude do instead?`, `No
 * (tell Claude what to do differently)`, `User rejected update to a.py` / `write to …` / `Claude's
 * plan:`), Cline's "The user denied this operation." and `Cancelled`, the whole
 * output of a call the person stopped in a SpecStory (Cursor) export. Short needles: the entry has 8 KB.
 */
const INTERRUPT =
  /nterrupted (?:by user|· W)|with this tool use|\(tell Claude|User rejected |denied this op|^Cancelled$/;

/** @internal Whether a message's text reports an interrupted or rejected tool call. */
export function reportsInterrupt(text: string): boolean {
  // The notices open or close the message: read its ends, not a whole pasted log (each end apart: a
  // joined copy cost an allocation per assistant message, and could only add a match across the join).
  if (text.length <= 400) return INTERRUPT.test(text);
  return INTERRUPT.test(text.slice(0, 200)) || INTERRUPT.test(text.slice(-200));
}

/** How many earlier user turns a repeat is looked for in. */
const REPEAT_WINDOW = 8;
/** A repeat shares at least this many opening characters ("yes" or "continue" twice is none). */
const REPEAT_MIN = 24;
/** Openings are compared up to this many characters (a re-sent prompt is pasted, not retyped). */
const REPEAT_OPENING = 64;

/**
 * @internal A finder of repeated requests in one conversation: called with each user turn in order,
 * it says whether the turn repeats one of the last {@link REPEAT_WINDOW} (one's opening, its first
 * {@link REPEAT_OPENING} characters, starts the other's, both at least {@link REPEAT_MIN} long).
 * Each opening is kept with a hash of three of its first characters, so a turn is compared in full
 * only with an earlier one that opens alike: comparing every pair had cost a fifth of reading an
 * average turn.
 *
 * @example
 * ```ts
 * const repeats = repeatFinder();
 * repeats('Please run the whole test suite again'); // false
 * repeats('Please run the whole test suite again!'); // true
 * ```
 */
export function repeatFinder(): (text: string) => boolean {
  const hashes: number[] = [];
  const texts: string[] = [];
  let next = 0;
  return (text) => {
    // Three characters, not all 24: after a process has met many kinds of string, V8's `charCodeAt`
    // is slow (see units.ts), and most pairs already differ there. A short turn (NaN) matches none.
    const h =
      text.length < REPEAT_MIN
        ? Number.NaN
        : text.charCodeAt(0) + text.charCodeAt(11) * 0x10000 + text.charCodeAt(REPEAT_MIN - 1) * 0x100000000;
    let found = false;
    for (let k = 0; k < REPEAT_WINDOW && !found; k++) found = hashes[k] === h && sameOpening(text, texts[k]!);
    hashes[next] = h;
    texts[next] = text;
    next = (next + 1) % REPEAT_WINDOW;
    return found;
  };
}

/** Whether the shorter opening of `a` and `b` starts the other (openings capped at {@link REPEAT_OPENING}). */
function sameOpening(a: string, b: string): boolean {
  const n = Math.min(REPEAT_OPENING, a.length, b.length);
  return a.slice(0, n) === b.slice(0, n);
}

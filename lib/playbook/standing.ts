/**
 * Standing rule or one-off request: does a correction or a preference hold an instruction worth
 * keeping for later sessions ("from now on use pnpm", "ask before deleting files") or does it ask
 * for something once ("fix the error", a pasted stack trace, a question)? A sum of integer weights
 * over a few transparent cues, so that the same turn gets the same answer in every runtime. The
 * weights were fitted by `eval/heuristic/keypoint-writer.ts` on the `strangers` labels only (folds
 * grouped by author); the held-out authors were scored once, after the weights were fixed.
 *
 * @module
 */
import { extractInstruction } from './instruction.js';

/** The cues, in the order of {@link STANDING_WEIGHTS}. Each is one regular expression, linear. */
const CUES: readonly RegExp[] = [
  // general: a rule for every case, not this one
  /\b(?:always|never|ever|from now on|going forward|in (?:the )?future|every ?time|each time|whenever|by default|everywhere|as a rule|in all|for all|regularly|continuously|(?:very )?often|next time|all (?:the )?(?:files?|pages?|scripts?|code|sentences|commits?|components?|operations?|tasks?)|any (?:code|file|change|task)s?)\b/i,
  // preference: a lasting like or dislike
  /\b(?:i(?: would|['’]d)? (?:rather|prefer)|prefer(?:ably)?|rather than|instead of|i (?:hate|love|don['’]?t like|dislike)|i (?:want|need|would like|['’]d like) you to|i don['’]?t want you to)\b/i,
  // process: how the agent works with the person
  /\b(?:approv\w*|permission|ask(?:ing)? me|without asking|yourself|myself|manually|don['’]?t make me|step[- ]by[- ]step|(?:small|simple)(?:er)? (?:and \w+ )?(?:edits|changes|steps)|each (?:step|command|change))\b/i,
  // a condition of the agent's process: "before committing", "after each change", "until I approve"
  /\b(?:before|after|until|unless|once)\s+(?:\w+ing\b|you\b|i\b|any\b|each\b|every\b|a\s+commit)/i,
  // a negative imperative at a sentence start
  /(?:^|[.!;:\n]\s*)(?:please\s+)?(?:don['’]?t|do not|never|stop|avoid)\b/i,
  // persistence: the person wants it remembered
  /\b(?:remember|rule|directive|claude\.md|agents\.md|guidelines?|conventions?|standard practice|write it (?:down|somewhere)|note (?:it|this) down)\b/i,
  // scope: the project as a whole
  /\b(?:in|across|throughout|for) (?:this|the|our|the whole|the entire) (?:project|repo|repository|codebase|code base|app|application)\b(?!\s*(?:is|was|has|does|doesn['’]?t|isn['’]?t)\b)|\bin general\b/i,
  // a question
  /\?\s*$|\?[^?]*\?/,
  // a pasted failure
  /\b(?:error|exception|traceback|failed|failing|warning|undefined|cannot|can['’]t find)\b|^[ \t]+at\s|:\d+:\d+/im,
  // one-off: this time, still broken, fix it
  /\b(?:still|again|this time|for now|yet|right now|rn|fix|broken|doesn['’]?t work|not working|isn['’]?t working|didn['’]?t work)\b/i,
  // deixis: the request points at what is on screen
  /\b(?:this|that|these|those|here|above|below|attached|screenshot)\b/i,
];

/** The last cue: the turn holds a sentence that reads as a standing rule (`isStandingRule`). */
function statesRule(text: string): number {
  return extractInstruction(text, { rulesOnly: true }) === undefined ? 0 : 1;
}

/**
 * A rule that says it is one: the written sentence starts with "Always"/"Never"/"Prefer" (the
 * writer's "I prefer X" → "Prefer X") or says "from now on", "every time", "by default"… Standing by definition, whatever the weights.
 */
const EXPLICIT =
  /^(?:always|never|prefer)\b|\b(?:from now on|going forward|in (?:the )?future|every ?time|each time|whenever|by default|ever|everywhere|regularly)\b/i;

/** A choice between two named things: "Use pnpm instead of npm.", "Use tabs, not spaces.". */
const CHOICE =
  /^(?:use|prefer|choose|pick)\s+(?=[^,;:.?!]*\p{L}{2})(?:[^,;:.?!]|\.(?=\S)){1,40}?,?\s+(?:instead of|rather than|over|not)\s+(?!an? )[^,;:?!]{1,40}?(?:,?\s+in (?:this|the|our) [\w -]{1,30})?[.!]?$/iu;

/**
 * True when a written instruction says itself that it stands for later sessions: it starts with
 * "Always", "Never" or "Prefer", says "from now on", "every time", "whenever", "by default"…, or is nothing
 * but a choice between two named things ("Use pnpm instead of npm.").
 *
 * @example
 * ```ts
 * saysStanding('Always use pnpm instead of npm.'); // true
 * saysStanding('Use pnpm instead of npm.'); // true
 * saysStanding('Use the other branch instead.'); // false
 * ```
 */
export function saysStanding(instruction: string): boolean {
  if (typeof instruction !== 'string') return false;
  if (EXPLICIT.test(instruction)) return true;
  // CHOICE's `\s+` before a lookahead that reads to the next punctuation is quadratic in a run of
  // spaces. A written instruction is short and read as it is; a long text is read with its runs of
  // white space made one space, where the regex has nothing to retry (the same answer on 200,000
  // random short strings; it differs only where a run of spaces was split between two parts).
  return CHOICE.test(instruction.length <= CHOICE_EXACT ? instruction : instruction.replace(/\s+/g, ' '));
}

/** Longest instruction {@link CHOICE} reads as it is (its worst case there is 400² steps: instant). */
const CHOICE_EXACT = 400;

/**
 * Integer weights of {@link CUES} (bias first): the turn is standing when the sum of the weights of
 * the cues it shows is at least {@link STANDING_CUT}.
 *
 * @example
 * ```ts
 * STANDING_WEIGHTS.length; // 13: the bias, then one weight per cue
 * ```
 */
export const STANDING_WEIGHTS: readonly number[] = [-12, 6, 2, 9, 6, 3, 7, 4, 1, -4, -2, 0, 3];

/**
 * Lowest weight sum of a standing turn.
 *
 * @example
 * ```ts
 * standingScore('From now on, always ask me before deleting files.') >= STANDING_CUT; // true
 * ```
 */
export const STANDING_CUT = 0;

/** The prose of a turn: fenced code left out, at most the first 4,000 characters read. */
function prose(text: string): string {
  return text.slice(0, 4000).replace(/```[\s\S]*?(?:```|$)/g, ' ');
}

/**
 * Which cues a turn shows, as 0/1 in the order of the weights after the bias. For measurement.
 *
 * @example
 * ```ts
 * standingCues('Never push to main.')[0]; // 1 (a general rule: "never")
 * ```
 */
export function standingCues(text: string): number[] {
  const t = typeof text === 'string' ? prose(text) : '';
  const out: number[] = CUES.map((re) => (re.test(t) ? 1 : 0));
  out.push(typeof text === 'string' ? statesRule(text) : 0);
  return out;
}

/**
 * The weight sum of a turn: the bias plus the weight of every cue it shows.
 *
 * @example
 * ```ts
 * standingScore('the build still fails with this error'); // negative: a one-off
 * ```
 */
export function standingScore(text: string, weights: readonly number[] = STANDING_WEIGHTS): number {
  const cues = standingCues(text);
  let sum = weights[0] ?? 0;
  for (let i = 0; i < cues.length; i++) sum += cues[i]! * (weights[i + 1] ?? 0);
  return sum;
}

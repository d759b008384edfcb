/**
 * The key-point writer: from a correction or preference turn, one self-contained imperative sentence
 * worth keeping for later sessions, or nothing. Two decisions stand between a turn and a key point:
 * is it a standing instruction at all (`isStandingTurn`), and does the extracted sentence read
 * as one (an imperative verb with a named object, no dangling word, no unresolved "you", nothing
 * that points at this session's screen). When either says no, the insight keeps its evidence only.
 *
 * @module
 */
import { extractInstruction, extractInstructions } from './instruction.js';
import { judgeKeyPoint } from './judge.js';
import { STANDING_CUT, saysStanding, standingScore } from './standing.js';

/** Words that carry no object: pronouns, determiners, prepositions, auxiliaries, negations. */
const FUNCTION_WORDS = new Set(
  (
    'a an the to of in on at by for from with without into onto about as and or but nor so if than then that this these those ' +
    "it its it’s it's them they their there here he she him her his we us our you your i me my mine is are was were be been being " +
    "do does did done don’t don't not no never always only just also all any some every each more most less very too " +
    'can could should would will shall may might must have has had get got make made let which what when where why how who whom whose ' +
    'like please again still yet now up down out off over under instead rather first before after'
  ).split(' '),
);
/** Words that cannot end a sentence: it was cut in the middle ("Avoid the hook matching to."). */
const DANGLING = new Set(
  'a an the to of for from with into onto about as and or but nor so if than that which who whose my your our their his her its is are was were be been does very like please'.split(
    ' ',
  ),
);
/** Chat shorthand: the sentence was not rewritten (case matters: "I" is a person, "i" a typo). */
const INFORMAL = /\b(?:i|u|ur|pls|plz|wanna|gonna|gotta|rn|idk|lol|btw|imo)\b(?!['’])/;
/** An unresolved "you" ("Prefer you to review…", "Prefer how you think"). */
const UNRESOLVED =
  /\bprefer (?:for |that )?(?:you|your|how|what|when|where|why|that|to)\b|^keep in mind\b|\byou (?:should|must|need|have|were|are|did|do)\b/i;
/** Detectors' placeholder texts: they say nothing a session could act on. */
const TEMPLATE =
  /^(?:apply the user['’]?s? correction|follow the user['’]?s? preference|avoid repeating this mistake|avoid this friction|continue this approach|automate or remember this)\b/i;
/** Only this session: "yet", "this time", an `@file` mention, what is on screen. */
const ONE_OFF =
  /\b(?:yet|this time|for now|right now|for the moment|attached|screenshot|above|below|same error)\b|(?:^|\s)@\S/i;
/** An object only this session can resolve: "these files", "the following", "this one". */
const SESSION_OBJECT =
  /\b(?:these|those) (?:files?|steps?|rules?|changes?|ones?|things?)\b|\bthe following\b|\bthis one\b/i;
/** The imperative head a sentence starts with once negations and adverbs are read past. */
const HEAD = /^(?:(?:don['’]?t|do not|never|always|only|also|first|please)\s+)*(?:[a-z][a-z-]*)\s+/i;

/** Quotes and brackets in pairs: a cut quotation ('Use MM/DD/YYYY.").') reads as garbage. */
function balanced(s: string): boolean {
  if ((s.split('`').length - 1) % 2 === 1 || (s.split('"').length - 1) % 2 === 1) return false;
  for (const [open, close] of ['()', '[]', '{}'] as const) {
    let depth = 0;
    for (const ch of s) {
      if (ch === open) depth++;
      else if (ch === close && --depth < 0) return false;
    }
    if (depth !== 0) return false;
  }
  return true;
}

/**
 * `s.replace(/[.!]+$/, '')` read from the end: the regex tried the run from each of its characters
 * (quadratic on a long run of dots that does not end the text).
 */
function withoutEndMarks(s: string): string {
  let end = s.length;
  while (end > 0 && (s[end - 1] === '.' || s[end - 1] === '!')) end--;
  return s.slice(0, end);
}

const WORD_CHAR = /^[\p{L}\p{N}'’]$/u;

/**
 * `s.match(/[\p{L}\p{N}'’]+$/u)?.[0] ?? ''` read from the end, a code point at a time (the regex read
 * a long word again from each of its letters when something else ended the text).
 */
function lastWord(s: string): string {
  let start = s.length;
  while (start > 0) {
    const pair = start >= 2 ? s.codePointAt(start - 2)! : -1;
    const width = pair > 0xffff ? 2 : 1;
    if (!WORD_CHAR.test(s.slice(start - width, start))) break;
    start -= width;
  }
  return s.slice(start);
}

/**
 * True when an imperative sentence has a named object after its verb, ends on a word that can end a
 * sentence and holds no chat shorthand, no unresolved "you" and nothing bound to this session.
 * Pure; never throws.
 *
 * @example
 * ```ts
 * isWellFormedKeyPoint('Use pnpm instead of npm in this repository.'); // true
 * isWellFormedKeyPoint('Avoid the hook matching to.'); // false (ends on "to")
 * isWellFormedKeyPoint('Prefer how you think.'); // false (no object, "you" unresolved)
 * ```
 */
export function isWellFormedKeyPoint(sentence: string): boolean {
  if (typeof sentence !== 'string') return false;
  if (/…\s*$/.test(sentence)) return false;
  const s = withoutEndMarks(sentence.trim());
  if (!s || TEMPLATE.test(s) || SESSION_OBJECT.test(s) || INFORMAL.test(s) || UNRESOLVED.test(s))
    return false;
  if (ONE_OFF.test(s)) return false;
  if (!balanced(s)) return false;
  const head = HEAD.exec(s);
  if (!head) return false;
  const rest = s.slice(head[0].length);
  // "Use we are learning…", "Prefer I prefer": a subject read as the verb's object.
  if (/^(?:we|i|you|they|he|she|it['’]s|there|prefer|use|avoid)\b/i.test(rest)) return false;
  // "Use it to continue…", "Do that in the test": the object is on the session's screen.
  if (
    /^(?:it|them|(?:this|that|these|those)(?=\s*(?:[,.;:]|$|\s(?:to|and|or|in|on|for|with|is|was|again)\b)))/i.test(
      rest,
    )
  ) {
    return false;
  }
  const objectWords = (rest.match(/[\p{L}][\p{L}\p{N}'’._/-]*/gu) ?? []).filter(
    (w) => w.length >= 2 && !FUNCTION_WORDS.has(w.toLowerCase()),
  );
  if (objectWords.length === 0) return false;
  const last = lastWord(s).toLowerCase();
  return !DANGLING.has(last);
}

/**
 * True when a correction or preference turn holds a standing instruction rather than a one-off
 * request: its weight sum (`standingScore`) reaches `STANDING_CUT`, or the well-formed rule it states
 * says itself that it stands (`saysStanding`: "Always…", "from now on", "Use pnpm instead of npm").
 * Deterministic and pure; a non-string is never standing.
 *
 * @example
 * ```ts
 * isStandingTurn('From now on, always use pnpm instead of npm.'); // true
 * isStandingTurn('fix the error'); // false
 * ```
 */
export function isStandingTurn(text: string): boolean {
  if (typeof text !== 'string') return false;
  if (standingScore(text) >= STANDING_CUT) return true;
  const rule = extractInstruction(text, { rulesOnly: true, accept: isWellFormedKeyPoint });
  return rule !== undefined && saysStanding(rule);
}

/**
 * The first key point a correction or preference turn proposes ({@link writeKeyPoints} gives all of
 * them): its standing instruction as one imperative sentence ("No, use pnpm instead of npm from now
 * on." → "Use pnpm instead of npm from now on."), or undefined for a one-off request, a pasted
 * failure, a question, a sentence that does not read as an instruction with a named object, or one
 * `judgeKeyPoint` refuses (a granted free choice, a project's file path, "the following"…).
 * Deterministic and pure; never throws.
 *
 * @example
 * ```ts
 * writeKeyPoint('No, always use pnpm instead of npm in this repository.');
 * // 'Always use pnpm instead of npm in this repository.'
 * writeKeyPoint('fix the error'); // undefined
 * ```
 */
export function writeKeyPoint(text: string): string | undefined {
  return keyPointVerdict(text).keyPoint;
}

/**
 * A contraction typed without its apostrophe, as a whole word between spaces or punctuation, a full
 * stop included ("dont", "DOnt", "isnt.", "mustnt"; not `dont.js` nor a path): a key point is written,
 * not chatted.
 */
const BARE_CONTRACTION =
  /(?<![\w./`'’-])(do|does|did|is|are|was|were|should|would|could|must|might|need|have|has|had|ca|wo|ai|sha)nt(?![\w/`'’-]|\.\w)/gi;

/** {@link BARE_CONTRACTION}'s words with their apostrophe, the first word of the sentence capitalised. */
function withApostrophes(sentence: string): string {
  return sentence.replace(BARE_CONTRACTION, (_, head: string, at: number) => {
    const word = `${head.toLowerCase()}n't`;
    return at === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word;
  });
}

/** A markdown escape (`train\\_test\\_split`): the editor's, not the person's words. */
const MARKDOWN_ESCAPE = /\\([\\`*_{}[\]()#+.!-])/g;

/** What the key-point writer made of a turn: its key points, or why there is none. */
export interface KeyPointVerdict {
  /** The turn's first key point (`keyPoints[0]`). */
  keyPoint?: string;
  /** Every key point of the turn, in order: one sentence per standing instruction. */
  keyPoints?: string[];
  /**
   * Why no key point: `no instruction` (no well-formed imperative sentence), `one-off` (not a
   * standing instruction), or the reason `judgeKeyPoint` gave the sentence (`vague`, `task-bound`…).
   * With several sentences refused, the first one's reason.
   */
  refused?: string;
}

/**
 * {@link writeKeyPoints} with its reason when it writes nothing, for a caller that reports what it
 * left out (`learn` counts the judge's reasons). Deterministic and pure; never throws.
 *
 * @example
 * ```ts
 * keyPointVerdict('From now on, always use whatever test runner you like.'); // { refused: 'vague' }
 * keyPointVerdict('fix the error'); // { refused: 'no instruction' }
 * ```
 */
export function keyPointVerdict(text: string): KeyPointVerdict {
  if (typeof text !== 'string') return { refused: 'no instruction' };
  const found = extractInstructions(text, { rulesOnly: true, accept: isWellFormedKeyPoint });
  if (!found.length) return { refused: 'no instruction' };
  const keyPoints: string[] = [];
  let refused: string | undefined;
  for (const [i, instruction] of found.entries()) {
    // The turn's standing score says that the turn holds a standing instruction, which is its first
    // one; a later sentence of the turn must stand on its own ("Use the CLI to create the bucket
    // dev-media." beside "Do not touch the old project." is a task).
    const standing = saysStanding(instruction) || standingScore(i === 0 ? text : instruction) >= STANDING_CUT;
    if (!standing) {
      refused ??= 'one-off';
      continue;
    }
    const sentence = withApostrophes(instruction.replace(MARKDOWN_ESCAPE, '$1'));
    const why = judgeKeyPoint(sentence);
    if (why === undefined) keyPoints.push(sentence);
    else refused ??= why;
  }
  return keyPoints.length ? { keyPoint: keyPoints[0]!, keyPoints } : { refused: refused ?? 'no instruction' };
}

/**
 * Every key point a correction or preference turn proposes, one sentence per standing instruction
 * (at most three: `MAX_INSTRUCTIONS`), each as {@link writeKeyPoint} writes it. Two rules of one turn
 * are two lessons, not one sentence joined by a semicolon. Deterministic and pure; never throws.
 *
 * @example
 * ```ts
 * writeKeyPoints("Don't use partial updates in this project. Always use a dark theme.");
 * // ["Don't use partial updates in this project.", 'Always use a dark theme.']
 * ```
 */
export function writeKeyPoints(text: string): string[] {
  return keyPointVerdict(text).keyPoints ?? [];
}

/**
 * The judge of a key point: would a senior engineer keep this sentence, as written, in an AGENTS.md or
 * CLAUDE.md? Every path that proposes a key point asks it (`writeKeyPoint`, hence `createRearview`'s
 * lessons, the playground and `learn`), so one sentence is judged the same way everywhere; each
 * refusal names its reason. Pure and linear.
 *
 * @module
 */
import { namesPath } from '../core/index.js';

/** Texts detectors use as placeholders: they say nothing a session could act on. */
const TEMPLATES = new Set(
  [
    "apply the user's correction",
    'apply the users correction',
    'follow the user preference',
    "follow the user's preference",
    'avoid repeating this mistake',
    'avoid this friction',
  ].map((t) => t.replace(/[^a-z' ]/g, '')),
);

/** A placeholder of `rearview/redact` (`[email-1]`, `[api-key-2]`). */
const PLACEHOLDER = /\[[a-z][a-z0-9_-]*-\d+\]/;
/** A word an instruction can only be read with its session at hand, right after the verb. */
const DEICTIC =
  /^(?:don['’]?t|do not|never|always|stop|avoid|use|do|keep|make|try|change|remove|delete|fix|put|add|leave|move|undo|revert|follow|check|only|just|give|show|tell|send|name|write|read|run)\s+(?:(?:\w+\s+){0,2})?(?:it|this|that|these|those|them|here|there|him|her|the same|again|so|such)(?:[\s,.;!]|$)/i;
/**
 * Refers to the session's own objects: "the above", "this file", "this approach", "these findings",
 * "those services", "line 42", "step 3". "This" before any noun points at the session, but for the
 * repository as a whole ("Use pnpm in this repository."); "these" and "those" before a noun always do
 * (a key point is one sentence: what they point at is not in it).
 */
const SESSION_BOUND =
  /\bthis (?!(?:repository|repo|codebase|code base|monorepo|workspace|app|application)\b)[a-z]{2,}\b|\b(?:these|those) (?!days\b)[a-z]{2,}\b|\b(?:the above|above code|below code|that (?:file|function|one|line|error|bug|part|section|code|change|approach|plan|idea|solution|version|output|result)|line \d+|step \d+|lines? \d+-\d+|the following|as follows)\b/i;
/**
 * A request for this conversation ("I'd like to talk about…" read as "Prefer to talk about…"), or a
 * wish that is no instruction ("Be able to…").
 */
const REQUEST = /^(?:prefer (?:to|when)|be able to|check if|check whether)\b/i;
/**
 * A thing to make, once: "Build a small Rails app that…", "Create a new database for local testing".
 * A rule that makes something does so every time ("Create a branch for each feature.") or says how,
 * against what ("Build a real backend, not a demo.").
 */
const ONE_THING = /^(?:build|create|implement|develop|design|set up|generate|scaffold)\s+(?:a|an)\s/i;
const AS_A_RULE =
  /\b(?:every|each|all|always|whenever|from now on|before|after|instead of|rather than)\b|,\s*not\b/i;
/** "Use We are…": a sentence whose subject was read as the verb's object. */
const MISREAD =
  /^(?:(?:use|prefer|avoid)\s+(?:we|i|you|they|he|she|it['’]s|there)\b|wait\s+(?:again|a (?:sec|second|minute|moment))\b)/i;
/**
 * A free choice granted, not a rule: a clause that starts with a verb and leaves the choice open ("use
 * whatever tools you normally use", "pick any library you like", "feel free to…").
 */
const FREE_CHOICE =
  /(?:^|[;,:]\s*|\band\s+)(?:(?:always|just|simply|please)\s+)?(?:use|pick|choose|do|take|try|write|run|call|add)\s+(?:whatever|any\s+(?:\w+\s+){0,2}you\s+(?:like|want|prefer|wish))\b|\bfeel free\b|\b(?:it['’]s|is)\s+up to you\b/i;

/**
 * An instruction with nothing to check: a manner with no object ("Be very detail focused.", "Be
 * thorough."; "Be careful with migrations." names one), or a verb whose only object is "anything" or
 * "everything" ("Do NOT skip anything.", "Check everything.").
 */
const NO_OBJECT =
  /^(?:(?:always\s+|please\s+)?be\s+(?:(?:very|more|extra|really|super|so|always)\s+)*(?:[a-z]+[\s-])?(?:focused|oriented|careful|thorough|diligent|precise|meticulous|detailed|rigorous|attentive)|(?:(?:do\s+not|don['’]t|never|always|please)\s+)*(?:skip|miss|forget|overlook|check|verify|test|review|touch|change|break)\s+(?:anything|everything)(?:\s+(?:else|at\s+all))?)\s*[.!]*$/i;

function balanced(text: string, open: string, close: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === open) depth++;
    else if (ch === close && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Why `text` is not a rule worth proposing, or undefined when it is one. `turn` is the user turn it
 * was read from. The reasons:
 * - `template`: a detector's placeholder text ("Apply the user's correction.");
 * - `secret`: it quotes a redacted value (a rule about one key or address is no rule);
 * - `truncated`: the instruction ran past the length a key point may have;
 * - `too short`: under three words;
 * - `garbled`: unbalanced code quotes or brackets, markup or escapes, or mostly not words;
 * - `garbled`: also a sentence misread as an instruction ("Use We are learning together…");
 * - `vague`: it grants a free choice ("use whatever tools you normally use"), or has nothing to check
 *   ("Be very detail focused.", "Do not skip anything."): nothing to follow;
 * - `not self-contained`: its object is "it", "this", "that"… or "this file", "these findings", "line
 *   42", "the following": it needs the session to be understood;
 * - `task-bound`: it names one project's file (`src/app/page.tsx`) or one machine's path (`/Users/…`),
 *   or it is a request of this conversation ("Prefer to talk about…", "Check if…", "Be able to…"),
 *   or one thing to make ("Build a small Rails app that…"; "Create a branch for each feature." is a
 *   rule): a task, not a standing rule.
 *
 * @example
 * ```ts
 * judgeKeyPoint('Use pnpm instead of npm.'); // undefined
 * judgeKeyPoint("Don't do that again."); // 'not self-contained'
 * ```
 */
export function judgeKeyPoint(text: string): string | undefined {
  if (typeof text !== 'string' || !text.trim()) return 'too short';
  const plain = text
    .toLowerCase()
    .replace(/[^a-z' ]/g, '')
    .trim();
  if (TEMPLATES.has(plain)) return 'template';
  if (PLACEHOLDER.test(text)) return 'secret';
  if (text.endsWith('…')) return 'truncated';
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 3) return 'too short';
  if (
    (text.split('`').length - 1) % 2 === 1 ||
    (text.split('"').length - 1) % 2 === 1 ||
    !balanced(text, '(', ')') ||
    !balanced(text, '[', ']') ||
    !balanced(text, '{', '}') ||
    /<\/?[a-z][\w-]*[\s>]|\\[nrt"]|&[a-z]+;|https?:\/\/\S{60,}/i.test(text)
  ) {
    return 'garbled';
  }
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const visible = text.replace(/\s+/g, '').length;
  if (visible === 0 || letters / visible < 0.6 || MISREAD.test(text)) return 'garbled';
  if (FREE_CHOICE.test(text) || NO_OBJECT.test(text.trim())) return 'vague';
  if (DEICTIC.test(text) || SESSION_BOUND.test(text)) return 'not self-contained';
  if (namesPath(text) || REQUEST.test(text)) return 'task-bound';
  if (ONE_THING.test(text) && !AS_A_RULE.test(text)) return 'task-bound';
  return undefined;
}

/**
 * The instruction in a user turn, as an imperative sentence: what a correction, a preference or a
 * complaint tells the agent to do, with the lead-ins ("No,", "I said", "you should", "from now on")
 * and the code, quotes and logs around it left out.
 *
 * @module
 */
import { truncateUtf8 } from '../core/index.js';

/**
 * Longest instruction kept, in characters: a key point is one line a person reads at a glance.
 *
 * @example
 * ```ts
 * extractInstruction(`Use ${'x '.repeat(200)}instead.`)!.length <= MAX_INSTRUCTION_CHARS + 1; // true
 * ```
 */
export const MAX_INSTRUCTION_CHARS = 160;

/** Discourse markers that open a sentence without saying anything, when punctuation follows. */
const MARKER =
  /^(?:no+|nope|nah|wrong|wait|hmm+|ok(?:ay)?|well|sorry|ugh|oh|hey|yes|yeah|right|great|thanks|thank you|actually|instead|again|also|sigh|dude|man|jeez|argh|come on|seriously|listen|(?:very |pretty |all )?(?:good|nice|fine)|perfect|cool|excellent|awesome|lgtm|alright|all right|sure|got it|understood|(?:that )?(?:looks|sounds) (?:good|great|fine))\s*[,.!:;—–-]+\s*/i;
/** Fillers that open a sentence before its verb. */
const FILLER =
  /^(?:but|and|so|also|actually|instead|please|then|just|now|rather|really|simply|kindly|pls|plz)\s+/i;
/** Lead-ins before the instruction itself. */
const LEAD_IN =
  /^(?:(?:no|nope),?\s+)?(?:i (?:said|told you|asked you|asked|mean|meant|already said|already told you|want(?: you)?|need(?: you)?|would like(?: you)?|'?d like(?: you)?)(?: to| that)?|i['’]d like(?: you)? to|as i (?:said|mentioned|told you)(?: before| earlier| already)?,?|like i said,?|you (?:should|must|need to|have to|ought to|were supposed to)|we (?:should|must|need to|have to)|let['’]?s|(?:can|could|would|will) (?:you|we)(?: please)?|make sure(?: to| you| that you)?|remember to|(?:i )?(?:just )?(?:wanted|want|need) to remind you(?: to)?|from now on,?|going forward,?|in (?:the )?future,?|next time,?|for (?:the )?future,?|(?:you )?always remember to)[,:]?\s+/i;
/** "I'd like to see your plan" asks the agent to show it. */
const SEE = /^i(?: would|['’]d)? (?:like|want|need) to (?:see|review|read)\s+/i;
/** Verbs an instruction starts with once its lead-in is gone. */
const IMPERATIVE =
  /^(?:don['’]?t|do not|never|always|stop|avoid|use|do|run|add|remove|delete|keep|make|put|try|check|ask|write|read|call|pass|set|install|prefer|start|move|rename|create|fix|revert|undo|commit|push|test|include|exclude|skip|only|leave|return|change|update|follow|wait|split|merge|show|print|explain|answer|reply|respond|give|send|open|close|load|save|build|deploy|replace|switch|format|sort|limit|stick|go|look|focus|drop|ignore|mention|tell|let|be|verify|confirm|double-check|search|grep|find|pin|bump|upgrade|downgrade|rewrite|refactor|simplify|document|comment|reuse|restore|rebase|squash|wrap|handle|escape|quote|put|place|target|point|respect|consider|note|translate|name|import|stage|list|summari[sz]e|describe)\b/i;
/** A challenging question that implies an instruction: "Shouldn't that be using a fixture?". */
const CHALLENGE =
  /^(?:shouldn['’]?t|should not|why not|why (?:don['’]?t|didn['’]?t|not) (?:you|we)|wouldn['’]?t it be better to|can['’]?t (?:you|we)|couldn['’]?t (?:you|we)|isn['’]?t it better to)\s+(?:(?:we|you|it|that|this|there|they|the \w+)\s+)?(?:be\s+|have\s+)?(?:just\s+)?/i;
/**
 * "I prefer X" is an instruction to prefer X; "I don't want X" one to avoid it. "I like X" is one only
 * with what X is preferred to ("I like tabs over spaces"): alone it praises ("I like the blackmail
 * aspect", "I like the proposed approach a lot"), and "I'd like to X" asks for X (a lead-in).
 */
const PREFER =
  /^(?:i(?: would| really| always|['’]d)? prefer|i(?: really| always)? like(?=\s[^.!?]*\b(?:over|better than|more than|rather than|instead of)\s))\s+(?:it\s+)?(?:if\s+)?/i;
/** "I would rather use X" is an instruction to use X; "I would rather not X" one not to. */
const RATHER = /^i(?: would|['’]d)? rather\s+(not\s+)?/i;
/** A leading condition or scope before the imperative: "In the health endpoint, never return…". */
const LEAD_CLAUSE = /^((?:in|for|when|whenever|before|after|on|during|while)\s[^,;:]{1,60}),\s+/i;
const AVOID = /^i (?:(?:do not|don['’]?t|never) (?:want|like)|(?:really )?(?:dislike|hate))\s+/i;
/** What the agent does that the person dislikes, as a gerund after "you": "I dislike you adding…". */
const YOU_DOING = /^you\s+([a-z]{2,}ing)\b/i;
/** "I don't want you to X" is an instruction not to X. */
const DONT = /^i (?:do not|don['’]?t|never) (?:want|like)(?: you)? to\s+/i;
const VAGUE = /^(?:it|this|that|them|these|those|so|one)[.!]*$/i;
/** A word read as a verb that is a noun before its own verb: "Undo should…", "Test is…", "Build was…". */
const SUBJECT =
  /^[a-z-]+\s+(?:should|shouldn['’]t|would|will|won['’]t|can|can['’]t|cannot|could|must|might|may|is|isn['’]t|are|aren['’]t|was|wasn['’]t|were|has|hasn['’]t|have|does|doesn['’]t|did|didn['’]t|needs|seems|works|looks)\b/i;
/**
 * "No, not GraphQL." or "Not GraphQL.": a rejected value, which the next sentence replaces. A bare
 * "Not a priority" in a list of answers, or "Not Self-Aware" in a list of traits, rejects nothing.
 */
const REJECTED =
  /^(?:(?:no|nope)[,.!]*\s+not\s+([\w][\w .'/-]{0,40}?)[.!]*|not\s+([\w][\w .'/-]{0,40}?)[.!]+)$/i;
/**
 * What "Not really." or "Not yet." leaves unsaid: an answer to a question, a degree or a time, never a
 * value the next sentence replaces ("Not really. NOW: I ran this…" names nothing to use instead).
 */
const NOT_A_VALUE =
  /^(?:really|quite|yet|exactly|sure|at all|so|that|this|much|now|entirely|necessarily|always|anymore|bad|great|good|true|right|correct|quite yet|really sure|so fast|so much|that much|for now|right now)$/i;
const REQUEST = /^(?:please\s+)?(?:can|could|would|will) you\b/i;

/** Gerund stems whose base form ends in a silent e. */
const E_STEMS = new Set(
  'us mak tak writ sav mov remov chang updat creat compar clos pars includ provid configur handl leav giv hav delet replac reus stor escap separat validat generat merg squash'.split(
    ' ',
  ),
);

function base(gerund: string): string {
  const stem = gerund.slice(0, -3).toLowerCase();
  if (E_STEMS.has(stem)) return `${stem}e`;
  // A consonant doubled after one short vowel is the -ing spelling ("running" → "run", "stopping" →
  // "stop"); without a consonant before that vowel the double letter is the verb's own ("adding").
  if (/[^aeiou][aeiou]([bdgmnprt])\1$/.test(stem)) return stem.slice(0, -1);
  return stem;
}

/** A diagnostic's first line: a path, a line number, maybe a column, a colon and a space. */
const DIAGNOSTIC = /^\s*[\w./\\-]+:\d+(?::\d+)?:\s/;

/** The prose of a turn: code blocks, quoted lines, log-like lines and diagnostics left out. */
function prose(text: string): string {
  let inDiagnostic = false;
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((l) => {
      // A compiler's or linter's diagnostic (`lib/main.dart:35:1: Error: …`) and the lines glued under
      // it (`Try moving the directive…`, the source line): the tool's advice, not the person's.
      if (DIAGNOSTIC.test(l)) inDiagnostic = true;
      else if (!l.trim()) inDiagnostic = false;
      return !inDiagnostic;
    })
    .filter((l) => !/^\s*(?:>|\$ |#|\||at |\d+[:|])/.test(l) && !/^\s*[\w.]*(?:Error|Exception)\b/.test(l))
    .join('\n')
    .replace(STRONG, '$1');
}

/**
 * Markdown's strong emphasis (`**everywhere**`): a CLAUDE.md line keeps the words, not the marks.
 * Never across a backtick (a glob in code keeps its stars); `__x__` is left alone (Python's `__init__`).
 * Bounded, so each mark is looked past once.
 */
const STRONG = /\*\*(?=[^\s*])([^*\n`]{1,200}?)\*\*/g;

/**
 * A line break inside a sentence: the line before ends without a sentence's punctuation and the next
 * starts in lower case. Terminals and editors wrap long prompts ("It might\n be just a big pile of
 * notes."); read as two sentences, the second would open on a bare verb and pass for an imperative.
 */
const WRAPPED = /([^\s.!?:;])[ \t]*\n[ \t]*(?=[a-z])/g;

function sentences(text: string): string[] {
  return prose(text)
    .replace(WRAPPED, '$1 ')
    .split(/(?<=[.!?])\s+|\n+|(?<=[;])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Lead-ins and fillers stripped until none is left. */
function strip(sentence: string): string {
  let s = sentence;
  for (let i = 0; i < 6; i++) {
    const next = s.replace(MARKER, '').replace(FILLER, '').replace(SEE, 'show me ').replace(LEAD_IN, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

/**
 * One sentence as an instruction, or undefined when it does not say what to do. A leading condition
 * ("Before writing any code, show me the plan.") is kept in front of the instruction it scopes.
 */
function asInstruction(sentence: string, negated: string | undefined): string | undefined {
  const lead = LEAD_CLAUSE.exec(sentence);
  if (lead) {
    const rest = asClause(sentence.slice(lead[0].length), undefined);
    if (rest) return `${lead[1]}, ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`;
  }
  // "Don't put comments in bash snippets, if needed for an explanation, put it in the text above.":
  // two instructions, the second under its own condition; the first stands alone.
  const step = NEXT_STEP.exec(sentence);
  if (
    step &&
    step.index >= MIN_CLAUSE_CHARS &&
    asClause(sentence.slice(step.index + step[0].length), undefined)
  )
    return asClause(sentence.slice(0, step.index), negated);
  const whole = asClause(sentence, negated);
  if (whole !== undefined) return whole;
  // "Sorry for interrupting, go on, but I wanted to remind you to always run the specs first.": what
  // comes before "but" concedes or apologises; the instruction is the clause after it.
  const but = BUT.exec(sentence);
  return but ? asClause(sentence.slice(but.index + but[0].length), undefined) : undefined;
}

/** A second instruction with a condition of its own: ", if …, " (see {@link asInstruction}). */
const NEXT_STEP = /,\s+if\s[^,;]{1,60},\s+/i;

/** The first ", but" of a sentence (see {@link asInstruction}). */
const BUT = /[,;]\s*but\s+/i;

/** One clause as an instruction, or undefined when it does not say what to do. */
function asClause(sentence: string, negated: string | undefined): string | undefined {
  // "Can you use the helper?" asks for an action: a request, not a question.
  const request = REQUEST.test(sentence);
  // "USE pnpm" shouts a verb; "REST endpoint" names a thing.
  let s = strip(sentence).replace(/^[A-Z]{2,}\b/, (w) => (IMPERATIVE.test(w) ? w.toLowerCase() : w));
  const challenge = CHALLENGE.exec(s);
  if (challenge) {
    s = s.slice(challenge[0].length).replace(/^(\w+ing)\b/i, (g) => base(g));
  } else if (/\?\s*$/.test(s) && !request) {
    return undefined;
  }
  const rather = RATHER.exec(s);
  if (rather) s = `${rather[1] ? "don't " : ''}${s.slice(rather[0].length)}`;
  else if (DONT.test(s)) s = `don't ${s.replace(DONT, '')}`;
  else if (PREFER.test(s)) {
    // "I'd like your help with…" and "I like how you…" ask or praise, and "I like X but I want…"
    // concedes before the point it makes: no preference to keep.
    if (
      /^i(?: would| really| always|['’]d)? (?:prefer|like)\s+(?:your?|how|what|that|when)\b/i.test(s) ||
      /\bbut\s+(?:i|we)\b/i.test(s)
    )
      return undefined;
    s = `prefer ${s.replace(PREFER, '')}`;
  } else if (AVOID.test(s)) {
    // "I dislike you adding docs to pytest.ini" is "Don't add docs to pytest.ini", not "Avoid you adding…".
    const rest = s.replace(AVOID, '');
    const you = YOU_DOING.exec(rest);
    s = you ? `don't ${base(you[1]!)}${rest.slice(you[0].length)}` : `avoid ${rest}`;
  }
  s = s.replace(/[\s,;:.!?]+$/, '').replace(/,?\s+(?:please|thanks|thank you|ok|okay)$/i, '');
  if (!IMPERATIVE.test(s)) {
    // "No, not GraphQL. I said REST endpoint." — a bare noun phrase after a rejected one.
    if (negated && /^[\w][\w .'/-]{0,40}$/.test(s) && s.split(/\s+/).length <= 5) {
      return `use ${s}, not ${negated}`;
    }
    return undefined;
  }
  // "Undo should not need to be modified": the verb's form is the sentence's subject.
  if (SUBJECT.test(s)) return undefined;
  const words = s.split(/\s+/);
  // "Do not use it." names nothing a later session could act on.
  if (words.length < 2 || (words.length <= 4 && words.some((w) => VAGUE.test(w)))) return undefined;
  if (/^(?:do not|don['’]?t|never|always|avoid|stop|do)$/i.test(s)) return undefined;
  return s;
}

/**
 * Where a rule ends and its reason starts: a dash between spaces, or a comma or semicolon before a
 * reason ("since", "because") or a new subject ("these are redundant"). A comma before "and then"
 * goes on to the next step of a task: nothing to cut there.
 */
const CLAUSE_END =
  /\s(?:--?|[—–])\s|[,;]\s+(?=(?:since|because|as|so that|these|this|that|those|they|it|it['’]s|which|otherwise)\s)/gi;
/** Shortest first clause {@link bounded} keeps alone: a verb and its object. */
const MIN_CLAUSE_CHARS = 12;

function bounded(text: string): string {
  if (text.length <= MAX_INSTRUCTION_CHARS) return text;
  const cut = truncateUtf8(text, MAX_INSTRUCTION_CHARS);
  const clause = Math.max(cut.lastIndexOf(';'), cut.lastIndexOf(','));
  if (clause > MAX_INSTRUCTION_CHARS / 2) return cut.slice(0, clause);
  // "Don't write docstrings in specs, these are redundant with … -- remember …": the instruction is
  // the first clause, the rest its reason; a clause is whole where a word cut at the limit is not.
  CLAUSE_END.lastIndex = MIN_CLAUSE_CHARS;
  const first = CLAUSE_END.exec(cut);
  if (first) return cut.slice(0, first.index);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Verbs of a standing rule rather than a one-off task. */
const RULE_VERB =
  /^(?:don['’]?t|do not|never|always|avoid|stop|prefer|use|keep|stick|only|respect|follow|ask|wait|make sure|be)\b/i;
/** Words that make any instruction a standing rule: an alternative, a condition, an order. */
const RULE_WORD =
  /\b(?:instead|rather than|not|never|always|from now on|before|after|without|unless|whenever|every time|each time|only|in all|for all|everywhere|regularly|by default|going forward)\b|\bfirst(?=\s*[.,;!]|\s*$)/i;

/**
 * True when an instruction is a standing rule worth keeping ("Use pnpm instead of npm.", "Run the
 * tests before committing.") rather than a one-off task ("Change the title to Foo.").
 *
 * @example
 * ```ts
 * isStandingRule('Use pnpm instead of npm.'); // true
 * isStandingRule('Rename the card title.');   // false
 * ```
 */
export function isStandingRule(instruction: string): boolean {
  return typeof instruction === 'string' && (RULE_VERB.test(instruction) || RULE_WORD.test(instruction));
}

/** Options of {@link extractInstruction} and {@link extractInstructions}. */
export interface InstructionOptions {
  /** Only sentences that are standing rules ({@link isStandingRule}) count. */
  rulesOnly?: boolean;
  /**
   * When given, each sentence kept must also pass it, as written out (bounded, capitalised, with its
   * period): the key-point writer passes its grammar check.
   */
  accept?: (sentence: string) => boolean;
}

/**
 * Most instructions {@link extractInstructions} reads from one turn: a turn that lists more is a
 * specification, and its first few say what the person insisted on.
 *
 * @example
 * ```ts
 * extractInstructions('Use pnpm. Never push to main. Ask before deleting files. Keep replies short.').length; // 3
 * ```
 */
export const MAX_INSTRUCTIONS = 3;

/** An instruction as `asInstruction` gives it (`raw`, which two can be joined from) and written out. */
interface Found {
  raw: string;
  written: string;
}

/**
 * A role prompt pasted into the turn ("Follow the prompt below - You are the Analyzer Agent (…). Your
 * goals: …"): what follows it is a brief written for some agent, not the person's instruction to this
 * one. The role is a few words, then a noun of a role; bounded, so linear.
 */
const ROLE_PROMPT =
  /\byou are (?:the|a|an) (?:[\w-]+ ){0,5}?(?:agent|assistant|expert|engineer|architect|developer|reviewer|analy[sz]er|specialist|programmer|coder|consultant|designer|tester)\b/i;

/** The turn's instructions in order. */
function instructionsOf(text: string, options: InstructionOptions, limit: number): Found[] {
  const found: Found[] = [];
  if (typeof text !== 'string') return found;
  let negated: string | undefined;
  const head = text.slice(0, 4000);
  const role = ROLE_PROMPT.exec(head);
  // The sentence that introduces it goes with it ("Follow the prompt below - You are…").
  const end = role
    ? Math.max(...['.', '!', '?', '\n'].map((c) => head.lastIndexOf(c, role.index - 1))) + 1
    : -1;
  for (const sentence of sentences(role ? head.slice(0, end) : head)) {
    const not = REJECTED.exec(sentence);
    if (not) {
      const value = (not[1] ?? not[2])!;
      negated = NOT_A_VALUE.test(value) ? undefined : value;
      continue;
    }
    const instruction = asInstruction(sentence, negated);
    // "No, not X. Y." names what replaces X in the sentence right after it, not in every later one.
    negated = undefined;
    if (!instruction || (options.rulesOnly && !isStandingRule(instruction))) continue;
    // What is kept is the sentence as written out: a reason cut from its end is not checked.
    const written = finished(instruction);
    if (typeof options.accept === 'function' && !options.accept(written)) continue;
    found.push({ raw: instruction, written });
    if (found.length === limit) break;
  }
  return found;
}

/** An instruction as written out: within {@link MAX_INSTRUCTION_CHARS}, capitalised, with a period. */
function finished(instruction: string): string {
  return `${capitalised(bounded(instruction))}.`.replace(/…\.$/, '…');
}

/**
 * The instruction a user turn gives, as one imperative sentence of at most
 * {@link MAX_INSTRUCTION_CHARS} characters ending in a period: "No, use pnpm instead of npm." →
 * "Use pnpm instead of npm.", "I prefer short answers." → "Prefer short answers.", "Shouldn't that be
 * using a fixture?" → "Use a fixture.", "No, not GraphQL. I said REST endpoint." → "Use REST endpoint,
 * not GraphQL.". Two instructions in a row are joined with a semicolon when they fit (the key-point
 * writer keeps them apart: {@link extractInstructions}). Undefined when the turn says nothing to do
 * ("No, that's wrong.", "Why did you do that?"). With `rulesOnly`, only sentences that are standing
 * rules ({@link isStandingRule}) count: "Fix the card; do not touch the others." gives "Do not touch
 * the others.". `accept`, when given, must also pass each sentence kept. Pure; never throws.
 *
 * @example
 * ```ts
 * extractInstruction("No! Don't modify the implementation while probing. Ask first.");
 * // "Don't modify the implementation while probing; ask first."
 * ```
 */
export function extractInstruction(text: string, options: InstructionOptions = {}): string | undefined {
  const [one, two] = instructionsOf(text, options ?? {}, 2);
  if (!one) return undefined;
  if (!two || one.raw.length + two.raw.length + 2 > MAX_INSTRUCTION_CHARS) return one.written;
  return finished(`${one.raw}; ${two.raw.charAt(0).toLowerCase()}${two.raw.slice(1)}`);
}

/**
 * Each instruction of a user turn as a sentence of its own, in order, at most
 * {@link MAX_INSTRUCTIONS}: what {@link extractInstruction} gives, one sentence at a time. Two rules
 * of one turn are two lessons ("Do not use partial updates." and "Use a dark theme."), and a rule the
 * person repeats in a later turn beside a new one is the same sentence again, which the playbook's
 * near-duplicate search finds. Pure; never throws.
 *
 * @example
 * ```ts
 * extractInstructions('Explain each command before you run it. Do not touch the old project.', { rulesOnly: true });
 * // ['Explain each command before you run it.', 'Do not touch the old project.']
 * ```
 */
export function extractInstructions(text: string, options: InstructionOptions = {}): string[] {
  return instructionsOf(text, options ?? {}, MAX_INSTRUCTIONS).map((f) => f.written);
}

/**
 * Typos in a key point written from a person's turn ("Always run specs locally beforu pushit to GH."):
 * the sentence goes into the next system prompt as written, so a slip of the keyboard becomes a
 * garbled rule. A word is repaired only when all of these hold:
 * - it is a plain word (letters only, four or more, lower case or capitalised only: `GH`, `camelCase`
 *   and anything in backticks are names) that the injected dictionary does not know;
 * - the session does not use it elsewhere (a word the agent or the tools also wrote is the session's
 *   own name: `vitest`, `pnpm`);
 * - exactly one best repair exists among the spellings one edit away and the splits in two words,
 *   counting only those the session itself uses, the most used winning: the dictionary's own
 *   suggestions are not trusted ("doctrings" is one edit from "doctrines" and from "docstrings"; the
 *   session shows which). A repair is a dictionary word, or a term the session uses three times or
 *   more (Hunspell lacks "docstrings").
 * The edits: a letter swapped with its neighbour, added anywhere, changed anywhere but first (a first
 *   letter changed makes another word: "fallbacks" → "callbacks", "dont" → "font") and last only
 *   toward a dictionary word the session uses three times or more ("beforu" → "before"; an ending
 *   is grammar: "renderer", Spanish "pregunto"), dropped anywhere but at the ends, or at an end when
 *   doubled ("ppublic", "usefull"). A split keeps a short function word apart ("pushit" → "push it",
 *   "aswell" → "as well"; not "superset" → "super set"), in a lower-case word only; after a
 *   preposition that takes a gerund, a verb split from its object takes its -ing form when the
 *   dictionary knows it ("before pushit" → "before pushing it").
 * A negation typed without its apostrophe ("dont", "wasnt") is left to the key-point writer, which
 * writes the contraction (writer.ts); its nearest words are other words ("font"). A capitalised word
 * is repaired only where a sentence starts: elsewhere it is a name ("Vries"). Otherwise the word stays
 * as the person wrote it.
 * The dictionary is injected (`isWord`), so this module carries no word list: the CLI passes Hunspell's
 * en_US and en_GB through `nspell` and cspell's software terms (cli/spelling.ts).
 *
 * @module
 */

/** What {@link repairSpelling} needs. */
export interface SpellingOptions {
  /** Whether a word is spelt right (any case as given; e.g. `nspell(dictionary).correct`). */
  isWord: (word: string) => boolean;
  /** How often each lower-cased word occurs in the session: see {@link wordCounts}. */
  counts: ReadonlyMap<string, number>;
}

/** One word {@link repairSpelling} changed. */
export interface SpellingRepair {
  from: string;
  to: string;
}

/** Letters only, at most this long: longer runs are names or pasted text, and each costs ~54 × length tests. */
const MAX_WORD = 24;
/** A word, with its contraction's apostrophes ("doesn't" is one word, not "doesn" and "t"). */
const WORD = /[A-Za-z]+(?:['’][A-Za-z]+)*/g;
/** A word glued to code or a path: `src/app`, `foo_bar`, `x.y`, `--flag`, `a-b`. */
const GLUED = /[\w/\\.@#$%^&*=+~-]/;
/** A letter outside ASCII next to the word: `WORD` cut a word of another alphabet. */
const OTHER = /\p{L}/u;
/** Short words a glued pair may keep apart: "pushit", "aswell", "showup", "indetail". */
const FUNCTION_WORDS = new Set('as at by in is it of on or to up all and for off out the'.split(' '));

/**
 * How often each lower-cased word occurs in `texts`: the session's own vocabulary, for
 * {@link repairSpelling}. A contraction counts whole ("doesn't"). Linear in the texts' length.
 *
 * @example
 * ```ts
 * wordCounts(['Push it before lunch.', 'git push']).get('push'); // 2
 * ```
 */
export function wordCounts(texts: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(WORD)) {
      if (m[0].length > MAX_WORD) continue;
      const w = m[0].toLowerCase().replace(/’/g, "'");
      out.set(w, (out.get(w) ?? 0) + 1);
    }
  }
  return out;
}

/**
 * The words of a plain word list, one a line, `#` lines and blank lines left out, lower-cased (cspell's
 * lists, say): for an `isWord` that also knows a field's terms. Linear.
 *
 * @example
 * ```ts
 * const terms = new Set(wordList('# tools\nVitest\npnpm\n'));
 * const isWord = (w: string) => terms.has(w.toLowerCase()) || checker.correct(w);
 * ```
 */
export function wordList(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const w = line.trim();
    if (w && !w.startsWith('#')) out.push(w.toLowerCase());
  }
  return out;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
/** Uses in the session that make a word the dictionary lacks a term of its own ("docstrings", "vitest"). */
const OWN_TERM = 3;

/**
 * The spellings one edit from `w` (lower case) that {@link repairSpelling} tries (see the module's
 * notes); two letters swapped go to `swaps` (tried first), a last letter changed to `ends` (which needs
 * more evidence).
 */
function edits(w: string, swaps: Set<string>, ends: Set<string>): Set<string> {
  const out = new Set<string>();
  const last = w.length - 1;
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    const doubled = b.length > 0 && (b[0] === b[1] || (i > 0 && b[0] === w[i - 1]));
    if (b && (i < last || doubled) && (i > 0 || doubled)) out.add(a + b.slice(1));
    if (b.length > 1 && b[0] !== b[1]) swaps.add(a + b[1] + b[0] + b.slice(2));
    for (const c of ALPHABET) {
      if (b && i > 0 && c !== b[0]) (i < last ? out : ends).add(a + c + b.slice(1));
      out.add(a + c + b);
    }
  }
  out.delete(w);
  return out;
}

/**
 * The one best repair of `w` (lower case) that the session uses, or undefined when there is none or
 * two are as good. A candidate's weight is how often the session uses it (a split: its rarer half).
 */
function bestRepair(w: string, opts: SpellingOptions, maySplit: boolean): string | undefined {
  // A negation typed without its apostrophe ("dont", "wasnt") is no typo to repair here: the key-point
  // writer writes it with its apostrophe (writer.ts `withApostrophes`), and its nearest words ("font",
  // "done") are other words.
  if (w.endsWith('nt') && opts.isWord(`${w.slice(0, -1)}'t`)) return undefined;
  let best: string | undefined;
  let bestCount = 0;
  let tie = false;
  const consider = (candidate: string, count: number) => {
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
      tie = false;
    } else if (count === bestCount && count > 0 && candidate !== best) tie = true;
  };
  const swaps = new Set<string>();
  const ends = new Set<string>();
  const others = edits(w, swaps, ends);
  // Two letters swapped is the commonest slip of the keyboard: a swap the session uses wins over any
  // other edit ("yoru" is "your", not "you"; "cuase" is "cause", not "case").
  for (const c of swaps) {
    const n = opts.counts.get(c) ?? 0;
    if (n > 0 && opts.isWord(c)) consider(c, n);
  }
  if (best !== undefined && !tie) return best;
  for (const c of others) {
    const n = opts.counts.get(c) ?? 0;
    // A word the dictionary knows, or a term the session uses again and again ("docstrings").
    if (n >= OWN_TERM || (n > 0 && opts.isWord(c))) consider(c, n);
  }
  // A last letter changed is a typo only for a word the session uses again and again ("beforu"):
  // an ending is grammar ("renderer" is no "rendered").
  for (const c of ends) {
    const n = opts.counts.get(c) ?? 0;
    if (n >= OWN_TERM && opts.isWord(c)) consider(c, n);
  }
  if (maySplit)
    for (let i = 1; i < w.length; i++) {
      const a = w.slice(0, i);
      const b = w.slice(i);
      const short = FUNCTION_WORDS.has(a) ? b : FUNCTION_WORDS.has(b) ? a : undefined;
      if (!short || short.length < 3) continue;
      const n = Math.min(opts.counts.get(a) ?? 0, opts.counts.get(b) ?? 0);
      if (n > 0 && opts.isWord(a) && opts.isWord(b)) consider(`${a} ${b}`, n);
    }
  return tie ? undefined : best;
}

/** Prepositions before which a verb takes its -ing form: "before pushing it", "without asking". */
const TAKES_GERUND = /\b(?:before|after|without|by|about|from|for|of)\s+$/i;
/** How much of the text before a word {@link gerundAfter} reads: the longest preposition and spaces. */
const TAIL = 24;
/** A split into a verb and its object or particle ("push it", "clean up"). */
const VERB_AND_OBJECT = /^([a-z]{2,}) (it|up|out|off|on|in)$/;

/**
 * A split's verb in its -ing form after a preposition that takes one: "beforu pushit" is "before
 * pushing it", not "before push it" (a bare word before "it" after "before" can only be a verb). The
 * form must be a dictionary word ("running", "making"); else the split stays as it is.
 */
function gerundAfter(preceding: string, fix: string, opts: SpellingOptions): string {
  const split = VERB_AND_OBJECT.exec(fix);
  if (!split || !TAKES_GERUND.test(preceding)) return fix;
  const verb = split[1]!;
  const forms = [`${verb}ing`, `${verb.slice(0, -1)}ing`, `${verb}${verb.at(-1)}ing`];
  const form = forms.find((f, i) => (i !== 1 || verb.endsWith('e')) && opts.isWord(f));
  return form ? `${form} ${split[2]}` : fix;
}

/** Whether a sentence starts at `at` of `text`: nothing but spaces, a list marker or `>` after a stop. */
function sentenceStart(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && ' \t-*•>#'.includes(text[j]!)) j--;
  return j < 0 || '.!?:\n'.includes(text[j]!);
}

/**
 * `text` with its typos repaired against the session's own words (see the module's notes for when a
 * word counts as a typo), and the repairs made. Words in backticks, glued to code or paths, in capitals
 * or camel case are never touched; a capitalised word keeps its capital. Never throws: a dictionary that
 * throws repairs nothing.
 *
 * @example
 * ```ts
 * const counts = wordCounts(['git push', 'Run the specs before you push it.', 'Always run specs beforu pushit.']);
 * const isWord = (w: string) => ['run', 'the', 'specs', 'before', 'you', 'push', 'pushing', 'it', 'always', 'git'].includes(w.toLowerCase());
 * repairSpelling('Always run specs beforu pushit.', { isWord, counts }).text; // 'Always run specs before pushing it.'
 * ```
 */
export function repairSpelling(
  text: string,
  opts: SpellingOptions,
): { text: string; repairs: SpellingRepair[] } {
  try {
    return repaired(text, opts);
  } catch {
    // A dictionary (or counts) that throws repairs nothing: the text stays as typed.
    return { text: typeof text === 'string' ? text : '', repairs: [] };
  }
}

function repaired(text: string, opts: SpellingOptions): { text: string; repairs: SpellingRepair[] } {
  const repairs: SpellingRepair[] = [];
  let out = '';
  let last = 0;
  let inCode = false;
  let codeFrom = 0;
  for (const m of text.matchAll(WORD)) {
    const at = m.index;
    // Backticks before this word, counted from the last word: odd means inside code.
    for (let i = codeFrom; i < at; i++) if (text.charCodeAt(i) === 0x60) inCode = !inCode;
    const word = m[0];
    const end = at + word.length;
    codeFrom = end;
    if (inCode || word.length < 4 || word.length > MAX_WORD || /['’]/.test(word)) continue;
    const before = text[at - 1] ?? ' ';
    const after = text[end] ?? ' ';
    // A sentence's full stop is no code; a word of another alphabet is no typo.
    const stop = after === '.' && !/\w/.test(text[end + 1] ?? ' ');
    if (GLUED.test(before) || (GLUED.test(after) && !stop) || OTHER.test(before) || OTHER.test(after))
      continue;
    const lower = word.toLowerCase();
    const capitalised = word !== lower && word.slice(1) === lower.slice(1);
    if (word !== lower && !(capitalised && sentenceStart(text, at))) continue; // GH, camelCase, names
    if (opts.isWord(word) || opts.isWord(lower)) continue;
    if ((opts.counts.get(lower) ?? 0) > 1) continue; // the session's own word
    let fix = bestRepair(lower, opts, !capitalised);
    if (!fix) continue;
    // The words just before this one, as repaired so far (a bounded tail: no copy of the whole text).
    const gap = at - last;
    const preceding = gap >= TAIL ? text.slice(at - TAIL, at) : out.slice(gap - TAIL) + text.slice(last, at);
    fix = gerundAfter(preceding, fix, opts);
    const to = capitalised ? fix[0]!.toUpperCase() + fix.slice(1) : fix;
    repairs.push({ from: word, to });
    out += text.slice(last, at) + to;
    last = end;
  }
  return repairs.length ? { text: out + text.slice(last), repairs } : { text, repairs };
}

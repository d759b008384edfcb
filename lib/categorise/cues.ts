/**
 * The word cues of the categorizer (classify.ts): one flag bit per set of words, and a code for the
 * words a decision names one by one. Data: chosen on the tune sources of eval/snapshot/.
 */
import type { SnapshotCategory } from './codes.js';

export const set = (s: string) => s.split(' ');

// Word sets, one flag bit each (bits 0–21); bits 24–30 hold a code for words checked one by one.
export const SETS: [number, string[]][] = [
  [
    1 << 0, // PROBLEM: a status word that says something is wrong
    set(
      'error errors fail fails failed failing failure failures broken break breaks blocked blocker blockers ' +
        'blocking exception exceptions crash crashes crashed crashing timeout timeouts panic panics denied ' +
        "cannot unable stuck regression regressions traceback segfault hang hangs hanging flaky can't won't " +
        'red 401 403 404 500 oom missing wrong incorrect incorrectly inconsistent violates violation lacks ' +
        'lacked lacking uncovered pointless typo unfounded hallucination mismatch bogus unsupported corrupt ' +
        // a slip or omission reported as done is still a problem: "I missed an import", "forgot to add"
        'missed forgot forgotten overlooked omitted neglected mistyped misspelled misnamed mistake mistakes ' +
        // defects named without a status word: "my changes broke X", "an oversight", "a redundant check"
        'broke oversight oversights flaw flaws flawed violated violations misunderstanding misunderstood ' +
        'misinterpreted redundant redundancy repetitive annoying smelly lost losing inaccurate inaccurately unhashable destroys ' +
        'fragile problematic brittle buggy tricky aborted refused exceeded',
    ),
  ],
  [
    1 << 1, // NEGATOR
    set(
      "no not never without zero 0 none nothing nor neither isn't aren't wasn't weren't doesn't don't " +
        "didn't hasn't haven't shouldn't couldn't wouldn't",
    ),
  ],
  [1 << 2, set('fixed resolved solved unblocked addressed cleared gone anymore mitigated')], // RESOLVED
  [
    1 << 3, // PASSING: things work, or are done
    set(
      'passes passing passed pass green works working worked succeeded succeeds success successful ' +
        'successfully ok done complete completed finished clean cleanly',
    ),
  ],
  [1 << 4, set('be to need needs should must until once if when unless will would')], // IRREALIS
  [1 << 5, set('still again remains remain persists persist persisted persisting')], // STILL
  [
    1 << 6, // HEDGE
    set(
      'maybe might perhaps probably likely possibly presumably suspect suspects suspected suspicion ' +
        'hypothesis hypothesize theory guess seems seem seemed apparently plausibly possible potentially ' +
        'suggests suggesting suspicious unconfirmed',
    ),
  ],
  [1 << 7, set('unclear unknown tbd question questions wonder wondering undecided')], // REPORTED QUESTION
  [1 << 8, set('next todo to-do plan planned follow followup')], // WEAK ACTION
  [
    1 << 9, // IMPERATIVE: verbs that open a plan
    set(
      'add fix run rerun update write check investigate implement remove refactor verify test create rename ' +
        'move migrate review retry bump document ensure try split profile measure benchmark deploy revert ' +
        'reproduce debug look read replace use switch wire make set configure install upgrade delete clean ' +
        'merge open ask confirm compare extract validate port draft finish continue start rewrite simplify ' +
        'cache drop handle close commit push mark modify examine inspect search find explore submit stage ' +
        'unstage apply build edit patch print keep exclude include change convert restore skip wait get ' +
        'collect decompile navigate locate grep list launch enable disable mock guide prioritize consider ' +
        'fetch download upload sync save import export revisit rebase tag release publish format lint ' +
        'need recheck double-check double avoid introduce pin unpin bisect trace audit rerunning insert append prepend pass ' +
        'call store preserve show provide structure focus define combine execute amend clone strip specify ' +
        'go press click generate rebuild stop translate scroll visit proceed restart reload refresh paste ' +
        'place select enter regenerate track copy symlink register expose inject scaffold unwrap redeploy ' +
        'annotate consolidate dedupe normalize sanitize encode decode parse serialize invalidate paginate',
    ),
  ],
  [1 << 10, set('why how what which whether who where is are does do can should could would will')], // Q START
  [
    1 << 11, // DISCOURSE: skipped before the first word that counts
    set(
      'now ok okay so then first next great good perfect alright also finally but and wait right yes either please ' +
        'actually well excellent hmm oh however instead otherwise lastly second secondly third further just ' +
        'simply manually',
    ),
  ],
  [1 << 12, set('i we you')], // SUBJECT of a plan
  [1 << 13, set('expected normal harmless intended benign ignorable known fine')], // BENIGN
  [
    1 << 14, // FUNCTION: negated, it is a problem ("doesn't work", "not found")
    set(
      'work works working support supported supports exist exists existing configured installed found ' +
        'match matches compile compiles start starts load loads run runs recognized recognize interpreted ' +
        'recovered yield reach defined available allowed correct correctly properly valid pass passes ' +
        'exported imported registered called triggered applied respected honored trigger triggers triggering',
    ),
  ],
  [1 << 15, set("have has had was were been got i've we've")], // DONE AUXILIARY
  [1 << 16, set('done built made written set run found seen put got made begun taken')], // IRREGULAR PARTICIPLE
  [1 << 17, set('if when unless whenever where')], // CONDITION
  [1 << 18, set("i'll we'll you'll let's lets")], // PLAN CONTRACTION
  [1 << 19, set('issue issues problem problems bug bugs culprit cause')], // DIAGNOSIS NOUN
  [
    1 << 22, // FINITE: after a first word, makes it a subject ("Build fails", "Test passed")
    set(
      'fails failed crashes crashed breaks hangs panics is are was were passes passed works worked ' +
        'succeeds succeeded times timed returns returned throws threw raises raised ' +
        // Auxiliaries and modals: "Adding X risks Y", "Cloning is cheap", "Test has been …".
        'has have had will would can could should may might does did do seems makes risks',
    ),
  ],
];

export const PROBLEM = 1 << 0;
export const NEG = 1 << 1;
export const RES = 1 << 2;
export const PASS = 1 << 3;
export const IRR = 1 << 4;
export const STILL = 1 << 5;
export const HEDGE = 1 << 6;
export const RQ = 1 << 7;
export const WEAK = 1 << 8;
export const IMP = 1 << 9;
export const QSTART = 1 << 10;
export const DISC = 1 << 11;
export const SUBJ = 1 << 12;
export const BENIGN = 1 << 13;
export const FUNC = 1 << 14;
export const AUX = 1 << 15;
export const PART = 1 << 16;
export const COND = 1 << 17;
export const PLANC = 1 << 18;
export const DIAG = 1 << 19;
/** Participle by its ending (`added`, `updated`): set by {@link wordFlags}, not by a list. */
export const ED = 1 << 20;
/** An error type by its ending (`KeyError`): still a problem when quoted as code. */
export const ERRTYPE = 1 << 21;
export const FINITE = 1 << 22;
/** Opens a clause (after `,` `;` or `:`): set from the text's punctuation, not by a list. */
export const CLAUSE = 1 << 23;

// Word codes (bits 24–30) for the words some decision names one by one.
export const CODES = set(
  'let me us no longer could may might be i think sure free none is are should need needs to will going ' +
    'but have can want fix work now needed there whether times timed out of expected got never clear know idea certain ' +
    'the it a them this useful helpful handy interesting worthwhile as than asked must only always step assume ' +
    'red state phase regression regressions test tests testing suite suites observed noticed encountered fail safe fast ' +
    'resolve solve address on if when ignore ignores ignoring handle handles handling missing error errors ' +
    'failure failures timeout timeouts crash crashes exception exceptions and or',
);
export const code = (w: string) => CODES.indexOf(w) + 1;
/**
 * The word code held in a word's flags (bits 24–30), 0 for a word no decision names one by one.
 *
 * @example
 * ```ts
 * codeOf(wordFlags('should')) === C_SHOULD; // true
 * ```
 */
export const codeOf = (f: number): number => (f >>> 24) & 0x7f;
export const C_LET = code('let');
export const C_ME = code('me');
export const C_US = code('us');
export const C_NO = code('no');
export const C_LONGER = code('longer');
export const C_COULD = code('could');
export const C_MAY = code('may');
export const C_MIGHT = code('might');
export const C_BE = code('be');
export const C_I = code('i');
export const C_THINK = code('think');
export const C_ASSUME = code('assume');
export const C_SURE = code('sure');
export const C_FREE = code('free');
export const C_NONE = code('none');
export const C_IS = code('is');
export const C_ARE = code('are');
export const C_SHOULD = code('should');
export const C_NEED = code('need');
export const C_NEEDS = code('needs');
export const C_TO = code('to');
export const C_WILL = code('will');
export const C_GOING = code('going');
export const C_BUT = code('but');
export const C_HAVE = code('have');
export const C_CAN = code('can');
export const C_WANT = code('want');
export const C_FIX = code('fix');
/** Verbs of an expected resolution ("This should fix / resolve the error"), by their word codes. */
export const RESOLVE_VERBS: ReadonlySet<number> = new Set(
  ['fix', 'work', 'resolve', 'solve', 'address'].map(code),
);
export const C_NOW = code('now');
export const C_NEEDED = code('needed');
export const C_THERE = code('there');
export const C_WHETHER = code('whether');
export const C_TIMES = code('times');
export const C_TIMED = code('timed');
export const C_OUT = code('out');
export const C_OF = code('of');
export const C_EXPECTED = code('expected');
export const C_GOT = code('got');
export const C_AS = code('as');
export const C_THAN = code('than');
export const C_ASKED = code('asked');
export const C_MUST = code('must');
export const C_ONLY = code('only');
export const C_ALWAYS = code('always');
export const C_STEP = code('step');
/** The codes from C_CLEAR to C_KNOW_LAST: knowing, which negated before `why` / `whether` asks. */
export const C_CLEAR = code('clear');
export const C_KNOW_LAST = code('certain');
/** The codes from C_THE to C_OBJECT_LAST: words that open an object ("run the suite", "submit it"). */
export const C_THE = code('the');
export const C_OBJECT_LAST = code('this');
/** The codes from C_USEFUL to C_EVAL_LAST: judgements of use ("could be useful" is no guess). */
export const C_USEFUL = code('useful');
export const C_EVAL_LAST = code('worthwhile');

export const KIND = new Map<string, number>();
for (const [bit, ws] of SETS) for (const w of ws) KIND.set(w, (KIND.get(w) ?? 0) | bit);
for (let i = 0; i < CODES.length; i++) KIND.set(CODES[i]!, (KIND.get(CODES[i]!) ?? 0) | ((i + 1) << 24));

/**
 * What the categorizer needs to know of one lower-cased word: its set bits and word code, computed
 * once per distinct word (the snapshot's vocabulary caches it).
 *
 * @example
 * ```ts
 * wordFlags('failing') !== 0; // true: a status word
 * wordFlags('parser');        // 0
 * ```
 */
export function wordFlags(w: string): number {
  let f = KIND.get(w) ?? 0;
  const n = w.length;
  // "added", "updated": a participle that can report something done; "proceed", "need" are not.
  if (n >= 5 && w.charCodeAt(n - 1) === 0x64 && w.charCodeAt(n - 2) === 0x65 && w.charCodeAt(n - 3) !== 0x65)
    f |= ED;
  // "KeyError", "ImageComparisonFailure": an error type named in a sentence.
  if (n > 7 && (w.endsWith('error') || w.endsWith('exception') || w.endsWith('failure')))
    f |= PROBLEM | ERRTYPE;
  return f;
}

/** The length of the longest keyword made of digits (`404`): a longer number has no {@link wordFlags}. */
export const MAX_DIGIT_KEYWORD = Math.max(
  0,
  ...[...KIND.keys()].filter((w) => /^[0-9]+$/.test(w)).map((w) => w.length),
);

/** Punctuation that can open a clause (see {@link readPunctuation}). */
export const PUNCTUATION = /[,;:]/;

/** Whether a word code opens an object: "to", "the", "a", "it", "them", "this". */
export function opensObject(code: number): boolean {
  return code === C_TO || (code >= C_THE && code <= C_OBJECT_LAST);
}

/**
 * What punctuation says of the words: quoted as code (`not_found`, `missing_colon.py`), a word is a
 * name, not a statement, so its flags are cleared (an error type such as `KeyError` stays a
 * problem); after `,` `;` or `:`, a word opens a clause (CLAUSE; not after a dash, which in agent
 * notes mostly introduces a title). Words are aligned with
 * `words` (runs of letters and digits; an apostrophe between letters continues one), so text with
 * other non-ASCII characters than dashes is left as it is.
 */
export function readPunctuation(fs: number[], n: number, raw: string): void {
  let quoted = opensInCode(raw);
  let clause = false;
  let w = -1; // index of the current word
  let inWord = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x80 && c !== 0x2013 && c !== 0x2014) return;
    const alnum = ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || (c >= 0x30 && c <= 0x39);
    if (alnum) {
      if (!inWord) {
        inWord = true;
        w++;
        if (w >= n) return;
        if (quoted) fs[w] = fs[w]! & ERRTYPE ? PROBLEM : 0;
        else if (clause) fs[w] = fs[w]! | CLAUSE;
        clause = false;
      }
    } else if (!(c === 0x27 && inWord && i + 1 < raw.length && isLetter(raw.charCodeAt(i + 1)))) {
      inWord = false;
      if (c === 0x60) quoted = !quoted;
      else if (c === 0x2c || c === 0x3b || c === 0x3a)
        clause = i + 1 < raw.length && raw.charCodeAt(i + 1) === 0x20;
    }
  }
}

/**
 * Whether the text starts inside a code span cut by the excerpt: its backticks are odd in number
 * and the first one closes a span (a word right before it, no word right after it: "ADD` without").
 */
export function opensInCode(raw: string): boolean {
  let ticks = 0;
  let first = -1;
  for (let i = 0; i < raw.length; i++)
    if (raw.charCodeAt(i) === 0x60) {
      if (first < 0) first = i;
      ticks++;
    }
  if (ticks % 2 === 0 || first <= 0 || raw.charCodeAt(first - 1) <= 0x20) return false;
  const after = raw.charCodeAt(first + 1);
  return !(after > 0x20 && (isLetter(after) || (after >= 0x30 && after <= 0x39)));
}

function isLetter(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

/**
 * Whether the `k`-th `is` / `are` of the text (`copulaAt(raw)`, 1 for the first, 0 for none) only
 * names a thing: no problem, diagnosis, hedge, negation or question word before it ("The file we want
 * is …", not "The bug is in …"). The words are read first; `copulaAt` (a scan of the characters) runs
 * only when some copula could qualify. It comes with its text rather than as a closure, which every
 * entry with a path would allocate.
 *
 * @example
 * ```ts
 * namesPlace(fs, n, raw, copulaPointer); // "The log we are after is at /tmp/run.log." → true
 * ```
 */
export function namesPlace(
  fs: readonly number[],
  n: number,
  raw: string,
  copulaAt: (raw: string) => number,
): boolean {
  let naming = 0; // the copulas before the first word that says more than a name
  for (let i = 0; i < n; i++) {
    const c = codeOf(fs[i]!);
    if (c === C_IS || c === C_ARE) naming++;
    else if (fs[i]! & (PROBLEM | DIAG | HEDGE | NEG | QSTART)) break;
  }
  if (naming === 0) return false;
  const k = copulaAt(raw);
  return k > 0 && k <= naming;
}

/**
 * The category an entry's scope forces, if its name is one (`blockers`, `nextActions`, `evidence`, …);
 * otherwise the entry is categorized by its text.
 *
 * @example
 * ```ts
 * scopeCategory('blockers'); // 'blockers'
 * scopeCategory('notes');    // undefined
 * ```
 */
export function scopeCategory(scope: string): SnapshotCategory | undefined {
  const s = scope.toLowerCase();
  if (s.startsWith('blocker') || s === 'blocked' || s === 'issues') return 'blockers';
  if (s.startsWith('hypothes') || s === 'theories' || s === 'theory') return 'openHypotheses';
  if (s === 'next' || s.startsWith('next') || s.startsWith('action') || s === 'todo' || s === 'plan')
    return 'nextActions';
  if (s.startsWith('question')) return 'unresolvedQuestions';
  if (s.startsWith('evidence') || s.startsWith('link') || s.startsWith('artifact'))
    return 'requiredEvidenceLinks';
  return undefined;
}

/**
 * The category a task's status gives: blocked → blockers; open → next actions; done → none.
 *
 * @example
 * ```ts
 * taskCategory('blocked'); // 'blockers'
 * taskCategory('done');    // undefined
 * ```
 */
export function taskCategory(status: string): SnapshotCategory | undefined {
  const s = status.toLowerCase().replace(/[\s-]+/g, '_');
  if (s === 'blocked' || s === 'failed' || s === 'failing') return 'blockers';
  if (
    s === 'done' ||
    s === 'completed' ||
    s === 'complete' ||
    s === 'closed' ||
    s === 'cancelled' ||
    s === 'skipped'
  )
    return undefined;
  return 'nextActions';
}

/**
 * Whether the words from `i` open a plan: a verb, maybe after one adverb ("will first check", "should
 * only replace").
 *
 * @example
 * ```ts
 * opensPlan([KIND.get('run')!], 0, 1); // true
 * ```
 */
export function opensPlan(fs: readonly number[], i: number, n: number): boolean {
  if (i >= n) return false;
  if (fs[i]! & IMP) return true;
  const adverb = (fs[i]! & DISC) !== 0 || codeOf(fs[i]!) === C_ONLY || codeOf(fs[i]!) === C_ALWAYS;
  return adverb && i + 1 < n && (fs[i + 1]! & IMP) !== 0;
}

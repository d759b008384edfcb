/**
 * Shapes of `rearview/learn`: the sources it reads, its options, and the rules it proposes with
 * their evidence.
 */

import type { CompiledMarkers, MarkerSet, TurnScorer, TurnScores } from '../heuristic/index.js';
import type { OtherLanguage } from '../language/index.js';

/**
 * One session file. Exactly one of `text`, `bytes` or `stream` carries the content; a stream is read
 * to its end (one session at a time is held in memory, never the whole folder).
 *
 * @example
 * ```ts
 * const source: LearnSource = { name: 'sessions/a.jsonl', text: jsonl, modified: '2025-03-01T10:00:00Z' };
 * ```
 */
export interface LearnSource {
  /** Where it came from (a path, a file name): evidence links name it. */
  name: string;
  text?: string;
  bytes?: Uint8Array | ArrayBuffer;
  stream?: ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string>;
  /**
   * When the file was last written (a string is read as ISO 8601): the date of evidence whose turn
   * carries no timestamp, when the export records no start (SpecStory's title) and `name` holds no
   * date-time (`2025-07-18_01-12Z-….md`, `rollout-2025-09-07T01-32-39-….jsonl`). Last because a copy
   * or a download resets it.
   */
  modified?: string | number | Date;
}

/**
 * What {@link LearnOptions.onProgress} is told after every source.
 *
 * @example
 * ```ts
 * const onProgress = (p: LearnProgress) => console.log(`${p.files} files, ${p.rules} rules`);
 * ```
 */
export interface LearnProgress {
  /** Sources read so far (skipped ones included). */
  files: number;
  /** Bytes read so far (UTF-8). */
  bytes: number;
  /** Sessions analysed so far (an aider history holds one per `# aider chat started at`). */
  sessions: number;
  /** Rules that already have evidence from at least `minSessions` sessions (before near-duplicate merging). */
  rules: number;
}

/**
 * A model learn may ask to tighten the proposed rules (any `LlmClient` of `rearview/llm` fits).
 *
 * @example
 * ```ts
 * const llm: LearnLlm = { complete: async () => ({ text: '[]', usage: { inputTokens: 0, outputTokens: 0 } }) };
 * ```
 */
export interface LearnLlm {
  complete(request: {
    system?: string;
    messages: { role: 'user' | 'assistant'; content: string }[];
    maxTokens: number;
    temperature?: number;
    signal?: AbortSignal;
  }): Promise<{ text: string; usage: { inputTokens: number; outputTokens: number } }>;
}

/**
 * The token cost of the optional model pass: estimated before the call, reported after it.
 *
 * @example
 * ```ts
 * const cost: LlmCost = { estimatedInputTokens: 900, maxOutputTokens: 1200 };
 * ```
 */
export interface LlmCost {
  estimatedInputTokens: number;
  maxOutputTokens: number;
  /** Set after the call: what the provider reported. */
  inputTokens?: number;
  outputTokens?: number;
  /** Set when the call was declined (`confirmLlm` said no) or failed. */
  skipped?: string;
  /** Set after the call: rules the model rewrote. */
  rewritten?: number;
  /** Set after the call: rules the model dropped (a one-off, unclear, or no instruction). */
  dropped?: number;
  /**
   * Set after the call: rewrites the rule judge refused (garbled, a template, not self-contained…, as
   * `judgeRule` says); those rules keep their own text.
   */
  refused?: number;
}

/**
 * Options of `learn`.
 *
 * @example
 * ```ts
 * const options: LearnOptions = { minSessions: 2, budget: 600, against: agentsMd };
 * ```
 */
export interface LearnOptions {
  /** A rule needs evidence from at least this many sessions (default 2; 1 keeps one-offs). */
  minSessions?: number;
  /**
   * Only evidence dated at or after this counts: what the sessions taught since AGENTS.md last
   * changed, say. A `Date`, epoch milliseconds, or an ISO 8601 day (`2025-03-01`, UTC midnight) or
   * time with its offset (`2025-03-01T09:00:00+01:00`). Evidence without a date counts. The findings
   * left out are counted in `filtered['before since']`. Anything else: a `ValidationError`.
   */
  since?: Date | number | string;
  /** The existing AGENTS.md / CLAUDE.md text: what it already says is never proposed. */
  against?: string;
  /** Token budget of the proposed section (`estimateTokens` of core); rules past it are `overBudget`. */
  budget?: number;
  signal?: AbortSignal;
  onProgress?: (progress: LearnProgress) => void;
  /** Sources larger than this many bytes are skipped (default 256 MiB). */
  maxSourceBytes?: number;
  /** Extra redaction patterns, as `rearview/redact` takes them. */
  redactPatterns?: { kind: string; pattern: RegExp | string }[];
  /**
   * A learned scorer for people's turns (`readerModel` or `correctionModel` of
   * `rearview/heuristic-model`), as `heuristicReflect` takes it; the markers alone without it. A scorer
   * that throws leaves the marker scores in place.
   */
  scorer?: TurnScorer;
  /** The scores a finding needs, as `heuristicReflect` takes them (`READER_MIN_SCORE` with the reader). */
  minScore?: number | Partial<TurnScores>;
  /**
   * The markers that read people's turns, as `heuristicReflect` takes them (`DEFAULT_MARKERS`, English,
   * without them). `await loadLanguageMarkers()` of `rearview/heuristic` adds the common corrections,
   * approvals and friction of Spanish, Portuguese, French, German, Russian, Italian, Chinese and Japanese.
   */
  markers?: MarkerSet | CompiledMarkers;
  /**
   * A dictionary test (the CLI passes Hunspell's en_US and en_GB through `nspell`, and cspell's software
   * terms): with it, a typo in a rule written from a person's turn is repaired when the session itself
   * uses the one best repair ("beforu pushit" → "before pushing it"; `repairSpelling` of
   * rearview/playbook). Without it rules keep the person's spelling.
   */
  isWord?: (word: string) => boolean;
  /** A model to tighten the rules; none is called without it. */
  llm?: LearnLlm;
  /** Told the estimated cost before the model call; returning false skips the call. */
  confirmLlm?: (cost: LlmCost) => boolean | Promise<boolean>;
  /** Most candidates seen in one session only that the result lists (default 20). */
  oneOffLimit?: number;
  /**
   * The group (author, project) of a source, from its name: each rule then lists its sessions per
   * group in `groups`. Undefined or '' leaves a source out of every group.
   */
  groupBy?: (name: string) => string | undefined;
}

/**
 * One turn that supports a rule: a link back to the session.
 *
 * @example
 * ```ts
 * const e: Evidence = { session: 'a.jsonl', message: 'u12', line: 40, date: '2025-03-01T10:00:00Z', quote: 'No, use pnpm.' };
 * ```
 */
export interface Evidence {
  session: string;
  /** The message id (`Message.id` of `rearview/transcript`). */
  message: string;
  /** 1-based line of the message in its source, when the format has lines. */
  line?: number;
  /**
   * When the turn was written, ISO 8601 in UTC: its own timestamp or the latest before it (a time
   * the source writes with no offset is read as UTC), else the session's recorded start, a
   * date-time in the source's name, or `LearnSource.modified`.
   */
  date?: string;
  /**
   * The turn's text on one line, redacted; a long turn is clipped to 200 characters around the
   * sentence the rule was written from (`…` marks a cut).
   */
  quote: string;
}

/**
 * `rule`: a correction ("do this, not that"); `preference`: how the user likes things done;
 * `failure`: a tool error class and the change that made a later call work.
 *
 * @example
 * ```ts
 * const kind: RuleKind = 'failure';
 * ```
 */
export type RuleKind = 'rule' | 'preference' | 'failure';

/**
 * An existing line of the `against` file.
 *
 * @example
 * ```ts
 * const l: ExistingLine = { line: 3, text: '- Use npm to install.' };
 * ```
 */
export interface ExistingLine {
  line: number;
  text: string;
}

/**
 * A proposed rule with its evidence.
 *
 * @example
 * ```ts
 * result.rules[0]; // { kind: 'rule', text: 'Use pnpm instead of npm.', sessions: 3, count: 4, … }
 * ```
 */
export interface LearnedRule {
  /** Stable within a result: `r1`, `r2`… in rank order. */
  id: string;
  kind: RuleKind;
  text: string;
  /** Distinct sessions with evidence. */
  sessions: number;
  /** Turns (or failed calls) with evidence. */
  count: number;
  firstDate?: string;
  lastDate?: string;
  /** Rank score: evidence first, then recency. */
  score: number;
  /** Up to 12 evidence turns, one per session first. */
  evidence: Evidence[];
  /** Existing lines of the `against` file this rule's evidence contradicts. */
  contradicts?: ExistingLine[];
  /** With `groupBy`: sessions with evidence per group, most first (ties by name). */
  groups?: { group: string; sessions: number }[];
}

/**
 * A candidate the `against` file already says: the line that says it, and the sessions in which the
 * person said it again. Evidence dated after the line was written means the agent did not follow the
 * line; evidence from before, that the line came from it (the file's history tells which).
 *
 * @example
 * ```ts
 * const a: AlreadyThere = {
 *   rule: 'Use pnpm, not npm.',
 *   line: { line: 3, text: '- Use pnpm, not npm.' },
 *   sessions: 3,
 *   count: 4,
 *   lastDate: '2025-03-01T10:01:00.000Z',
 *   evidence: [],
 * };
 * ```
 */
export interface AlreadyThere {
  rule: string;
  line: ExistingLine;
  /** Distinct sessions with evidence. */
  sessions: number;
  /** Turns (or failed calls) with evidence. */
  count: number;
  firstDate?: string;
  lastDate?: string;
  /** Up to 12 evidence turns, one per session first. */
  evidence: Evidence[];
}

/**
 * A source that could not be read, and why; the run went on without it.
 *
 * @example
 * ```ts
 * const s: SkippedSource = { name: 'LICENSE', code: 'learn_source_unrecognised', reason: 'Could not detect the format' };
 * ```
 */
export interface SkippedSource {
  name: string;
  code: string;
  reason: string;
  line?: number;
  column?: number;
}

/**
 * A contradiction between the `against` file and the sessions: the line, the rule the sessions teach
 * instead, in how many sessions, and when (the rule's first and last evidence: a line contradicted
 * lately is likely out of date).
 *
 * @example
 * ```ts
 * const c: Contradiction = { line: 4, text: '- Use npm.', rule: 'Use pnpm, not npm.', sessions: 3 };
 * ```
 */
export interface Contradiction extends ExistingLine {
  rule: string;
  sessions: number;
  firstDate?: string;
  lastDate?: string;
}

/**
 * Sessions of a `learn` run written in the languages the default markers miss.
 *
 * @example
 * ```ts
 * const { otherLanguages: o } = await learn(sources);
 * if (o) console.log(`${o.sessions} of ${o.of} sessions read as ${o.names}`); // "2 of 9 sessions read as Chinese"
 * ```
 */
export interface LearnLanguages {
  /** Sessions whose people's turns read as one of the eight languages (at least two and a tenth of them). */
  sessions: number;
  /** All the sessions read. */
  of: number;
  /** Those sessions' turns in the eight languages. */
  turns: number;
  /** Turns per language, most first. */
  languages: Partial<Record<OtherLanguage, number>>;
  /** Their English names, most first, as a phrase: "Chinese and Spanish". */
  names: string;
}

/**
 * What `learn` found.
 *
 * @example
 * ```ts
 * const { rules, skipped, contradictions } = await learn(sources);
 * ```
 */
export interface LearnResult {
  /** Ranked, within the budget. */
  rules: LearnedRule[];
  /** Ranked candidates with evidence from fewer than `minSessions` sessions (at most `oneOffLimit`). */
  oneOffs: LearnedRule[];
  /** How many candidates fell under `minSessions`. */
  oneOffCount: number;
  /** Rules past the token budget, ranked. */
  overBudget: LearnedRule[];
  /** Candidates the `against` file already says, with the line that says it and their evidence. */
  alreadyThere: AlreadyThere[];
  contradictions: Contradiction[];
  /** Candidate texts left out by the quality rules, counted by reason. */
  filtered: Record<string, number>;
  skipped: SkippedSource[];
  stats: {
    files: number;
    bytes: number;
    sessions: number;
    humanTurns: number;
    /** Estimated tokens of the proposed section. */
    tokens: number;
    /** Words of candidate rules repaired as typos (`isWord` given), over every session. */
    repairedWords: number;
  };
  minSessions: number;
  budget?: number;
  /**
   * The sessions whose people's turns read as written in Spanish, Portuguese, French, German, Russian,
   * Italian, Chinese or Japanese (`otherLanguages` of rearview/language, per session). Key points are
   * written from English sentences only, so these sessions give few rules whatever `markers` is
   * (`loadLanguageMarkers()`'s read their corrections; `heuristicReflect` lists them as insights).
   * Absent when there is none.
   */
  otherLanguages?: LearnLanguages;
  /** True when the signal fired: the result covers the sources read before it. */
  aborted: boolean;
  llm?: LlmCost;
}

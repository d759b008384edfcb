/**
 * `learn`: from a folder of agent sessions to rules for AGENTS.md / CLAUDE.md, streaming one session at
 * a time.
 */
import {
  estimateTokens,
  formatLocation,
  isRearviewError,
  TranscriptError,
  ValidationError,
} from '../core/index.js';
import type { CompiledMarkers, MarkerSet } from '../heuristic/index.js';
import { type OtherLanguage, rankLanguages } from '../language/index.js';
import { createRedactor } from '../redact/index.js';
import { parseTranscript } from '../transcript/index.js';
import { againstSentences } from './against.js';
import { Aggregator } from './aggregate.js';
import { dateInName, isoInstant } from './dates.js';
import { toMarkdown } from './format.js';
import { refineWithModel } from './model.js';
import { analyseSession, splitSessions } from './session.js';
import {
  DEFAULT_MAX_SOURCE_BYTES,
  dropPrivate,
  LearnSourceError,
  modifiedIso,
  readSource,
} from './source.js';
import type {
  LearnedRule,
  LearnLanguages,
  LearnOptions,
  LearnResult,
  LearnSource,
  SkippedSource,
} from './types.js';

/** Hand the event loop back this often, so a worker hears its cancel message and a page stays responsive. */
const YIELD_MS = 40;

async function* iterate(
  sources: Iterable<LearnSource> | AsyncIterable<LearnSource>,
): AsyncGenerator<LearnSource> {
  if (sources && typeof (sources as AsyncIterable<LearnSource>)[Symbol.asyncIterator] === 'function') {
    yield* sources as AsyncIterable<LearnSource>;
  } else if (sources && typeof (sources as Iterable<LearnSource>)[Symbol.iterator] === 'function') {
    yield* sources as Iterable<LearnSource>;
  }
}

function skippedOf(name: string, err: unknown): SkippedSource {
  if (err instanceof LearnSourceError) {
    const s: SkippedSource = { name, code: err.code, reason: err.message.slice(name.length + 2) };
    if (err.location.line !== undefined) s.line = err.location.line;
    if (err.location.column !== undefined) s.column = err.location.column;
    return s;
  }
  if (err instanceof TranscriptError) {
    const unrecognised = /Could not detect the format/.test(err.message);
    // The location is said once, in `line` and `column`.
    const suffix = formatLocation(err.location);
    const reason =
      suffix && err.message.endsWith(suffix) ? err.message.slice(0, -suffix.length) : err.message;
    const s: SkippedSource = {
      name,
      code: unrecognised ? 'learn_source_unrecognised' : 'learn_source_malformed',
      reason,
    };
    if (err.location.line !== undefined) s.line = err.location.line;
    if (err.location.column !== undefined) s.column = err.location.column;
    return s;
  }
  const reason = isRearviewError(err) ? err.message : err instanceof Error ? err.message : String(err);
  return { name, code: isRearviewError(err) ? err.code : 'learn_source_failed', reason };
}

/**
 * Reads agent sessions and proposes the rules they teach, with their evidence.
 *
 * Each source is read, its `<private>…</private>` spans dropped, parsed (`parseTranscript`, lenient)
 * and its user turns redacted before anything else reads them; then the corrections and preferences
 * (the instruction each turn gives, `heuristicReflect` and the key-point policy) and the failure
 * classes whose fix worked (`rearview/failures`) are collected. Across sessions the same instruction is
 * one rule with its evidence (sessions, count, first and last date, links to the turns);
 * near-duplicates are merged (the playbook's dedup); rules with evidence from fewer than `minSessions`
 * sessions are one-offs; what `against` already says is left out and the lines it contradicts are
 * reported; rules are ranked by evidence, then recency, and cut to `budget` tokens.
 *
 * One source is in memory at a time. A source that cannot be read goes to `skipped` with its typed
 * error's code and location, and the run goes on. When `signal` fires, the result covers the sources
 * read so far (`aborted: true`). People's turns are read by the markers, or by `scorer` (a learned
 * scorer of `rearview/heuristic-model`) at `minScore`. No model is called unless `llm` is given. Never
 * rejects on bad input.
 *
 * @example
 * ```ts
 * import { learn, toMarkdown } from 'rearview/learn';
 *
 * const result = await learn(
 *   [{ name: 'a.jsonl', text: a }, { name: 'b.jsonl', text: b }],
 *   { against: agentsMd, budget: 800, onProgress: (p) => console.log(p.sessions, p.rules) },
 * );
 * console.log(toMarkdown(result));
 * ```
 */
export async function learn(
  sources: Iterable<LearnSource> | AsyncIterable<LearnSource>,
  options: LearnOptions = {},
): Promise<LearnResult> {
  const minSessions = Math.max(1, Math.floor(Number(options?.minSessions ?? 2)) || 2);
  const since = sinceMs(options?.since);
  const detector = detectorOf(options);
  const maxBytes =
    typeof options?.maxSourceBytes === 'number' ? options.maxSourceBytes : DEFAULT_MAX_SOURCE_BYTES;
  const signal = options?.signal;
  const redactor = createRedactor(options?.redactPatterns ? { patterns: options.redactPatterns } : {});
  const redactText = (t: string) => redactor.redactText(t);
  const agg = new Aggregator(minSessions);
  const tally: LanguageTally = { sessions: 0, turns: 0, counts: new Map() };
  const result: LearnResult = {
    rules: [],
    oneOffs: [],
    oneOffCount: 0,
    overBudget: [],
    alreadyThere: [],
    contradictions: [],
    filtered: {},
    skipped: [],
    stats: { files: 0, bytes: 0, sessions: 0, humanTurns: 0, tokens: 0, repairedWords: 0 },
    minSessions,
    aborted: false,
  };
  if (typeof options?.budget === 'number') result.budget = options.budget;
  const progress = () => {
    try {
      options?.onProgress?.({
        files: result.stats.files,
        bytes: result.stats.bytes,
        sessions: result.stats.sessions,
        rules: agg.ruleCount,
      });
    } catch {
      // A throwing progress sink must not stop the run.
    }
  };
  let lastYield = Date.now();
  try {
    for await (const source of iterate(sources)) {
      if (signal?.aborted) break;
      const name = redactText(
        typeof source?.name === 'string' && source.name ? source.name : `source-${result.stats.files + 1}`,
      );
      result.stats.files++;
      try {
        const { text, bytes } = await readSource(source, maxBytes, signal);
        result.stats.bytes += bytes;
        if (signal?.aborted) break;
        const group = groupOf(options?.groupBy, source?.name, redactText);
        readOne(
          name,
          text,
          modifiedIso(source?.modified),
          redactText,
          agg,
          result,
          tally,
          group,
          since,
          detector,
        );
      } catch (err) {
        result.skipped.push(skippedOf(name, err));
      }
      progress();
      if (Date.now() - lastYield >= YIELD_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        lastYield = Date.now();
      }
    }
  } catch (err) {
    // The iterable itself failed: what was read so far stands.
    result.skipped.push(
      skippedOf('<sources>', new LearnSourceError('learn_source_unreadable', '<sources>', errorText(err))),
    );
  }
  result.aborted = signal?.aborted === true;
  const languages = languagesOf(tally, result.stats.sessions);
  if (languages) result.otherLanguages = languages;
  const done = agg.finish(againstSentences(options?.against));
  result.alreadyThere = done.alreadyThere;
  result.contradictions = done.contradictions;
  result.oneOffCount = done.oneOffs.length;
  result.oneOffs = done.oneOffs.slice(0, Math.max(0, options?.oneOffLimit ?? 20));
  let rules = done.rules;
  if (options?.llm && rules.length && !result.aborted) {
    const refined = await refineWithModel(rules, options.llm, options.confirmLlm, redactText, signal);
    result.llm = refined.cost;
    rules = refined.rules;
    if (refined.dropped) result.filtered['model: not a standing rule'] = refined.dropped;
  }
  fitBudget(rules, options?.budget, result);
  progress();
  return result;
}

/** The sessions of a run that read as one of the eight languages, and their turns per language. */
interface LanguageTally {
  sessions: number;
  turns: number;
  counts: Map<OtherLanguage, number>;
}

/** The tally as `result.otherLanguages`; undefined when no session read as one of the languages. */
function languagesOf(t: LanguageTally, of: number): LearnLanguages | undefined {
  return t.sessions ? { sessions: t.sessions, of, turns: t.turns, ...rankLanguages(t.counts) } : undefined;
}

/** The source's group (redacted: it is printed), or undefined without `groupBy` or on its failure. */
function groupOf(
  groupBy: LearnOptions['groupBy'],
  name: unknown,
  redactText: (t: string) => string,
): string | undefined {
  if (typeof groupBy !== 'function' || typeof name !== 'string') return undefined;
  try {
    const g = groupBy(name);
    return typeof g === 'string' && g ? redactText(g) : undefined;
  } catch {
    return undefined;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Parses one source and feeds its sessions to the aggregator. Throws a typed error on a bad source. */
function readOne(
  name: string,
  raw: string,
  modified: string | undefined,
  redactText: (t: string) => string,
  agg: Aggregator,
  result: LearnResult,
  tally: LanguageTally,
  group: string | undefined,
  since: number | undefined,
  detector: Detector,
): void {
  const text = dropPrivate(raw);
  if (!text.trim()) throw new LearnSourceError('learn_source_invalid', name, 'empty');
  const { meta, format, messages: all } = parseTranscript(text, { lenient: true });
  const fallback = fallbackDate(meta?.startedAt, name, modified);
  for (const session of splitSessions(name, format, all)) {
    // Person-written turns are quoted as evidence and read by the heuristics: redacted before both.
    const messages = session.messages.map((m) =>
      m.role === 'user' ? { ...m, content: redactText(m.content) } : m,
    );
    const found = analyseSession(session.name, messages, fallback, redactText, detector, meta?.cwd);
    result.stats.sessions++;
    if (found.languages) {
      tally.sessions++;
      tally.turns += found.languages.turns;
      for (const [l, n] of Object.entries(found.languages.languages) as [OtherLanguage, number][])
        tally.counts.set(l, (tally.counts.get(l) ?? 0) + n);
    }
    result.stats.humanTurns += found.humanTurns;
    result.stats.repairedWords += found.repaired;
    for (const [reason, n] of Object.entries(found.filtered))
      result.filtered[reason] = (result.filtered[reason] ?? 0) + n;
    for (const f of found.findings) {
      // Evidence without a (readable) date counts: nothing says it is older.
      const early = since !== undefined && !!f.evidence.date && Date.parse(f.evidence.date) < since;
      if (early) result.filtered['before since'] = (result.filtered['before since'] ?? 0) + 1;
      else agg.add(f, group);
    }
  }
}

/**
 * The date of turns before any timestamp: the start the export records in UTC, else a date-time the
 * source's name holds (SpecStory names a file by its start in UTC; Codex by its start in local time,
 * read as UTC), else a recorded start without a zone (read as UTC), else the file's date: last, since
 * a copy resets it.
 */
function fallbackDate(started: string | undefined, name: string, modified: string | undefined) {
  // `TranscriptMeta.startedAt` is an ISO time in UTC (`…Z`), or the export's zone-less time as written.
  const zoned = started?.endsWith('Z') ? started : undefined;
  return zoned ?? dateInName(name) ?? (started && isoInstant(started)) ?? modified;
}

/**
 * The ISO 8601 forms `since` takes as a string: a day (read as UTC midnight), or a time with its
 * offset. A time without one would be read in the runtime's time zone, and other forms (`March 1`,
 * `2025-02-30`) are read differently by different engines: the same call must mean the same day in
 * every runtime.
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

type Detector = Pick<LearnOptions, 'scorer' | 'minScore' | 'markers' | 'isWord'>;

/** The scorer and thresholds that read people's turns, checked before any source is read. */
function detectorOf(options: LearnOptions | undefined): Detector {
  const scorer = options?.scorer;
  const minScore = options?.minScore;
  const issues: { path: string; message: string }[] = [];
  if (scorer !== undefined && typeof scorer !== 'function')
    issues.push({ path: 'scorer', message: 'must be a function (evidence, scores) => scores' });
  // Above 1 is a category never reported (`READER_MIN_SCORE` says so for the ones it cannot call).
  const score = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (
    minScore !== undefined &&
    !score(minScore) &&
    !(
      typeof minScore === 'object' &&
      minScore !== null &&
      !Array.isArray(minScore) &&
      Object.values(minScore).every(score)
    )
  )
    issues.push({
      path: 'minScore',
      message: 'must be a score (a number ≥ 0) or an object of them by category',
    });
  const markers = options?.markers;
  if (markers !== undefined && !isMarkers(markers))
    issues.push({
      path: 'markers',
      message:
        'must be a MarkerSet (lists of phrases by category) or compiled markers (loadLanguageMarkers())',
    });
  const isWord = options?.isWord;
  if (isWord !== undefined && typeof isWord !== 'function')
    issues.push({ path: 'isWord', message: 'must be a function (word) => boolean' });
  if (issues.length) throw new ValidationError(issues, { code: 'learn_invalid_option', subject: 'Option' });
  return {
    ...(isWord ? { isWord } : {}),
    ...(scorer ? { scorer } : {}),
    ...(minScore !== undefined ? { minScore } : {}),
    ...(markers !== undefined ? { markers } : {}),
  };
}

/** The lists of a `MarkerSet`. */
const MARKER_LISTS = ['correction', 'challenge', 'preference', 'positive', 'friction'] as const;

/** Compiled markers (`compileMarkers`, `loadLanguageMarkers`), or a `MarkerSet`: lists of strings by category. */
function isMarkers(m: unknown): m is MarkerSet | CompiledMarkers {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  if ('byFirst' in m) return true;
  return MARKER_LISTS.every((k) => {
    const list = (m as Record<string, unknown>)[k];
    return Array.isArray(list) && list.every((x) => typeof x === 'string');
  });
}

/** `since` in epoch milliseconds; a value that is not a date is a ValidationError. */
function sinceMs(since: LearnOptions['since']): number | undefined {
  if (since === undefined) return undefined;
  let t = Number.NaN;
  if (since instanceof Date) t = since.getTime();
  else if (typeof since === 'number') t = since;
  else if (typeof since === 'string') {
    // The shape above, then `isoInstant`'s reading: a day that does not exist (2025-02-30) is no date.
    const iso = ISO_DATE.test(since) ? isoInstant(since) : undefined;
    if (iso) t = Date.parse(iso);
  }
  if (!Number.isFinite(t)) {
    throw new ValidationError(
      [
        {
          path: 'since',
          message:
            'must be a date: a Date, epoch milliseconds, or an ISO 8601 day (2025-03-01) or time with its offset (2025-03-01T09:00:00Z)',
        },
      ],
      { code: 'learn_invalid_option', subject: 'Option' },
    );
  }
  return t;
}

/** Keeps rules in rank order while the section fits `budget` tokens; the rest go to `overBudget`. */
function fitBudget(rules: LearnedRule[], budget: number | undefined, result: LearnResult): void {
  if (typeof budget !== 'number' || !Number.isFinite(budget)) {
    result.rules = rules;
    result.stats.tokens = estimateTokens(toMarkdown({ rules }));
    return;
  }
  const kept: LearnedRule[] = [];
  // The whole section is measured (heading and sub-headings count too); a rule that does not fit is
  // passed over and a shorter one after it may still fit.
  for (const r of rules) {
    if (estimateTokens(toMarkdown({ rules: [...kept, r] })) <= budget) kept.push(r);
    else result.overBudget.push(r);
  }
  result.rules = kept;
  result.stats.tokens = estimateTokens(toMarkdown({ rules: kept }));
}

// The analysis behind `rearview reflect`, on the BUILT library (dist/lib): one reading of the text
// (rearview/snapshot's readSnapshotSource, as the playground and the eval read theirs), the lesson
// pipeline (rearview/session's lessons: insights and key points), the deterministic snapshot and,
// with --reduce, the reduction report. The library's types come from its public subpaths; its code is
// loaded at run time from dist/lib, beside this file's dist/cli.
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type * as CategoriseModel from 'rearview/categorise-model';
import type * as Compress from 'rearview/compress';
import type * as Core from 'rearview/core';
import type * as Heuristic from 'rearview/heuristic';
import type * as HeuristicModel from 'rearview/heuristic-model';
import type * as Language from 'rearview/language';
import type * as Llm from 'rearview/llm';
import type * as LlmReflect from 'rearview/llm-reflect';
import type * as Redact from 'rearview/redact';
import type * as Session from 'rearview/session';
import type * as Snapshot from 'rearview/snapshot';
import {
  type Categoriser,
  type CliArgs,
  DEFAULT_DETECTOR,
  type Detector,
  InputError,
  UsageError,
} from './args.js';
import { errorCode, type ProgressBar, type ResolvedIo } from './io.js';
import { loadDictionary } from './spelling.js';

/** The built library: this file runs from dist/cli, the library's entries are in dist/lib. */
const DIST = new URL('../lib/', import.meta.url);

/**
 * The built library's entries the reflect command uses.
 * @example
 * ```ts
 * const lib: Lib = await loadLib();
 * lib.snapshot.readSnapshotSource(text);
 * ```
 */
export interface Lib {
  core: typeof Core;
  snapshot: typeof Snapshot;
  compress: typeof Compress;
  llmReflect: typeof LlmReflect;
  llm: typeof Llm;
  session: typeof Session;
  redact: typeof Redact;
  language: typeof Language;
}

/** One parsed input: rearview/snapshot's readSnapshotSource. */
type Parsed = Snapshot.SnapshotSource;

/** One entry of the built library, by its path under dist/lib. */
function entry<T>(path: string): Promise<T> {
  return import(new URL(path, DIST).href) as Promise<T>;
}

/**
 * Loads the built library, or explains how to build it.
 * @example
 * ```ts
 * const lib = await loadLib(); // throws UsageError when dist/lib is missing
 * ```
 */
export async function loadLib(): Promise<Lib> {
  if (!existsSync(new URL('index.js', DIST)) || !existsSync(new URL('llm-reflect/index.js', DIST))) {
    throw new UsageError(
      `the built library is missing (${fileURLToPath(DIST)}): run \`npm run build:lib\` first`,
    );
  }
  const [core, snapshot, compress, llmReflect, llm, session, redact, language] = await Promise.all([
    entry<typeof Core>('core/index.js'),
    entry<typeof Snapshot>('snapshot/index.js'),
    entry<typeof Compress>('compress/index.js'),
    entry<typeof LlmReflect>('llm-reflect/index.js'),
    entry<typeof Llm>('llm/index.js'),
    entry<typeof Session>('session/index.js'),
    entry<typeof Redact>('redact/index.js'),
    entry<typeof Language>('language/index.js'),
  ]);
  return { core, snapshot, compress, llmReflect, llm, session, redact, language };
}

/**
 * The lesson pipeline's options for `--detector` (default {@link DEFAULT_DETECTOR}) and `--languages`:
 * none for the English markers; a learned scorer of rearview/heuristic-model (loaded only then) with its
 * thresholds; with `languages`, the eight more languages' markers, which a scorer reads too.
 * @example
 * ```ts
 * lib.session.lessons(input, await detectorOptions('reader', true));
 * ```
 */
export async function detectorOptions(
  detector: Detector = DEFAULT_DETECTOR,
  languages = false,
): Promise<Session.LessonsOptions> {
  const markers = languages
    ? { markers: await (await entry<typeof Heuristic>('heuristic/index.js')).loadLanguageMarkers() }
    : {};
  if (detector === 'markers') return markers;
  const model = await entry<typeof HeuristicModel>('heuristic-model/index.js');
  if (detector === 'reader')
    return { ...markers, scorer: model.readerModel, minScore: model.READER_MIN_SCORE };
  if (detector === 'reader-recall')
    return { ...markers, scorer: model.readerModel, minScore: model.READER_RECALL_MIN_SCORE };
  return { ...markers, scorer: model.correctionModel };
}

/**
 * The snapshot option of `--categoriser`: nothing for the rules, the notes reader of
 * rearview/categorise-model (loaded only then) in their place.
 * @example
 * ```ts
 * lib.snapshot.deterministicSnapshot(input, await categoriserOptions('notes-reader'));
 * ```
 */
export async function categoriserOptions(
  categoriser: Categoriser | undefined,
): Promise<Pick<Snapshot.SnapshotOptions, 'categorise'>> {
  if (categoriser === undefined || categoriser === 'rules') return {};
  return { categorise: (await entry<typeof CategoriseModel>('categorise-model/index.js')).notesReader };
}

/** Reads the input in any format rearview/transcript accepts. Throws InputError, located. */
function parseInput(text: string, lib: Lib): Parsed {
  try {
    return lib.snapshot.readSnapshotSource(text);
  } catch (err) {
    if (lib.core.isRearviewError?.(err) || (err as Error | undefined)?.name === 'TranscriptError') {
      throw new InputError((err as Error).message, { cause: err });
    }
    throw err;
  }
}

/**
 * What the lesson pipeline reads from a parsed input (rearview/session's lessonsInputOf).
 * @example
 * ```ts
 * lib.session.lessons(lessonsInput(lib.snapshot.readSnapshotSource(text), lib));
 * ```
 */
export function lessonsInput(parsed: Parsed, lib: Lib): Session.LessonsInput {
  return lib.session.lessonsInputOf(parsed);
}

/**
 * Builds the LLM client for --llm / --openai-url / --fixtures, or undefined.
 * @example
 * ```ts
 * const llm = await llmClient(parseArgs(['reflect', '-', '--fixtures', 'replies.jsonl'], lib.snapshot), io, lib);
 * ```
 */
export async function llmClient(
  args: Pick<CliArgs, 'fixtures' | 'llm' | 'model' | 'openaiUrl'>,
  io: Pick<ResolvedIo, 'env'>,
  lib: Pick<Lib, 'llm'>,
): Promise<Llm.LlmClient | undefined> {
  if (args.fixtures) {
    let text: string;
    try {
      const handle = await open(args.fixtures, 'r');
      try {
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (err) {
      throw new UsageError(`--fixtures ${args.fixtures}: cannot read the file (${errorCode(err)})`);
    }
    try {
      return lib.llm.fixtureClient(text);
    } catch (err) {
      throw new UsageError(`--fixtures ${args.fixtures}: ${(err as Error).message}`);
    }
  }
  if (args.openaiUrl !== undefined) {
    const apiKey = io.env.OPENAI_API_KEY;
    return lib.llm.openAiClient({
      baseURL: args.openaiUrl,
      ...(args.model ? { model: args.model } : {}),
      ...(apiKey ? { apiKey } : {}),
    });
  }
  if (args.llm) {
    const apiKey = io.env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new UsageError('--llm needs ANTHROPIC_API_KEY in the environment (or use --fixtures)');
    return lib.llm.anthropicClient({
      apiKey,
      ...(io.env.ANTHROPIC_BASE_URL ? { baseURL: io.env.ANTHROPIC_BASE_URL } : {}),
      ...(args.model ? { model: args.model } : {}),
    });
  }
  return undefined;
}

/** --reduce: the reflection gates, the step compaction and, with a model, AgentDiet (a, b, θ). */
async function reduction(
  parsed: Parsed,
  params: Partial<Snapshot.ParamValues>,
  lib: Lib,
  llm: Llm.LlmClient | undefined,
  sorting: Pick<Snapshot.SnapshotOptions, 'categorise'>,
) {
  const S = lib.snapshot;
  const reduced = await S.computeTrajectoryReduction(parsed.input, {
    ...S.pickParams(params, 'caps', 'gates'),
    ...sorting,
    ...(llm ? { llm } : {}),
  });
  const steps = parsed.trajectory?.steps;
  const keep = params.a === undefined ? {} : { keepRecent: params.a };
  const compaction = steps?.length ? lib.compress.compactTrajectory(steps, keep).diagnostics : null;
  let diet: {
    tokensBefore: number;
    tokensAfter: number;
    calls: number;
    accepted: number;
    error?: string;
  } | null = null;
  if (llm && steps?.length) {
    const d = (await lib.compress.reduceTrajectory(steps, { llm, ...S.pickParams(params, 'diet') }))
      .diagnostics;
    diet = {
      tokensBefore: d.tokensBefore,
      tokensAfter: d.tokensAfter,
      calls: d.calls,
      accepted: d.accepted,
      ...(d.error ? { error: d.error } : {}),
    };
  }
  return {
    diagnostics: reduced.diagnostics,
    retired: reduced.retired,
    ...(reduced.diagnostics.reflectionUsed ? { snapshot: reduced.snapshot } : {}),
    compaction: compaction
      ? {
          tokensBefore: compaction.tokensBefore,
          tokensAfter: compaction.tokensAfter,
          savedPercent: compaction.savedPercent,
          stepsCompacted: compaction.steps.filter((s) => s.rules.length).length,
        }
      : null,
    ...(diet ? { diet } : {}),
  };
}

/** The reduction report of --reduce. */
export type Reduction = Awaited<ReturnType<typeof reduction>>;

/**
 * What `rearview reflect` learns from one input, printed as text (formatText) or as JSON.
 * @example
 * ```ts
 * const result: Analysis = await analyse(text, args, lib, undefined, null);
 * result.insights.length;
 * ```
 */
export interface Analysis {
  kind: Parsed['kind'];
  format: string;
  trajectoryId?: string;
  counts: {
    messages: number;
    steps: number | null;
    /** Steps whose call failed; a call the person declined is counted in `declinedSteps` instead. */
    failedSteps: number | null;
    declinedSteps: number | null;
    ignored: number;
    entries: number;
    chars: number;
  };
  insights: Session.LessonsResult['insights'];
  keyPoints: Session.LessonsResult['proposed'];
  /**
   * For each insight, in order, the indexes in `keyPoints` of the key points proposed from it (they
   * share its first trace reference); none when the insight is evidence only.
   */
  keyPointOf: number[][];
  snapshot: Snapshot.ActiveContextSnapshot;
  snapshotTokens: number;
  /**
   * The folder the session ran in, where the transcript records it or its paths show it (`rootFrom`):
   * the snapshot's evidence is relative to it.
   */
  root?: string;
  /** Where `root` came from: `transcript` (its record) or `paths` (`inferRoot` of rearview/snapshot). */
  rootFrom?: 'transcript' | 'paths';
  llm?: { used: boolean; error?: string };
  /** What read people's turns (`--detector`, default `reader-recall`). */
  detector: Detector;
  /**
   * The markers of eight more languages read people's turns too: `--languages`, or the people's turns
   * are written in them (`otherLanguages` then says how many), unless `--no-languages`.
   */
  languages?: true;
  /** What sorted the snapshot's entries (`--categoriser`); absent for the rules. */
  categoriser?: Exclude<Categoriser, 'rules'>;
  /**
   * The people's turns read as written in one of those languages, when at least two and a tenth
   * (`otherLanguages` of rearview/language): why their markers were read, or what went unread.
   */
  otherLanguages?: Language.OtherLanguages;
  reduction?: Reduction;
}

/**
 * Analyses one input: the same result whether printed as text or JSON.
 * @example
 * ```ts
 * const result = await analyse('User: use pnpm, not npm.', parseArgs(['reflect', '-'], lib.snapshot), lib, undefined, null);
 * ```
 */
export async function analyse(
  text: string,
  args: Pick<CliArgs, 'params' | 'reduce'> &
    Partial<Pick<CliArgs, 'detector' | 'languages' | 'categoriser' | 'spelling'>>,
  lib: Lib,
  llm: Llm.LlmClient | undefined,
  bar: ProgressBar | null | undefined,
): Promise<Analysis> {
  bar?.stage('parsing');
  const parsed = parseInput(text, lib);
  const messages = parsed.transcript?.messages ?? [];
  bar?.stage('reflecting');
  // The lesson pipeline the session facade, the playground and the examples share: user-turn
  // insights, one failure lesson per tool and error class, and one key point per lesson.
  // The eight more languages' markers: as asked, or when the people's turns are written in them.
  const other =
    args.languages === true
      ? undefined
      : lib.language.otherLanguages(
          messages.filter((m) => m.role === 'user' && !m.synthetic).map((m) => m.content),
        );
  const languages = args.languages ?? other !== undefined;
  const detector = await detectorOptions(args.detector, languages);
  const isWord = args.spelling === false ? undefined : await loadDictionary();
  const learned = lib.session.lessons(lessonsInput(parsed, lib), {
    ...detector,
    ...(isWord ? { isWord } : {}),
  });
  let insights = learned.insights;
  const llmInfo: Analysis['llm'] = llm ? { used: false } : undefined;
  if (llm && messages.length) {
    try {
      // The heuristic insights the model's are merged with are read by the same detector.
      const merged = await lib.llmReflect.llmReflect(messages, { llm, ...detector });
      insights = merged.concat(learned.insights.filter((i) => i.tags.includes('tool_failure')));
      llmInfo!.used = true;
    } catch (err) {
      const e = err as { code?: string; message?: string } | undefined;
      llmInfo!.error = `${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(err)}`;
    }
  }
  bar?.stage('snapshot');
  const params = args.params ?? {};
  const sorting = await categoriserOptions(args.categoriser);
  const trace = lib.snapshot.deterministicSnapshotWithTrace(parsed.input, {
    ...lib.snapshot.pickParams(params, 'caps'),
    ...sorting,
  });
  // A call the person declined is kept as an error by the parsers; it is counted apart.
  const erred = parsed.trajectory ? parsed.trajectory.steps.filter((s) => s.error) : null;
  const declined = erred === null ? null : erred.filter((s) => lib.core.declinedCall(s.error!)).length;
  const result: Analysis = {
    kind: parsed.kind,
    format: parsed.format,
    ...(parsed.trajectory ? { trajectoryId: parsed.trajectory.id } : {}),
    counts: {
      messages: messages.length,
      steps: parsed.trajectory ? parsed.trajectory.steps.length : null,
      failedSteps: erred === null ? null : erred.length - declined!,
      declinedSteps: declined,
      ignored: parsed.transcript?.ignored ?? parsed.trajectory?.ignored ?? 0,
      entries: parsed.input.entries.length,
      chars: text.length,
    },
    insights,
    keyPoints: learned.proposed,
    keyPointOf: lib.session.keyPointOf(insights, learned.proposed),
    snapshot: trace.snapshot,
    snapshotTokens: lib.core.estimateTokens(lib.snapshot.snapshotJson(trace.snapshot)),
    ...(parsed.input.root !== undefined ? { root: parsed.input.root } : {}),
    ...(parsed.rootFrom !== undefined ? { rootFrom: parsed.rootFrom } : {}),
    ...(llmInfo ? { llm: llmInfo } : {}),
    detector: args.detector ?? DEFAULT_DETECTOR,
    ...(args.categoriser && args.categoriser !== 'rules' ? { categoriser: args.categoriser } : {}),
    ...(languages ? { languages: true as const } : {}),
    ...(other ? { otherLanguages: other } : {}),
  };
  if (args.reduce) {
    bar?.stage('reducing');
    result.reduction = await reduction(parsed, params, lib, llm, sorting);
  }
  return result;
}

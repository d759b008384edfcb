// The analysis behind `rearview reflect`, on the BUILT library (dist/lib): one reading of the text
// (rearview/snapshot's readSnapshotSource, as the playground and the eval read theirs), the lesson
// pipeline (rearview/session's lessons: insights and key points), the deterministic snapshot and,
// with --reduce, the reduction report.
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { InputError, UsageError } from './args.mjs';

const DIST = new URL('../dist/lib/', import.meta.url);

/** Loads the built library, or explains how to build it. */
export async function loadLib() {
  if (!existsSync(new URL('index.js', DIST)) || !existsSync(new URL('llm-reflect/index.js', DIST))) {
    throw new UsageError(
      `the built library is missing (${fileURLToPath(DIST)}): run \`npm run build:lib\` first`,
    );
  }
  const [core, snapshot, compress, llmReflect, llm, session, redact] = await Promise.all([
    import(new URL('core/index.js', DIST).href),
    import(new URL('snapshot/index.js', DIST).href),
    import(new URL('compress/index.js', DIST).href),
    import(new URL('llm-reflect/index.js', DIST).href),
    import(new URL('llm/index.js', DIST).href),
    import(new URL('session/index.js', DIST).href),
    import(new URL('redact/index.js', DIST).href),
  ]);
  return { core, snapshot, compress, llmReflect, llm, session, redact };
}

/** Reads the input in any format rearview/transcript accepts. Throws InputError, located. */
function parseInput(text, lib) {
  try {
    return lib.snapshot.readSnapshotSource(text);
  } catch (err) {
    if (lib.core.isRearviewError?.(err) || err?.name === 'TranscriptError') {
      throw new InputError(err.message, { cause: err });
    }
    throw err;
  }
}

/** What the lesson pipeline reads from a parsed input (rearview/session's lessonsInputOf). */
export function lessonsInput(parsed, lib) {
  return lib.session.lessonsInputOf(parsed);
}

/** Builds the LLM client for --llm / --fixtures, or undefined. */
export async function llmClient(args, io, lib) {
  if (args.fixtures) {
    let text;
    try {
      const handle = await open(args.fixtures, 'r');
      try {
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (err) {
      throw new UsageError(`--fixtures ${args.fixtures}: cannot read the file (${err.code ?? err.message})`);
    }
    try {
      return lib.llm.fixtureClient(text);
    } catch (err) {
      throw new UsageError(`--fixtures ${args.fixtures}: ${err.message}`);
    }
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
async function reduction(parsed, params, lib, llm) {
  const S = lib.snapshot;
  const reduced = await S.computeTrajectoryReduction(parsed.input, {
    ...S.pickParams(params, 'caps', 'gates'),
    ...(llm ? { llm } : {}),
  });
  const steps = parsed.trajectory?.steps;
  const keep = params.a === undefined ? {} : { keepRecent: params.a };
  const compaction = steps?.length ? lib.compress.compactTrajectory(steps, keep).diagnostics : null;
  let diet = null;
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

/**
 * Analyses one input: the same result whether printed as text or JSON.
 * @returns {Promise<Record<string, any>>}
 */
export async function analyse(text, args, lib, llm, bar) {
  bar?.stage('parsing');
  const parsed = parseInput(text, lib);
  const messages = parsed.transcript?.messages ?? [];
  bar?.stage('reflecting');
  // The lesson pipeline the session facade, the playground and the examples share: user-turn
  // insights, one failure lesson per tool and error class, and one key point per lesson.
  const learned = lib.session.lessons(lessonsInput(parsed, lib));
  let insights = learned.insights;
  const llmInfo = llm ? { used: false } : undefined;
  if (llm && messages.length) {
    try {
      const merged = await lib.llmReflect.llmReflect(messages, { llm });
      insights = merged.concat(learned.insights.filter((i) => i.tags.includes('tool_failure')));
      llmInfo.used = true;
    } catch (err) {
      llmInfo.error = `${err?.code ? `${err.code}: ` : ''}${err?.message ?? String(err)}`;
    }
  }
  bar?.stage('snapshot');
  const params = args.params ?? {};
  const trace = lib.snapshot.deterministicSnapshotWithTrace(
    parsed.input,
    lib.snapshot.pickParams(params, 'caps'),
  );
  const result = {
    kind: parsed.kind,
    format: parsed.format,
    ...(parsed.trajectory ? { trajectoryId: parsed.trajectory.id } : {}),
    counts: {
      messages: messages.length,
      steps: parsed.trajectory ? parsed.trajectory.steps.length : null,
      failedSteps: parsed.trajectory ? parsed.trajectory.steps.filter((s) => s.error).length : null,
      ignored: parsed.transcript?.ignored ?? parsed.trajectory?.ignored ?? 0,
      entries: parsed.input.entries.length,
      chars: text.length,
    },
    insights,
    keyPoints: learned.proposed,
    snapshot: trace.snapshot,
    snapshotTokens: lib.core.estimateTokens(lib.snapshot.snapshotJson(trace.snapshot)),
    ...(llmInfo ? { llm: llmInfo } : {}),
  };
  if (args.reduce) {
    bar?.stage('reducing');
    result.reduction = await reduction(parsed, params, lib, llm);
  }
  return result;
}

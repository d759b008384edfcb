#!/usr/bin/env node
// rearview's command line (Node only; it lives outside lib/ and may read files and the environment).
//
//   npx rearview reflect <file | ->  [--json] [--reduce] [--llm | --fixtures <file.jsonl>] [--progress]
//
// Prints the insights, the deterministic snapshot and, with --reduce, the reduction report of any
// transcript or trajectory rearview reads. Exit codes: 0 ok, 1 input error (located message), 2 usage
// error. It imports the BUILT library (dist/lib): run `npm run build:lib` first in a checkout.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const VERSION = '0.1.0';
const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;
const DIST = new URL('../dist/lib/', import.meta.url);

export const USAGE = `Usage: rearview reflect <file | -> [options]

Reads a transcript or an agent trajectory (Anthropic/OpenAI messages, ShareGPT, Claude Code JSONL or
console text, plain text, JSONL, SWE-agent, mini-swe-agent) from <file>, or from stdin with - or a pipe,
and prints what rearview learns from it.

Options:
  --json                 machine-readable output (one JSON document)
  --reduce               add the reduction report (reflection gates, step compaction)
  --llm                  also reflect with Claude (needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL optional)
  --fixtures <file>      reflect with recorded LLM replies (JSONL from recordingClient), no network
  --model <name>         model for --llm (default: rearview's Haiku-class default)
  --progress             show the progress bar even when stderr is not a terminal (files over 4 MB)
  --no-progress          never show it
  -h, --help             this help
  -v, --version          the version

Exit codes: 0 ok, 1 input error (with its line or index), 2 usage error.`;

/** A usage error: exit code 2. */
class UsageError extends Error {}
/** An input error: exit code 1. */
class InputError extends Error {}

/**
 * @typedef {{ write(chunk: string): unknown, isTTY?: boolean }} Writable
 * @typedef {{
 *   stdout?: Writable, stderr?: Writable, stdin?: NodeJS.ReadableStream & { isTTY?: boolean },
 *   env?: Record<string, string | undefined>,
 * }} Io
 */

/**
 * @param {string[]} argv arguments after the program name
 * @returns {{ command: string | undefined, file: string | undefined, json: boolean, reduce: boolean,
 *   llm: boolean, fixtures: string | undefined, model: string | undefined, progress: boolean | undefined,
 *   help: boolean, version: boolean }}
 */
export function parseArgs(argv) {
  const out = {
    command: undefined,
    file: undefined,
    json: false,
    reduce: false,
    llm: false,
    fixtures: undefined,
    model: undefined,
    progress: undefined,
    help: false,
    version: false,
  };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (name) => {
      const v = argv[++i];
      if (v === undefined || (v.startsWith('--') && v.length > 2))
        throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (a === '--json') out.json = true;
    else if (a === '--reduce') out.reduce = true;
    else if (a === '--llm') out.llm = true;
    else if (a === '--fixtures') out.fixtures = value('--fixtures');
    else if (a.startsWith('--fixtures=')) out.fixtures = a.slice('--fixtures='.length);
    else if (a === '--model') out.model = value('--model');
    else if (a.startsWith('--model=')) out.model = a.slice('--model='.length);
    else if (a === '--progress') out.progress = true;
    else if (a === '--no-progress') out.progress = false;
    else if (a === '-h' || a === '--help') out.help = true;
    else if (a === '-v' || a === '--version') out.version = true;
    else if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  out.command = positional[0];
  out.file = positional[1];
  if (positional.length > 2) throw new UsageError(`unexpected argument ${positional[2]}`);
  if (out.llm && out.fixtures) throw new UsageError('use either --llm or --fixtures, not both');
  return out;
}

/** Loads the built library, or explains how to build it. */
async function loadLib() {
  if (!existsSync(new URL('index.js', DIST)) || !existsSync(new URL('heuristic/index.js', DIST))) {
    throw new UsageError(
      `the built library is missing (${fileURLToPath(DIST)}): run \`npm run build:lib\` first`,
    );
  }
  const [core, transcript, snapshot, heuristic, llm] = await Promise.all([
    import(new URL('core/index.js', DIST).href),
    import(new URL('transcript/index.js', DIST).href),
    import(new URL('snapshot/index.js', DIST).href),
    import(new URL('heuristic/index.js', DIST).href),
    import(new URL('llm/index.js', DIST).href),
  ]);
  return { core, transcript, snapshot, heuristic, llm };
}

/** A progress bar on stderr, redrawn at most every 100 ms. */
function progressBar(stream, total, enabled) {
  let last = 0;
  let shown = false;
  const mb = (n) => (n / 1e6).toFixed(1);
  const draw = (done, stage, force = false) => {
    if (!enabled) return;
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    shown = true;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const full = Math.round(ratio * width);
    const pct = String(Math.round(ratio * 100)).padStart(3);
    stream.write(
      `\r[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${pct}% ${mb(done)}/${mb(total)} MB ${stage.padEnd(12)}`,
    );
  };
  return {
    update: draw,
    stage: (stage) => draw(total, stage, true),
    end() {
      if (shown) stream.write('\n');
    },
  };
}

/** Reads a file (with progress) or stdin into one UTF-8 string. */
async function readInput(file, io, wantProgress) {
  if (file === '-' || file === undefined) {
    const chunks = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return {
      text: decode(Buffer.concat(chunks)),
      bytes: chunks.reduce((n, c) => n + c.length, 0),
      bar: null,
    };
  }
  let size;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new InputError(`${file}: is a directory`);
    size = st.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${file}: cannot read the file (${err.code ?? err.message})`);
  }
  const show = size > PROGRESS_MIN_BYTES && (wantProgress ?? io.stderr.isTTY === true);
  const bar = progressBar(io.stderr, size, show);
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(buf, offset, Math.min(1 << 20, size - offset), offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      bar.update(offset, 'reading');
    }
    return { text: decode(buf.subarray(0, offset)), bytes: offset, bar };
  } finally {
    await handle.close();
  }
}

function decode(buf) {
  return new TextDecoder('utf-8').decode(buf);
}

// ---------------------------------------------------------------------------------------------------
// The snapshot adapter: messages or steps → memory entries (as the playground documents it).

// Shared with the playground: rearview/snapshot's entriesFromMessages, entriesFromSteps,
// objectiveFromText and snapshotInputFrom (the previous snapshot is that of the first half).

// ---------------------------------------------------------------------------------------------------

/** Parses the input as a transcript and, where it is one, a trajectory. Throws InputError, located. */
function parseInput(text, lib) {
  const { transcript: T, snapshot: S } = lib;
  const trajFormat = T.detectTrajectoryFormat(text);
  try {
    if (trajFormat === 'swe-agent' || trajFormat === 'mini-swe-agent') {
      const trajectory = T.parseTrajectory(text);
      let transcript = null;
      try {
        transcript = T.parseTranscript(text);
      } catch {
        transcript = null;
      }
      const firstUser = transcript?.messages.find((m) => m.role === 'user' && m.content.trim().length > 8);
      const objective = firstUser ? S.objectiveFromText(firstUser.content) : trajectory.id;
      return {
        kind: 'trajectory',
        format: trajectory.format,
        transcript,
        trajectory,
        input: S.snapshotInputFrom(objective, S.entriesFromSteps(trajectory.steps)),
      };
    }
    const transcript = T.parseTranscript(text);
    let trajectory = null;
    if (transcript.format === 'claude-code-jsonl') {
      try {
        trajectory = T.parseTrajectory(text, { format: 'claude-code-jsonl' });
      } catch {
        trajectory = null;
      }
    }
    const { objective, entries } = S.entriesFromMessages(transcript.messages);
    return {
      kind: 'transcript',
      format: transcript.format,
      transcript,
      trajectory,
      input: S.snapshotInputFrom(objective, entries),
    };
  } catch (err) {
    if (lib.core.isRearviewError?.(err) || err?.name === 'TranscriptError') {
      throw new InputError(err.message, { cause: err });
    }
    throw err;
  }
}

/** Builds the LLM client for --llm / --fixtures, or undefined. */
async function llmClient(args, io, lib) {
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

/**
 * Analyses one input: the same result whether printed as text or JSON.
 * @returns {Promise<Record<string, any>>}
 */
export async function analyse(text, args, lib, llm, bar) {
  bar?.stage('parsing');
  const parsed = parseInput(text, lib);
  const messages = parsed.transcript?.messages ?? [];
  bar?.stage('reflecting');
  let insights = messages.length ? lib.heuristic.heuristicReflect(messages) : [];
  if (parsed.trajectory) {
    insights = insights.concat(lib.heuristic.reflectFromTrajectories([parsed.trajectory]));
  }
  const llmInfo = llm ? { used: false } : undefined;
  if (llm && messages.length) {
    try {
      const merged = await lib.heuristic.llmReflect(messages, { llm });
      const traj = parsed.trajectory ? lib.heuristic.reflectFromTrajectories([parsed.trajectory]) : [];
      insights = merged.concat(traj);
      llmInfo.used = true;
    } catch (err) {
      llmInfo.error = `${err?.code ? `${err.code}: ` : ''}${err?.message ?? String(err)}`;
    }
  }
  bar?.stage('snapshot');
  const trace = lib.snapshot.deterministicSnapshotWithTrace(parsed.input);
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
    snapshot: trace.snapshot,
    snapshotTokens: lib.core.estimateTokens(lib.snapshot.snapshotJson(trace.snapshot)),
    ...(llmInfo ? { llm: llmInfo } : {}),
  };
  if (args.reduce) {
    bar?.stage('reducing');
    const reduction = await lib.snapshot.computeTrajectoryReduction(parsed.input, llm ? { llm } : {});
    const steps = parsed.trajectory?.steps;
    const compaction = steps?.length ? lib.snapshot.compactTrajectory(steps).diagnostics : null;
    result.reduction = {
      diagnostics: reduction.diagnostics,
      retired: reduction.retired,
      ...(reduction.diagnostics.reflectionUsed ? { snapshot: reduction.snapshot } : {}),
      compaction: compaction
        ? {
            tokensBefore: compaction.tokensBefore,
            tokensAfter: compaction.tokensAfter,
            savedPercent: compaction.savedPercent,
            stepsCompacted: compaction.steps.filter((s) => s.rules.length).length,
          }
        : null,
    };
  }
  return result;
}

const CATEGORY_LABELS = [
  ['currentObjective', 'Objective'],
  ['blockers', 'Blockers'],
  ['openHypotheses', 'Open hypotheses'],
  ['nextActions', 'Next actions'],
  ['unresolvedQuestions', 'Unresolved questions'],
  ['requiredEvidenceLinks', 'Evidence'],
];

function itemText(item) {
  return oneLine(typeof item === 'string' ? item : (item?.text ?? JSON.stringify(item)), 300);
}

/** One line, at most `max` characters. */
function oneLine(text, max) {
  const t = String(text).replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/** The human-readable report. */
export function formatText(name, r) {
  const lines = [];
  const c = r.counts;
  const parts = [`${c.messages} messages`];
  if (c.steps !== null) parts.push(`${c.steps} steps (${c.failedSteps} failed)`);
  if (c.ignored) parts.push(`${c.ignored} ignored`);
  lines.push(`${name}: ${r.format} ${r.kind} · ${parts.join(' · ')}`);
  lines.push('');
  lines.push(`Insights (${r.insights.length})${r.llm?.used ? ' — with the model' : ''}`);
  if (!r.insights.length) lines.push('  (none)');
  r.insights.forEach((ins, i) => {
    lines.push(`  ${i + 1}. [${ins.category}, ${ins.confidence}] ${oneLine(ins.fact, 240)}`);
    lines.push(`     → ${oneLine(ins.recommendation, 200)}`);
    if (ins.traceRefs?.length) lines.push(`     refs: ${ins.traceRefs.join(', ')}`);
  });
  lines.push('');
  lines.push(`Snapshot (deterministic, ~${r.snapshotTokens} tokens)`);
  for (const [key, label] of CATEGORY_LABELS) {
    const value = r.snapshot[key];
    if (typeof value === 'string') lines.push(`  ${label}: ${oneLine(value, 300)}`);
    else if (Array.isArray(value) && value.length) {
      lines.push(`  ${label}:`);
      for (const item of value) lines.push(`    - ${itemText(item)}`);
    }
  }
  if (r.reduction) {
    const d = r.reduction.diagnostics;
    lines.push('');
    lines.push('Reduction');
    lines.push(
      `  reflection: ${d.reflectionUsed ? 'used' : `skipped (${d.reflectionSkippedReason ?? 'n/a'})`}` +
        ` · deterministic ${d.deterministicTokens} tokens` +
        (d.reflectedTokens != null ? ` · reflected ${d.reflectedTokens} tokens` : ''),
    );
    if (d.logLine) lines.push(`  ${d.logLine}`);
    lines.push(`  retired since the previous snapshot: ${r.reduction.retired.length}`);
    const k = r.reduction.compaction;
    if (k) {
      lines.push(
        `  step compaction: ${k.tokensBefore} → ${k.tokensAfter} tokens (${k.savedPercent}% saved, ${k.stepsCompacted} steps)`,
      );
    }
  }
  if (r.llm?.error) lines.push('', `LLM reflection failed (${r.llm.error}); heuristic insights shown.`);
  return `${lines.join('\n')}\n`;
}

/**
 * Runs the CLI. Never calls process.exit: returns the exit code, so tests can call it in-process.
 * @param {string[]} argv
 * @param {Io} [ioOptions]
 * @returns {Promise<number>}
 */
export async function main(argv, ioOptions = {}) {
  const io = {
    stdout: ioOptions.stdout ?? process.stdout,
    stderr: ioOptions.stderr ?? process.stderr,
    stdin: ioOptions.stdin ?? process.stdin,
    env: ioOptions.env ?? process.env,
  };
  let args;
  let bar = null;
  try {
    args = parseArgs(argv);
    if (args.version) {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    if (args.help || args.command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (args.command === undefined) throw new UsageError('missing command: rearview reflect <file>');
    if (args.command !== 'reflect') throw new UsageError(`unknown command ${args.command}`);
    if (args.file === undefined && io.stdin.isTTY) {
      throw new UsageError('missing <file>: give a path, or - to read stdin');
    }
    const lib = await loadLib();
    const llm = await llmClient(args, io, lib);
    const name = args.file === undefined || args.file === '-' ? '<stdin>' : args.file;
    const input = await readInput(args.file, io, args.progress);
    bar = input.bar;
    const result = await analyse(input.text, args, lib, llm, bar);
    bar?.end();
    bar = null;
    if (args.json) io.stdout.write(`${JSON.stringify({ file: name, ...result }, null, 2)}\n`);
    else io.stdout.write(formatText(name, result));
    if (result.llm?.error && args.json)
      io.stderr.write(`rearview: LLM reflection failed: ${result.llm.error}\n`);
    return 0;
  } catch (err) {
    bar?.end();
    if (err instanceof UsageError) {
      io.stderr.write(`rearview: ${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof InputError) {
      const where = args?.file === undefined || args?.file === '-' ? '<stdin>' : args.file;
      const message = err.message.startsWith(`${where}:`) ? err.message : `${where}: ${err.message}`;
      io.stderr.write(`rearview: ${message}\n`);
      return 1;
    }
    io.stderr.write(`rearview: unexpected error: ${err?.stack ?? err}\n`);
    return 1;
  }
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  process.exitCode = await main(process.argv.slice(2));
}

#!/usr/bin/env node
// rearview's command line (Node only; it lives outside lib/ and may read files and the environment).
//
//   npx rearview reflect <file | ->  [--json] [--reduce] [--llm | --fixtures <file.jsonl>] [--progress]
//                                    [--max-category-items <n>] [--min-snapshot-tokens <n>] …
//
// Prints the insights, the deterministic snapshot and, with --reduce, the reduction report of any
// transcript or trajectory rearview reads. Exit codes: 0 ok, 1 input error (located message), 2 usage
// error. It imports the BUILT library (dist/lib): run `npm run build:lib` first in a checkout.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  --<threshold> <value>  a snapshot cap or reduction gate (listed below when the library is built)
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

/** The package's version, from the package.json next to this directory (the one it ships in). */
function version() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
}

/**
 * The thresholds the CLI applies, as rearview/snapshot's PARAM_SPECS describe them (flag, range,
 * default, help). No AgentDiet model runs here: of AgentDiet's parameters only `a` applies, as the
 * step compaction's keepRecent.
 * @param {any} snapshot the built rearview/snapshot
 */
export function cliParams(snapshot) {
  return snapshot.PARAM_NAMES.map((n) => snapshot.PARAM_SPECS[n]).filter(
    (spec) => spec.group !== 'diet' || spec.name === 'a',
  );
}

/** The help text, with the thresholds when the library is there to describe them. */
export function usage(snapshot) {
  if (!snapshot) return USAGE;
  const rows = cliParams(snapshot).map((spec) => {
    const left = `  --${spec.flag} <n>`.padEnd(25);
    return `${left}${spec.help} ${spec.min}–${spec.max} ${spec.unit}, default ${spec.default}.`;
  });
  const [head, exits] = USAGE.split('\n\nExit codes:');
  return `${head}\n\nThresholds (rearview/snapshot PARAM_SPECS):\n${rows.join('\n')}\n\nExit codes:${exits}`;
}

/**
 * @param {string[]} argv arguments after the program name
 * @param {any} [snapshot] the built rearview/snapshot: its PARAM_SPECS give the threshold flags
 * @returns {{ command: string | undefined, file: string | undefined, json: boolean, reduce: boolean,
 *   llm: boolean, fixtures: string | undefined, model: string | undefined, progress: boolean | undefined,
 *   help: boolean, version: boolean, params: Record<string, number> }}
 */
export function parseArgs(argv, snapshot) {
  const flags = new Map(snapshot ? cliParams(snapshot).map((spec) => [`--${spec.flag}`, spec.name]) : []);
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
    params: {},
  };
  const positional = [];
  /** A threshold's value, refused (exit 2) outside the library's range. */
  const param = (flag, text) => {
    try {
      out.params[flags.get(flag)] = snapshot.parseParam(flags.get(flag), text);
    } catch (err) {
      throw new UsageError(`${flag}: ${err.issues?.[0]?.message ?? err.message}`);
    }
  };
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
    else if (flags.has(a)) param(a, value(a));
    else if (flags.has(a.split('=')[0])) param(a.split('=')[0], a.slice(a.indexOf('=') + 1));
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
  if (!existsSync(new URL('index.js', DIST)) || !existsSync(new URL('llm-reflect/index.js', DIST))) {
    throw new UsageError(
      `the built library is missing (${fileURLToPath(DIST)}): run \`npm run build:lib\` first`,
    );
  }
  const [core, transcript, snapshot, llmReflect, llm, session, redact] = await Promise.all([
    import(new URL('core/index.js', DIST).href),
    import(new URL('transcript/index.js', DIST).href),
    import(new URL('snapshot/index.js', DIST).href),
    import(new URL('llm-reflect/index.js', DIST).href),
    import(new URL('llm/index.js', DIST).href),
    import(new URL('session/index.js', DIST).href),
    import(new URL('redact/index.js', DIST).href),
  ]);
  return { core, transcript, snapshot, llmReflect, llm, session, redact };
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
  try {
    if (T.agentRunFormat(text)) {
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

/**
 * What the lesson pipeline reads: the messages, and the agent run for SWE-agent and mini-swe-agent (a
 * Claude Code session's tool calls are messages already; its trajectory would count them twice).
 */
export function lessonsInput(parsed) {
  return {
    messages: parsed.transcript?.messages ?? [],
    trajectories: parsed.kind === 'trajectory' && parsed.trajectory ? [parsed.trajectory] : [],
  };
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
  // The lesson pipeline the session facade, the playground and the examples share (rearview/session's
  // lessons): user-turn insights, one failure lesson per tool and error class — from the messages'
  // tool calls (Claude Code) or the agent run (SWE-agent, mini-swe-agent) — and one key point per lesson.
  const learned = lib.session.lessons(lessonsInput(parsed));
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
  const caps = lib.snapshot.pickParams(params, 'caps');
  const trace = lib.snapshot.deterministicSnapshotWithTrace(parsed.input, caps);
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
    const reduction = await lib.snapshot.computeTrajectoryReduction(parsed.input, {
      ...lib.snapshot.pickParams(params, 'caps', 'gates'),
      ...(llm ? { llm } : {}),
    });
    const steps = parsed.trajectory?.steps;
    const keep = params.a === undefined ? {} : { keepRecent: params.a };
    const compaction = steps?.length ? lib.snapshot.compactTrajectory(steps, keep).diagnostics : null;
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

/** Trace references on one line: a failure seen 40 times lists the first 8 and a count. */
function refList(refs) {
  return refs.length <= 8 ? refs.join(', ') : `${refs.slice(0, 8).join(', ')} … (${refs.length} in all)`;
}

function itemText(item) {
  return oneLine(typeof item === 'string' ? item : (item?.text ?? JSON.stringify(item)), 300);
}

/** One line, at most `max` characters. */
function oneLine(text, max) {
  const t = String(text).replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

// Terminal control sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC
// strings (ESC P/X/^/_ … ST) and any other ESC sequence, never past the end of a line (an unterminated
// one must not swallow the rest of the report); then every C0 control but newline and tab, DEL and C1
// (an 8-bit CSI is harmless once its introducer is gone). Transcripts are untrusted: printed raw, they
// could retitle or clear the terminal, move the cursor over earlier output, or make it answer back.
const TERMINAL_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

// Bidi controls (embeddings, overrides, isolates, marks): printed raw, U+202E reverses what follows on
// the terminal, so a file name or an insight could show other text than it holds.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Every printed line goes through here: secrets redacted (rearview/redact, when the library is built)
 * and bidi controls removed — or, in JSON, escaped so the document still parses to the same value.
 * @param {string} text
 * @param {{ redactText?: (t: string) => string, json?: boolean }} [how]
 */
export function safeOut(text, how = {}) {
  const redacted = how.redactText ? how.redactText(String(text)) : String(text);
  return redacted.replace(BIDI, (c) =>
    how.json ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : '',
  );
}

/** Text safe to print on a terminal: control sequences and control characters removed. */
export function printable(text) {
  return String(text).replace(TERMINAL_SEQUENCE, '').replace(CONTROL, '');
}

/**
 * JSON safe to print on a terminal: JSON.stringify escapes C0 but leaves DEL and C1 raw (0x9B is a
 * CSI on 8-bit terminals), so those are escaped too; the document still parses to the same value.
 */
export function printableJson(value) {
  return JSON.stringify(value, null, 2).replace(
    /[\x7f-\x9f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The human-readable report, with every control character removed (see printable). */
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
    lines.push(`     → ${oneLine(ins.recommendation, 300)}`);
    if (ins.traceRefs?.length) lines.push(`     refs: ${refList(ins.traceRefs)}`);
  });
  lines.push('');
  const keyPoints = r.keyPoints ?? [];
  lines.push(`Key points (${keyPoints.length}): what a session would add to the playbook`);
  if (!keyPoints.length) lines.push('  (none)');
  keyPoints.forEach((p, i) => {
    lines.push(`  ${i + 1}. [${p.section}] ${oneLine(p.text, 300)}`);
    if (p.context) lines.push(`     corrected: ${oneLine(p.context, 200)}`);
    if (p.traceRefs?.length) lines.push(`     refs: ${refList(p.traceRefs)}`);
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
  return printable(`${lines.join('\n')}\n`);
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
  // Everything printed but the progress bar goes through printable: file names, parser messages and
  // the report all carry text from the input.
  let redactText;
  const say = (stream, text) => stream.write(safeOut(printable(text), { redactText }));
  let args;
  let bar = null;
  let lib = null;
  try {
    lib = await loadLib().catch((err) => {
      if (err instanceof UsageError) return err;
      throw err;
    });
    const built = lib instanceof UsageError ? null : lib;
    redactText = built?.redact?.redactText;
    // Without the build only --help and --version can answer (the thresholds' flags come from it).
    if (!built && !argv.some((a) => ['-h', '--help', '-v', '--version', 'help'].includes(a))) throw lib;
    args = parseArgs(argv, built?.snapshot);
    if (args.version) {
      say(io.stdout, `${version()}\n`);
      return 0;
    }
    if (args.help || args.command === 'help') {
      say(io.stdout, `${usage(built?.snapshot)}\n`);
      return 0;
    }
    if (args.command === undefined) throw new UsageError('missing command: rearview reflect <file>');
    if (args.command !== 'reflect') throw new UsageError(`unknown command ${args.command}`);
    if (args.file === undefined && io.stdin.isTTY) {
      throw new UsageError('missing <file>: give a path, or - to read stdin');
    }
    const llm = await llmClient(args, io, built);
    const name = args.file === undefined || args.file === '-' ? '<stdin>' : args.file;
    const input = await readInput(args.file, io, args.progress);
    bar = input.bar;
    const result = await analyse(input.text, args, built, llm, bar);
    bar?.end();
    bar = null;
    if (args.json) say(io.stdout, safeOut(`${printableJson({ file: name, ...result })}\n`, { json: true }));
    else say(io.stdout, formatText(name, result));
    if (result.llm?.error && args.json)
      say(io.stderr, `rearview: LLM reflection failed: ${result.llm.error}\n`);
    return 0;
  } catch (err) {
    bar?.end();
    if (err instanceof UsageError) {
      const snapshot = lib instanceof UsageError ? undefined : lib?.snapshot;
      say(io.stderr, `rearview: ${err.message}\n\n${usage(snapshot)}\n`);
      return 2;
    }
    if (err instanceof InputError) {
      const where = args?.file === undefined || args?.file === '-' ? '<stdin>' : args.file;
      say(io.stderr, `rearview: ${locatedMessage(where, err, lib?.core)}\n`);
      return 1;
    }
    say(io.stderr, `rearview: unexpected error: ${err?.stack ?? err}\n`);
    return 1;
  }
}

/**
 * An input error as `file:line:column: message` (the compiler convention terminals and editors link),
 * the location said once: the message's own "(line 54, column 14)" suffix is dropped. Errors located
 * by array index, or not at all, keep `file: message`.
 */
function locatedMessage(where, err, core) {
  const location = err.cause?.location;
  if (!location || location.line === undefined) {
    return err.message.startsWith(`${where}:`) ? err.message : `${where}: ${err.message}`;
  }
  let message = err.message;
  const suffix = typeof core?.formatLocation === 'function' ? core.formatLocation(location) : '';
  const lineOnly = location.index === undefined && location.path === undefined;
  if (lineOnly && suffix && message.endsWith(suffix)) message = message.slice(0, -suffix.length);
  const column = location.column === undefined ? '' : `:${location.column}`;
  return `${where}:${location.line}${column}: ${message}`;
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

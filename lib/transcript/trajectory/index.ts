/** `parseTrajectory`, `safeParseTrajectory`, `detectTrajectoryFormat` and `agentRunFormat`. */
import { detectPrepared } from '../detect.js';
import { isAtif } from '../formats/atif.js';
import { failedAt, type Prepared, parseWholeJson, prepareInput, tryJson } from '../input.js';
import { isRecord, Sink, transcriptError } from '../sink.js';
import { toTranscriptError } from '../transcript.js';
import type {
  ParseTrajectoryOptions,
  SafeResult,
  SourceRef,
  Step,
  Trajectory,
  TrajectoryFormat,
} from '../types.js';
import { agentLogSteps } from './agent-logs.js';
import { atifSteps } from './atif.js';
import { claudeCodeSteps } from './claude-code.js';
import { contentId, outcomeFrom } from './common.js';
import { miniSweAgentSteps } from './mini-swe-agent.js';
import { sweAgentSteps } from './swe-agent.js';

const FORMATS: ReadonlySet<string> = new Set<TrajectoryFormat>([
  'swe-agent',
  'mini-swe-agent',
  'claude-code-jsonl',
  'codex',
  'antigravity',
  'atif',
]);

/**
 * Guesses the trajectory format of `input`, or undefined. Never throws.
 *
 * - `swe-agent`: an object with a `trajectory` array, or with `history` and no `messages`;
 * - `mini-swe-agent`: an object with a `messages` array and a `trajectory_format` starting with
 *   `mini-swe-agent` (or an `info.mini_version`, or a `<returncode>` in a user message);
 * - `claude-code-jsonl`: Claude Code session events (JSONL text or an array);
 * - `codex`, `antigravity`: Codex CLI rollouts and Antigravity step logs (JSONL text or an array).
 * - `atif`: an ATIF document (`schema_version: 'ATIF-…'`, or `steps` beside an `agent` object).
 *
 * @example
 * ```ts
 * detectTrajectoryFormat({ trajectory: [], info: { exit_status: 'submitted' } }); // 'swe-agent'
 * ```
 */
export function detectTrajectoryFormat(input: unknown): TrajectoryFormat | undefined {
  try {
    return detect(prepareInput(input, 'auto')).format;
  } catch {
    return undefined;
  }
}

/**
 * The format of `input` when it is an agent run whose failed steps its messages do not mark
 * (`swe-agent`, `mini-swe-agent`, `atif`): the input every front end (CLI, playground, edge examples) reads as
 * a trajectory beside its messages. Undefined for anything else, a Claude Code session included (its
 * tool calls and errors are messages already; reading its trajectory too would count them twice).
 * Never throws.
 *
 * @example
 * ```ts
 * agentRunFormat('{"trajectory": [], "info": {}}'); // 'swe-agent'
 * agentRunFormat('User: hi');                      // undefined
 * ```
 */
export function agentRunFormat(input: unknown): 'swe-agent' | 'mini-swe-agent' | 'atif' | undefined {
  const format = detectTrajectoryFormat(input);
  return format === 'swe-agent' || format === 'mini-swe-agent' || format === 'atif' ? format : undefined;
}

interface TrajectoryDetection {
  format?: TrajectoryFormat;
  value?: unknown;
  reason?: string;
  /** Where the text broke, when it is broken JSON (line 1 for other text). */
  at?: SourceRef;
}

function detect(prepared: Prepared): TrajectoryDetection {
  let value: unknown;
  if (prepared.kind === 'text') {
    const whole = parseWholeJson(prepared.text);
    if (!whole) return { reason: 'Input is not JSON or JSONL' };
    if (!whole.ok) {
      // JSONL: Claude Code sessions, Codex rollouts and Antigravity logs are trajectories in JSONL.
      const asTranscript = detectPrepared(prepared);
      const session = sessionFormat(asTranscript.format);
      if (session) return { format: session };
      return {
        reason: asTranscript.reason ?? 'Input is JSONL but not a Claude Code, Codex or Antigravity session',
        ...(asTranscript.at ? { at: asTranscript.at } : {}),
      };
    }
    value = whole.value;
  } else value = prepared.value;
  const format = detectValue(value);
  return format
    ? { format, value }
    : {
        reason: 'Could not detect the trajectory format (swe-agent, mini-swe-agent, claude-code-jsonl, atif)',
        value,
      };
}

function sessionFormat(
  format: string | undefined,
): 'claude-code-jsonl' | 'codex' | 'antigravity' | undefined {
  return format === 'claude-code-jsonl' || format === 'codex' || format === 'antigravity'
    ? format
    : undefined;
}

function detectValue(value: unknown): TrajectoryFormat | undefined {
  if (Array.isArray(value)) {
    return value.length > 0 ? sessionFormat(detectPrepared({ kind: 'value', value }).format) : undefined;
  }
  if (!isRecord(value)) return undefined;
  if (isAtif(value)) return 'atif';
  if (Array.isArray(value.trajectory)) return 'swe-agent';
  if (Array.isArray(value.messages)) {
    if (typeof value.trajectory_format === 'string' && value.trajectory_format.startsWith('mini-swe-agent')) {
      return 'mini-swe-agent';
    }
    if (isRecord(value.info) && 'mini_version' in value.info) return 'mini-swe-agent';
    for (const m of value.messages) {
      if (
        isRecord(m) &&
        m.role === 'user' &&
        typeof m.content === 'string' &&
        m.content.includes('<returncode>')
      ) {
        return 'mini-swe-agent';
      }
    }
    return undefined;
  }
  if (Array.isArray(value.history)) return 'swe-agent';
  return sessionFormat(detectPrepared({ kind: 'value', value }).format);
}

/**
 * Reads an agent run into steps (thought, action, tool, observation, error, exit code) and an
 * outcome. Formats: SWE-agent `.traj`, mini-swe-agent `.traj.json`, Claude Code session JSONL, Codex
 * CLI rollouts, Antigravity step logs;
 * detected unless `options.format` is given.
 *
 * `outcome.failed`: `!resolved` when the caller passes `resolved` (e.g. from a SWE-bench results
 * file); otherwise SWE-agent runs fail unless `exit_status` is `submitted` with a non-empty
 * submission, mini-swe-agent runs unless it is `Submitted` with a submission. Claude Code, Codex and Antigravity
 * sessions record no outcome: `outcome` is only set when `resolved` is given.
 *
 * @example
 * ```ts
 * const run = parseTrajectory(trajJsonText, { resolved: false });
 * run.steps.filter((s) => s.error !== undefined).map((s) => s.action);
 * run.outcome?.failed; // true
 * ```
 */
export function parseTrajectory(input: unknown, options: ParseTrajectoryOptions = {}): Trajectory {
  const requested = options.format;
  if (requested !== undefined && !FORMATS.has(requested)) {
    throw transcriptError(
      String(requested),
      `Unknown trajectory format "${String(requested)}"`,
      {},
      undefined,
      'transcript_unknown_format',
    );
  }
  let prepared = prepareInput(input, requested ?? 'auto');
  let format: TrajectoryFormat;
  if (requested) format = requested;
  else {
    const detection = detect(prepared);
    if (!detection.format) {
      throw transcriptError(
        'auto',
        detection.reason ?? 'Could not detect the trajectory format',
        detection.at ?? { line: prepared.kind === 'text' ? 1 : undefined },
        undefined,
        'transcript_unknown_format',
      );
    }
    format = detection.format;
    if (detection.value !== undefined && !sessionFormat(format))
      prepared = { kind: 'value', value: detection.value };
  }
  const sink = new Sink(format, options.lenient === true);
  let steps: Step[];
  let id: string | undefined;
  let outcome: Trajectory['outcome'];
  if (format === 'claude-code-jsonl') {
    const r = claudeCodeSteps(prepared, sink);
    steps = r.steps;
    id = r.sessionId;
    if (options.resolved !== undefined) outcome = { resolved: options.resolved, failed: !options.resolved };
  } else if (format === 'codex' || format === 'antigravity') {
    const r = agentLogSteps(format, prepared, sink);
    steps = r.steps;
    id = r.sessionId;
    if (options.resolved !== undefined) outcome = { resolved: options.resolved, failed: !options.resolved };
  } else if (format === 'atif') {
    const r = atifSteps(asObject(prepared, sink), sink);
    steps = r.steps;
    id = r.sessionId;
    if (options.resolved !== undefined) outcome = { resolved: options.resolved, failed: !options.resolved };
  } else {
    const value = asObject(prepared, sink);
    steps = format === 'swe-agent' ? sweAgentSteps(value, sink) : miniSweAgentSteps(value, sink);
    if (typeof value.instance_id === 'string') id = value.instance_id;
    outcome = outcomeFrom(value.info, format === 'swe-agent' ? 'submitted' : 'Submitted', options.resolved);
  }
  const trajectory: Trajectory = {
    id: options.id ?? id ?? contentId(format, steps),
    format,
    steps,
    skipped: sink.skipped,
    ignored: sink.ignored,
  };
  if (outcome) trajectory.outcome = outcome;
  return trajectory;
}

/**
 * Like {@link parseTrajectory} but never throws.
 *
 * @example
 * ```ts
 * const r = safeParseTrajectory(text);
 * if (!r.ok) console.error(r.error.code, r.error.message);
 * ```
 */
export function safeParseTrajectory(
  input: unknown,
  options?: ParseTrajectoryOptions,
): SafeResult<Trajectory> {
  try {
    return { ok: true, value: parseTrajectory(input, options) };
  } catch (err) {
    return { ok: false, error: toTranscriptError(err, options?.format) };
  }
}

function asObject(prepared: Prepared, sink: Sink): Record<string, unknown> {
  let value: unknown;
  if (prepared.kind === 'text') {
    const parsed = tryJson(prepared.text);
    if (!parsed.ok) throw sink.error(`Input is not valid JSON: ${parsed.message}`, failedAt(parsed));
    value = parsed.value;
  } else value = prepared.value;
  if (!isRecord(value))
    throw sink.error(`Expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

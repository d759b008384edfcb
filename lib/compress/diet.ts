/**
 * `reduceTrajectory`: AgentDiet (arXiv 2509.23586) step compression for agents that keep one growing
 * context. At step s the reflection model rewrites step s − a, seeing b steps before it and a after;
 * the rewrite is used only when the step has at least θ tokens and the rewrite saves at least θ.
 */
import {
  describeError,
  describeKind,
  errorName,
  estimateTokens,
  guardedCounter,
  isObject,
  isRearviewError,
  EarlyStop as Stop,
  type TokenCounter,
  withDeadline,
} from '../core/index.js';
import { type LlmClient, readReply, withRedaction } from '../llm/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { Step } from '../transcript/index.js';
import { type CompactedStep, renderStep } from './compact.js';
import { isErrorLine } from './compact-rules.js';
import { DIET_A, DIET_B, DIET_THETA } from './defaults.js';

/**
 * Options of {@link reduceTrajectory}. Token counts (the θ gates) use `countTokens` when given, else
 * `estimateTokens`.
 *
 * @example
 * ```ts
 * await reduceTrajectory(steps, { llm, a: 2, b: 1, theta: 500 });
 * ```
 */
export interface ReduceOptions {
  llm: LlmClient;
  /** Delay: at step s, step s − a is compressed. Default 2. */
  a?: number;
  /** Steps before the target shown as context. Default 1. */
  b?: number;
  /** θ: minimum tokens of the target and minimum savings. Default 500. */
  theta?: number;
  /** Stops the run: the pending call settles at once (even if the client ignores it), later steps are `aborted`. */
  signal?: AbortSignal;
  /** Abandon a call after this many ms (its step is `timeout`; the run goes on). Default: no limit beyond the client's. */
  timeoutMs?: number;
  countTokens?: TokenCounter;
  model?: string;
  /** Output budget per call. Default 4096. */
  maxTokens?: number;
  /**
   * Redact secrets and personal data from every request (placeholders in the reply are restored).
   * Default `true`; `false` sends text as given; an object tunes `rearview/redact`.
   */
  redact?: boolean | RedactOptions;
}

/** Why a step was or was not compressed. */
export type ReduceStatus =
  | 'accepted'
  | 'below_threshold'
  | 'insufficient_savings'
  | 'lost_error_lines'
  | 'parse_error'
  | 'api_error'
  | 'timeout'
  | 'aborted'
  | 'not_reached';

/** Per-step figures of {@link reduceTrajectory}. */
export interface ReduceStepDiagnostics {
  index: number;
  tokensBefore: number;
  tokensAfter: number;
  status: ReduceStatus;
  error?: string;
}

/** Result of {@link reduceTrajectory}. */
export interface ReduceResult {
  steps: CompactedStep[];
  diagnostics: {
    steps: ReduceStepDiagnostics[];
    tokensBefore: number;
    tokensAfter: number;
    calls: number;
    accepted: number;
    /**
     * Why the run stopped before its end: `steps` not an array, a step that cannot be read, or a
     * `countTokens` that threw (figures after it are estimates). Absent when the run went through.
     */
    error?: string;
  };
}

/**
 * Marker line prefixed to every compressed observation (followed by a newline and the rewrite).
 *
 * @example
 * ```ts
 * const { steps } = await reduceTrajectory(traj.steps, { llm });
 * const compressed = steps.filter((s) => s.observation?.startsWith(REFLECTION_MARKER));
 * ```
 */
export const REFLECTION_MARKER = '[rearview: compressed by reflection]';

const SYSTEM = `You compress one step of a coding agent's trajectory so the agent's context stays small.
Rewrite only the TARGET step's output. Keep verbatim everything a later step may need: file paths, line
numbers, identifiers, code the agent will edit, error messages, tracebacks, failing test names, numbers.
Replace everything else (long listings, boilerplate, repeated or irrelevant lines) with "…(short takeaway)",
where the takeaway says in a few words what was there. Never add facts. Reply with the rewritten output
only, between <compressed> and </compressed>.`;

/**
 * The compression prompt for target step `t`: b steps before it and a after, the target marked.
 *
 * @example
 * ```ts
 * const { system, user } = compressionPrompt(steps, 3, 2, 1);
 * ```
 */
export function compressionPrompt(
  steps: readonly Step[],
  t: number,
  a: number,
  b: number,
): { system: string; user: string } {
  const parts: string[] = [];
  for (let i = Math.max(0, t - b); i <= Math.min(steps.length - 1, t + a); i++) {
    const s = steps[i]!;
    const label = i === t ? `TARGET step ${s.index}` : `context step ${s.index}`;
    parts.push(
      `<${i === t ? 'target' : 'step'} label="${label}">\n` +
        (s.thought ? `<thought>\n${s.thought}\n</thought>\n` : '') +
        (s.action ? `<action>\n${s.action}\n</action>\n` : '') +
        `<output>\n${s.observation ?? ''}\n</output>\n</${i === t ? 'target' : 'step'}>`,
    );
  }
  return {
    system: SYSTEM,
    user: `${parts.join('\n')}\n\nRewrite the output of the TARGET step (step ${steps[t]!.index}).`,
  };
}

/**
 * AgentDiet step compression. Calls the model once per step that passes the θ gate, in order, each
 * call seeing the already-compressed earlier steps. A rewrite is rejected when it saves less than θ
 * or drops an error line. Never rejects: failures leave the step as it was, with the reason. Each
 * call is raced against `signal` and `timeoutMs`, so a client that ignores its signal cannot keep the
 * run pending; a `countTokens` that throws, or input that cannot be read, ends the run early with
 * `diagnostics.error`.
 *
 * @example
 * ```ts
 * const { steps: reduced, diagnostics } = await reduceTrajectory(traj.steps, { llm: anthropicClient({ apiKey }) });
 * ```
 */
export async function reduceTrajectory(
  steps: readonly Step[],
  options: ReduceOptions,
): Promise<ReduceResult> {
  const run: DietRun = { out: [], diag: [], calls: 0 };
  try {
    if (!Array.isArray(steps))
      throw new Stop('invalid_input', `steps must be an array, got ${describeKind(steps)}`);
    run.out = steps.map((s: Step) => ({ ...s }));
    await compressSteps(run, isObject(options) ? options : ({} as ReduceOptions));
  } catch (err) {
    run.error = err instanceof Stop ? err.message : `${errorName(err)}: ${describeError(err)}`;
    if (run.out.length === 0) run.out = readableSteps(steps);
    // Steps the run never counted get estimates, so the totals still cover every step.
    for (let i = run.diag.length; i < run.out.length; i++) {
      const tokens = estimateStep(run.out[i]!);
      run.diag.push({
        index: stepIndex(run.out[i], i),
        tokensBefore: tokens,
        tokensAfter: tokens,
        status: 'not_reached',
      });
    }
  }
  return result(run);
}

/** One run of {@link reduceTrajectory}: the steps as they stand, their figures, and how it ended. */
interface DietRun {
  out: CompactedStep[];
  diag: ReduceStepDiagnostics[];
  calls: number;
  error?: string;
}

async function compressSteps(run: DietRun, options: ReduceOptions): Promise<void> {
  const { out, diag } = run;
  const a = windowOption(options, 'a', DIET_A);
  const b = windowOption(options, 'b', DIET_B);
  const theta = options.theta ?? DIET_THETA;
  if (typeof theta !== 'number' || Number.isNaN(theta)) {
    throw new Stop('invalid_input', `options.theta must be a number, got ${shown(theta)}`);
  }
  const signal = options.signal;
  const client = withRedaction(options.llm, options.redact);
  const count = guardedCounter(options.countTokens);
  for (let i = 0; i < out.length; i++) {
    const tokens = await count(renderStep(out[i]!));
    diag.push({ index: out[i]!.index, tokensBefore: tokens, tokensAfter: tokens, status: 'not_reached' });
  }
  let aborted = false;
  // At step s (once it is done), the target is s − a.
  for (let s = a; s < out.length; s++) {
    const t = s - a;
    const d = diag[t]!;
    if (aborted || signal?.aborted) {
      aborted = true;
      d.status = 'aborted';
      continue;
    }
    const target = out[t]!;
    if (d.tokensBefore < theta || !target.observation || typeof target.observation !== 'string') {
      d.status = 'below_threshold';
      continue;
    }
    const prompt = compressionPrompt(out, t, a, b);
    let text: string;
    try {
      run.calls++;
      const res = await withDeadline(
        (inner) =>
          client.complete({
            system: prompt.system,
            messages: [{ role: 'user', content: prompt.user }],
            maxTokens: options.maxTokens ?? 4096,
            temperature: 0,
            ...(options.model ? { model: options.model } : {}),
            signal: inner,
          }),
        { signal, timeoutMs: options.timeoutMs, what: `The compression call for step ${d.index}` },
      );
      text = readReply(res).text;
    } catch (err) {
      const code = isRearviewError(err) ? err.code : 'error';
      if (code === 'llm_aborted' || signal?.aborted) {
        aborted = true;
        d.status = 'aborted';
      } else {
        d.status = code === 'llm_timeout' ? 'timeout' : 'api_error';
        d.error = `${code}: ${describeError(err)}`;
      }
      continue;
    }
    await judge(run, t, text, theta, count);
  }
}

/** Adopts the model's rewrite of step `t` when it keeps every error line and saves at least θ. */
async function judge(
  run: DietRun,
  t: number,
  text: string,
  theta: number,
  count: (text: string) => Promise<number>,
): Promise<void> {
  const d = run.diag[t]!;
  const target = run.out[t]! as CompactedStep & { observation: string };
  const open = text.indexOf('<compressed>');
  const close = text.lastIndexOf('</compressed>');
  if (open < 0 || close < open) {
    d.status = 'parse_error';
    return;
  }
  const rewritten = text
    .slice(open + '<compressed>'.length, close)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
  const lost = missingErrorLines(target.observation, rewritten);
  if (lost) {
    d.status = 'lost_error_lines';
    d.error = lost;
    return;
  }
  const candidate: CompactedStep = { ...target, observation: `${REFLECTION_MARKER}\n${rewritten}` };
  if (target.error !== undefined && target.error === target.observation)
    candidate.error = candidate.observation;
  const after = await count(renderStep(candidate));
  if (d.tokensBefore - after < theta) {
    d.status = 'insufficient_savings';
    d.tokensAfter = d.tokensBefore;
    return;
  }
  candidate.compacted = {
    rules: ['reflection'],
    removedLines: target.observation.split('\n').length - rewritten.split('\n').length,
    removedChars: target.observation.length - rewritten.length,
  };
  run.out[t] = candidate;
  d.status = 'accepted';
  d.tokensAfter = after;
}

/**
 * `a` or `b`: a non-negative integer, else the run stops (a negative or fractional window indexes no
 * step, and a huge negative one would never end the loop).
 */
function windowOption(options: ReduceOptions, key: 'a' | 'b', fallback: number): number {
  const value: unknown = options[key] ?? fallback;
  if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
  throw new Stop('invalid_input', `options.${key} must be a non-negative integer, got ${shown(value)}`);
}

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeKind(value);
}

function result(run: DietRun): ReduceResult {
  let tokensBefore = 0;
  let tokensAfter = 0;
  for (const d of run.diag) {
    tokensBefore += d.tokensBefore;
    tokensAfter += d.tokensAfter;
  }
  return {
    steps: run.out,
    diagnostics: {
      steps: run.diag,
      tokensBefore,
      tokensAfter,
      calls: run.calls,
      accepted: run.diag.filter((d) => d.status === 'accepted').length,
      ...(run.error !== undefined ? { error: run.error } : {}),
    },
  };
}

/** The steps as given, as far as they can be read (a step that cannot be copied is left as it is). */
function readableSteps(steps: readonly Step[]): CompactedStep[] {
  const out: CompactedStep[] = [];
  try {
    if (!Array.isArray(steps)) return out;
    for (let i = 0; i < steps.length; i++) out.push(steps[i] as CompactedStep);
  } catch {
    // An array whose elements cannot be read ends here.
  }
  return out;
}

function estimateStep(step: Step): number {
  try {
    return estimateTokens(renderStep(step));
  } catch {
    return 0;
  }
}

function stepIndex(step: Step | undefined, fallback: number): number {
  try {
    return typeof step?.index === 'number' ? step.index : fallback;
  } catch {
    return fallback;
  }
}

/** The first error line of `original` the rewrite dropped (compared trimmed), or undefined. */
function missingErrorLines(original: string, rewritten: string): string | undefined {
  for (const line of original.split('\n')) {
    const l = line.trim();
    if (l && isErrorLine(l) && !rewritten.includes(l)) return `dropped error line: ${l.slice(0, 120)}`;
  }
  return undefined;
}

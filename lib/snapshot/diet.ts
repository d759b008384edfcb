/**
 * `reduceTrajectory`: AgentDiet (arXiv 2509.23586) step compression for agents that keep one growing
 * context. At step s the reflection model rewrites step s − a, seeing b steps before it and a after;
 * the rewrite is used only when the step has at least θ tokens and the rewrite saves at least θ.
 */
import { countTokens, describeError, isRearviewError, type TokenCounter } from '../core/index.js';
import { type LlmClient, withRedaction } from '../llm/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { Step } from '../transcript/index.js';
import { type CompactedStep, isErrorLine, renderStep } from './compact.js';

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
  signal?: AbortSignal;
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
 * const { system, user } = buildCompressionPrompt(steps, 3, 2, 1);
 * ```
 */
export function buildCompressionPrompt(
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
 * or drops an error line. Never rejects: failures leave the step as it was, with the reason.
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
  const a = options.a ?? 2;
  const b = options.b ?? 1;
  const theta = options.theta ?? 500;
  const client = withRedaction(options.llm, options.redact);
  const count = (text: string) => countTokens(text, options.countTokens);
  const out: CompactedStep[] = steps.map((s) => ({ ...s }));
  const diag: ReduceStepDiagnostics[] = [];
  let calls = 0;
  let aborted = false;
  for (let i = 0; i < out.length; i++) {
    const tokens = await count(renderStep(out[i]!));
    diag.push({ index: out[i]!.index, tokensBefore: tokens, tokensAfter: tokens, status: 'not_reached' });
  }
  // At step s (once it is done), the target is s − a.
  for (let s = a; s < out.length; s++) {
    const t = s - a;
    const d = diag[t]!;
    if (aborted || options.signal?.aborted) {
      aborted = true;
      d.status = 'aborted';
      continue;
    }
    const target = out[t]!;
    if (d.tokensBefore < theta || !target.observation) {
      d.status = 'below_threshold';
      continue;
    }
    const prompt = buildCompressionPrompt(out, t, a, b);
    let text: string;
    try {
      calls++;
      const res = await client.complete({
        system: prompt.system,
        messages: [{ role: 'user', content: prompt.user }],
        maxTokens: options.maxTokens ?? 4096,
        temperature: 0,
        ...(options.model ? { model: options.model } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      text = res.text;
    } catch (err) {
      const code = isRearviewError(err) ? err.code : 'error';
      if (code === 'llm_aborted' || options.signal?.aborted) {
        aborted = true;
        d.status = 'aborted';
      } else {
        d.status = 'api_error';
        d.error = `${code}: ${describeError(err)}`;
      }
      continue;
    }
    const open = text.indexOf('<compressed>');
    const close = text.lastIndexOf('</compressed>');
    if (open < 0 || close < open) {
      d.status = 'parse_error';
      continue;
    }
    const rewritten = text
      .slice(open + '<compressed>'.length, close)
      .replace(/^\n/, '')
      .replace(/\n$/, '');
    const lost = missingErrorLines(target.observation, rewritten);
    if (lost) {
      d.status = 'lost_error_lines';
      d.error = lost;
      continue;
    }
    const candidate: CompactedStep = { ...target, observation: `${REFLECTION_MARKER}\n${rewritten}` };
    if (target.error !== undefined && target.error === target.observation)
      candidate.error = candidate.observation;
    const after = await count(renderStep(candidate));
    if (d.tokensBefore - after < theta) {
      d.status = 'insufficient_savings';
      d.tokensAfter = d.tokensBefore;
      continue;
    }
    candidate.compacted = {
      rules: ['reflection'],
      removedLines: target.observation.split('\n').length - rewritten.split('\n').length,
      removedChars: target.observation.length - rewritten.length,
    };
    out[t] = candidate;
    d.status = 'accepted';
    d.tokensAfter = after;
  }
  let tokensBefore = 0;
  let tokensAfter = 0;
  for (const d of diag) {
    tokensBefore += d.tokensBefore;
    tokensAfter += d.tokensAfter;
  }
  return {
    steps: out,
    diagnostics: {
      steps: diag,
      tokensBefore,
      tokensAfter,
      calls,
      accepted: diag.filter((d) => d.status === 'accepted').length,
    },
  };
}

/** The first error line of `original` the rewrite dropped (compared trimmed), or undefined. */
function missingErrorLines(original: string, rewritten: string): string | undefined {
  for (const line of original.split('\n')) {
    const l = line.trim();
    if (l && isErrorLine(l) && !rewritten.includes(l)) return `dropped error line: ${l.slice(0, 120)}`;
  }
  return undefined;
}

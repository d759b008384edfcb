import { describeError, errorCode } from '../core/index.js';
import type { LlmClient } from '../llm/index.js';

/**
 * What went wrong (or was only partly usable) in a Reflector or Curator call. Both never reject;
 * they report here instead.
 */
export interface PlaybookDiagnostic {
  /** `llm`: the call failed (after the client's retries); `parse`: no JSON in the reply; `shape`: JSON of
   * the wrong shape, partly used; `internal`: anything else. */
  stage: 'llm' | 'parse' | 'shape' | 'internal';
  /** Stable code: the LlmError code for `llm`, else `reply_unparseable`, `reply_partial`, `internal_error`. */
  code: string;
  message: string;
  /** The underlying error, for `llm` and `internal`. */
  error?: unknown;
  /** The model's reply (first 2,000 bytes), for `parse` and `shape`. */
  reply?: string;
}

/** Request knobs shared by the Reflector and the Curator. */
export interface ModelCallOptions {
  llm: LlmClient;
  maxTokens?: number;
  temperature?: number;
  model?: string;
  signal?: AbortSignal;
}

/**
 * Wraps a caller's diagnostic sink so that a sink that throws cannot break the never-rejects contract.
 *
 * @example
 * ```ts
 * const report = safeReporter(options.onDiagnostic);
 * report({ stage: 'internal', code: 'internal_error', message: 'boom' });
 * ```
 */
export function safeReporter(
  sink: ((d: PlaybookDiagnostic) => void) | undefined,
): (d: PlaybookDiagnostic) => void {
  return (d) => {
    try {
      sink?.(d);
    } catch {
      // A throwing diagnostic sink must not break the never-rejects contract.
    }
  };
}

/**
 * One model call for the Reflector or the Curator: the reply text, or `undefined` after reporting why
 * the call failed (`llm` stage with the LlmError code, else `internal`). The prompt is built inside the
 * guarded region, so a failure there is reported too, never thrown.
 *
 * @example
 * ```ts
 * const reply = await replyOrReport(options, () => buildPrompt(), report, 'Reflector');
 * if (reply === undefined) return EMPTY();
 * ```
 */
export async function replyOrReport(
  options: ModelCallOptions,
  buildPrompt: () => string,
  report: (d: PlaybookDiagnostic) => void,
  who: string,
): Promise<string | undefined> {
  try {
    const response = await options.llm.complete({
      messages: [{ role: 'user', content: buildPrompt() }],
      maxTokens: options.maxTokens ?? 2048,
      temperature: options.temperature ?? 0,
      ...(options.model ? { model: options.model } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return typeof response?.text === 'string' ? response.text : '';
  } catch (error) {
    const code = errorCode(error);
    const text = describeError(error);
    const llmCode = code?.startsWith('llm_') ? code : undefined;
    report({
      stage: llmCode ? 'llm' : 'internal',
      code: llmCode ?? 'internal_error',
      message: `${who} call failed: ${text}`,
      error,
    });
    return undefined;
  }
}

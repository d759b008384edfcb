import { describeError, errorCode, withDeadline } from '../core/index.js';
import type { LlmClient } from '../llm/index.js';
import { redact } from '../redact/index.js';

/**
 * Default time limit of one Reflector or Curator model call, retries included: 60,000 ms. A client
 * that ignores its signal or never answers cannot keep a caller waiting longer.
 *
 * @example
 * ```ts
 * await runReflector(messages, playbook, cited, { llm, timeoutMs: DEFAULT_MODEL_TIMEOUT_MS / 2 });
 * ```
 */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;

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
  /** Cancels the call: it settles at once with `llm_aborted`, even when the client ignores the signal. */
  signal?: AbortSignal;
  /**
   * Time limit of the call in milliseconds, retries included; past it the call settles with
   * `llm_timeout` and the client's signal fires. Default {@link DEFAULT_MODEL_TIMEOUT_MS}; `Infinity`
   * turns it off.
   */
  timeoutMs?: number;
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
 * guarded region, so a failure there is reported too, never thrown. The call is raced against the
 * signal and `timeoutMs` (`withDeadline`), so it settles promptly whatever the client does, and the
 * reported message is scrubbed of anything that looks like a key (a server may echo one).
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
    const prompt = buildPrompt();
    const response = await withDeadline(
      (signal) =>
        options.llm.complete({
          messages: [{ role: 'user', content: prompt }],
          maxTokens: options.maxTokens ?? 2048,
          temperature: options.temperature ?? 0,
          ...(options.model ? { model: options.model } : {}),
          signal,
        }),
      {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
        what: `The ${who} call`,
      },
    );
    return typeof response?.text === 'string' ? response.text : '';
  } catch (error) {
    const code = errorCode(error);
    const text = describeError(error);
    const llmCode = code?.startsWith('llm_') ? code : undefined;
    report({
      stage: llmCode ? 'llm' : 'internal',
      code: llmCode ?? 'internal_error',
      message: scrubMessage(`${who} call failed: ${text}`),
      error,
    });
    return undefined;
  }
}

/**
 * An error message or diagnostic without anything that looks like a key, token or address
 * (`rearview/redact` defaults): servers echo request headers and bodies into their error replies.
 *
 * @example
 * ```ts
 * scrubMessage('401: invalid x-api-key sk-ant-api03-…'); // '401: invalid x-api-key [anthropic-key-1]'
 * ```
 */
export function scrubMessage(message: string): string {
  try {
    return redact(message).text;
  } catch {
    return 'a message that could not be scrubbed';
  }
}

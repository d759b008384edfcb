import type Anthropic from '@anthropic-ai/sdk';
import { describeError, LlmError } from '../core/index.js';
import type { RedactOptions } from '../redact/index.js';
import { redactBeforeSending, scrubbed, secretHeaderValues } from './redacting.js';
import { type RetryPolicy, retryAfterMs, withRetries } from './retry.js';
import type { LlmClient, LlmRequest, LlmResponse } from './types.js';

/**
 * The default model: a current Haiku-class model, fast and cheap enough for reflection.
 * Pass `model` to use another (for example `claude-sonnet-4-5`).
 *
 * @example
 * ```ts
 * const llm = anthropicClient({ apiKey }); // uses DEFAULT_ANTHROPIC_MODEL
 * const sonnet = anthropicClient({ apiKey, model: 'claude-sonnet-4-5' });
 * ```
 */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-haiku-4-5';

/**
 * Replies asking for at least this many output tokens (8192) are streamed unless the client's or the
 * request's `stream` says otherwise.
 *
 * @example
 * ```ts
 * // Streamed by default: maxTokens >= STREAM_THRESHOLD_TOKENS.
 * await llm.complete({ messages, maxTokens: STREAM_THRESHOLD_TOKENS });
 * ```
 */
export const STREAM_THRESHOLD_TOKENS = 8192;

/** Options of {@link anthropicClient}. Durations in milliseconds. */
export interface AnthropicClientOptions {
  /** API key. Omit it when `baseURL` is a proxy that adds the key server-side. */
  apiKey?: string;
  /** Base URL of the Messages API or of a proxy in front of it. Default: the SDK's (api.anthropic.com). */
  baseURL?: string;
  /** Model id. Default {@link DEFAULT_ANTHROPIC_MODEL}. */
  model?: string;
  /** Retries after the first attempt. Default 3. rearview retries; the SDK's own retries are off. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 60000. */
  timeoutMs?: number;
  /**
   * Required to send an API key from a browser page (the key is then visible to the page's user).
   * Not needed without `apiKey` (proxy mode): there is no secret in the page to protect.
   */
  dangerouslyAllowBrowser?: boolean;
  /** An existing SDK instance to use instead of creating one (its own retries are bypassed per request). */
  client?: Anthropic;
  /** Stream replies: `true`, `false`, or by default only when `maxTokens` ≥ {@link STREAM_THRESHOLD_TOKENS}. */
  stream?: boolean;
  /** Backoff tuning; `maxRetries` above wins over `retry.maxRetries`. */
  retry?: Omit<RetryPolicy, 'maxRetries'>;
  /** Extra headers on every request (for example a proxy's own auth). */
  headers?: Record<string, string>;
  /** A `fetch` implementation for the SDK (default: the global one). */
  fetch?: typeof fetch;
  /**
   * Redact secrets and personal data (API keys, tokens, private keys, email addresses, …) from the
   * system prompt and messages before they are sent. Default `true`; `false` sends text as given;
   * an object tunes `rearview/redact`.
   */
  redact?: boolean | RedactOptions;
}

/**
 * An {@link LlmClient} on the official `@anthropic-ai/sdk`, loaded with a dynamic `import()` on the
 * first request so bundles that never call a model do not contain it.
 *
 * Retries: up to `maxRetries` (default 3) with exponential backoff from 2 s plus jitter, honouring
 * `retry-after-ms` / `retry-after`; 408, 409, 429, 5xx, 529 and connection errors are retried, other
 * 4xx never. The SDK's own retries are disabled per request, so attempts are never multiplied. A
 * caller's `AbortSignal` cancels at once, also during a backoff wait. Requests are redacted before
 * they leave (option `redact`, on by default). Error messages are scrubbed: a server that echoes the
 * request (a proxy's 401 page, a 400 quoting the headers) cannot put the caller's `apiKey`, a secret
 * header's value or anything that looks like a key into `err.message`; the SDK's error, which holds the
 * raw reply body and headers, is not kept as `cause` of an HTTP error.
 *
 * @throws {LlmError} with `code` `llm_auth`, `llm_bad_request`, `llm_not_found`, `llm_rate_limited`,
 * `llm_overloaded`, `llm_server`, `llm_connection`, `llm_timeout`, `llm_aborted` or `llm_invalid_response`.
 *
 * @example
 * ```ts
 * const llm = anthropicClient({ apiKey: env.ANTHROPIC_API_KEY });
 * const { text, usage } = await llm.complete({
 *   system: 'Be brief.',
 *   messages: [{ role: 'user', content: 'Name one prime.' }],
 *   maxTokens: 50,
 * });
 * ```
 */
export function anthropicClient(options: AnthropicClientOptions = {}): LlmClient {
  const model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
  const timeoutMs = options.timeoutMs ?? 60_000;
  let sdk: Promise<Anthropic> | undefined;

  const getSdk = (): Promise<Anthropic> => {
    sdk ??= options.client
      ? Promise.resolve(options.client)
      : import('@anthropic-ai/sdk').then(({ default: AnthropicSdk }) => {
          const proxyOnly = options.apiKey === undefined;
          return new AnthropicSdk({
            // Explicit null: never fall back to reading the environment from inside lib/.
            apiKey: options.apiKey ?? null,
            authToken: null,
            ...(options.baseURL ? { baseURL: options.baseURL } : {}),
            maxRetries: 0,
            timeout: timeoutMs,
            // The SDK's browser guard protects a key; with no key in the page (proxy mode) there is none.
            dangerouslyAllowBrowser: proxyOnly || (options.dangerouslyAllowBrowser ?? false),
            ...(options.fetch ? { fetch: options.fetch } : {}),
            // With no key (a proxy adds it), tell the SDK the missing Authorization header is intended.
            defaultHeaders: { ...(proxyOnly ? { Authorization: null } : {}), ...options.headers },
          });
        });
    return sdk;
  };

  const secrets = [options.apiKey, ...secretHeaderValues(options.headers)];
  const complete = async (original: LlmRequest): Promise<LlmResponse> => {
    const started = Date.now();
    const request = redactBeforeSending(original, options.redact);
    const client = await getSdk().catch((err: unknown) => {
      throw new LlmError('llm_unavailable', `Could not load @anthropic-ai/sdk: ${describeError(err)}`, {
        cause: err,
      });
    });
    const params = {
      model: request.model ?? model,
      max_tokens: request.maxTokens,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      ...(request.system ? { system: request.system } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    const stream = request.stream ?? options.stream ?? request.maxTokens >= STREAM_THRESHOLD_TOKENS;
    const requestOptions = {
      maxRetries: 0,
      timeout: timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
    };
    const { value: message, attempts } = await withRetries(
      async () => {
        try {
          return stream
            ? await client.messages.stream(params, requestOptions).finalMessage()
            : await client.messages.create(params, requestOptions);
        } catch (err) {
          // Scrubbed here already, so `retry.onRetry` never sees an echoed key either.
          throw scrubbed(toLlmError(err), secrets);
        }
      },
      { ...options.retry, maxRetries: options.maxRetries ?? 3 },
      request.signal,
    );
    return toResponse(message, attempts, Date.now() - started);
  };
  return {
    async complete(request: LlmRequest): Promise<LlmResponse> {
      try {
        return await complete(request);
      } catch (err) {
        throw scrubbed(err, secrets);
      }
    },
  };
}

function toResponse(message: unknown, attempts: number, latencyMs: number): LlmResponse {
  const m = message as {
    content?: { type?: string; text?: string }[];
    usage?: { input_tokens?: number; output_tokens?: number };
    model?: string;
    stop_reason?: string | null;
  };
  if (!m || !Array.isArray(m.content)) {
    throw new LlmError('llm_invalid_response', 'The Messages API returned a reply without a content array', {
      attempts,
    });
  }
  const text = m.content
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('');
  return {
    text,
    usage: { inputTokens: m.usage?.input_tokens ?? 0, outputTokens: m.usage?.output_tokens ?? 0 },
    latencyMs,
    model: m.model ?? '',
    ...(m.stop_reason ? { stopReason: m.stop_reason } : {}),
    attempts,
  };
}

const STATUS_CODES: Record<number, string> = {
  400: 'llm_bad_request',
  401: 'llm_auth',
  403: 'llm_auth',
  404: 'llm_not_found',
  408: 'llm_timeout',
  413: 'llm_bad_request',
  422: 'llm_bad_request',
  429: 'llm_rate_limited',
  529: 'llm_overloaded',
};

/** Maps an SDK error (recognised by shape, so the SDK is never imported statically) to an LlmError. */
function toLlmError(err: unknown): LlmError {
  if (err instanceof LlmError) return err;
  const e = err as {
    name?: string;
    status?: number;
    message?: string;
    headers?: { get(name: string): string | null };
  };
  const name = e?.name ?? '';
  if (name === 'APIUserAbortError' || name === 'AbortError') {
    return new LlmError('llm_aborted', 'The request was aborted', { cause: err });
  }
  if (name === 'APIConnectionTimeoutError') {
    return new LlmError('llm_timeout', 'The request timed out', { cause: err });
  }
  if (typeof e?.status === 'number') {
    const code = STATUS_CODES[e.status] ?? (e.status >= 500 ? 'llm_server' : 'llm_http');
    const hint = retryAfterMs(e.headers);
    return new LlmError(code, `Messages API answered ${e.status}: ${e.message ?? ''}`.trim(), {
      cause: err,
      status: e.status,
      ...(hint !== undefined ? { retryAfterMs: hint } : {}),
    });
  }
  if (name === 'APIConnectionError' || err instanceof TypeError) {
    return new LlmError('llm_connection', `Could not reach the Messages API: ${describeError(err)}`, {
      cause: err,
    });
  }
  // A body that is not the JSON or event stream it should be: often a proxy hiccup, so it is retried.
  return new LlmError('llm_invalid_response', `Messages API reply could not be read: ${describeError(err)}`, {
    cause: err,
  });
}

import { LlmError } from '../core/index.js';
import { createRedactor, type RedactOptions, type RedactPattern, redact } from '../redact/index.js';
import type { LlmClient, LlmRequest } from './types.js';

/** A redacted request and the way back from its placeholders. */
export interface RedactedRequest {
  request: LlmRequest;
  /** Puts the original values back wherever the reply repeats a placeholder of this request. */
  restore(text: string): string;
  /** How many values were replaced. */
  count: number;
}

/**
 * Redacts a request before it leaves: the system prompt and every message go through one redactor,
 * so a value gets the same placeholder (`[email-1]`) wherever it appears in the request. The originals
 * stay in memory only, for {@link RedactedRequest.restore}.
 *
 * @example
 * ```ts
 * const { request, restore } = redactForRequest({
 *   messages: [{ role: 'user', content: 'mail me: jane@example.com' }],
 *   maxTokens: 50,
 * });
 * request.messages[0].content;          // 'mail me: [email-1]'
 * restore('Sent to [email-1].');         // 'Sent to jane@example.com.'
 * ```
 */
export function redactForRequest(request: LlmRequest, options?: RedactOptions): RedactedRequest {
  const redactor = createRedactor({ ...options, includeOriginals: true });
  const redacted: LlmRequest = {
    ...request,
    ...(request.system !== undefined ? { system: redactor.redactText(request.system) } : {}),
    messages: request.messages.map((m) => ({ ...m, content: redactor.redactText(m.content) })),
  };
  const originals = new Map<string, string>();
  for (const f of redactor.findings()) if (f.original !== undefined) originals.set(f.placeholder, f.original);
  const pattern =
    originals.size === 0
      ? undefined
      : new RegExp([...originals.keys()].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return {
    request: redacted,
    count: redactor.count,
    restore: (text) => (pattern ? text.replace(pattern, (p) => originals.get(p) ?? p) : text),
  };
}

/**
 * Redacts a request (see {@link redactForRequest}) and returns only the redacted request.
 *
 * @example
 * ```ts
 * redactRequest({ messages: [{ role: 'user', content: 'jane@example.com' }], maxTokens: 5 }).messages[0].content;
 * // '[email-1]'
 * ```
 */
export function redactRequest(request: LlmRequest, options?: RedactOptions): LlmRequest {
  return redactForRequest(request, options).request;
}

/**
 * @internal What a client sends given its `redact` option: the request redacted with the defaults
 * (`true`, `undefined`) or with the given options, or as it is (`false`).
 */
export function redactBeforeSending(
  request: LlmRequest,
  redact: boolean | RedactOptions | undefined,
): LlmRequest {
  if (redact === false) return request;
  return redactRequest(request, redact === true || redact === undefined ? undefined : redact);
}

/** Options of {@link redactingClient}. */
export interface RedactingClientOptions extends RedactOptions {
  /**
   * Put the original values back where the reply repeats a placeholder, so callers that check the
   * reply against their own (unredacted) inputs still match. Default `true`.
   */
  restore?: boolean;
}

/**
 * Wraps any {@link LlmClient} so every request is redacted before it reaches `inner`. rearview's
 * LLM-calling functions wrap the client they are given this way unless told `redact: false`, so even a
 * custom provider never receives the secrets; {@link anthropicClient} also redacts on its own.
 *
 * @example
 * ```ts
 * const llm = redactingClient(myOpenAiClient, { kinds: { email: false } });
 * ```
 */
export function redactingClient(inner: LlmClient, options: RedactingClientOptions = {}): LlmClient {
  const { restore = true, ...redactOptions } = options;
  return {
    async complete(request) {
      const redacted = redactForRequest(request, redactOptions);
      const response = await inner.complete(redacted.request);
      return restore ? { ...response, text: redacted.restore(response.text) } : response;
    },
  };
}

/**
 * The client an LLM-calling function should use given its `redact` option: wrapped by
 * {@link redactingClient} unless `redact` is `false`.
 *
 * @example
 * ```ts
 * const safe = withRedaction(options.llm, options.redact);
 * ```
 */
export function withRedaction(llm: LlmClient, redact: boolean | RedactOptions | undefined): LlmClient {
  if (redact === false) return llm;
  return redactingClient(llm, redact === true || redact === undefined ? {} : redact);
}

/** Secrets shorter than this are not real keys: scrubbing them would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;

/**
 * @internal A message (an error's, a diagnostic's) without the caller's own secrets (each matched as an
 * exact string) nor anything that looks like a key, token or address (`rearview/redact` defaults):
 * servers echo request headers and bodies into their error replies. Never throws.
 */
export function scrubSecrets(message: string, secrets: readonly (string | undefined)[] = []): string {
  try {
    const patterns: RedactPattern[] = [];
    for (const secret of secrets) {
      if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) {
        for (const spelling of spellings(secret)) patterns.push({ kind: 'api-key', pattern: spelling });
        // A masked echo (`sk-ant-api03-Z…`, `sk-ant-api03-Zx***`): the key's start, then a mask.
        patterns.push({ kind: 'api-key', pattern: maskedEcho(secret) });
      }
    }
    return redact(message, patterns.length ? { patterns } : undefined).text;
  } catch {
    return 'a message that could not be scrubbed';
  }
}

/** The ways a server echoes a key it was sent: as is, base64 (padded or not), URL-encoded. */
function spellings(secret: string): string[] {
  const out = new Set([secret, encodeURIComponent(secret)]);
  try {
    const b64 = btoa(secret);
    out.add(b64);
    out.add(b64.replace(/=+$/, ''));
    out.add(b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  } catch {
    // A key outside Latin-1 has no btoa spelling; the others still apply.
  }
  return [...out];
}

/** The key's first 12 characters (at least its prefix and one more), any key characters, then a mask. */
function maskedEcho(secret: string): RegExp {
  const head = secret.slice(0, Math.min(12, secret.length - 4)).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`${head}[A-Za-z0-9_-]{0,64}(?:\u2026|\\.{3}|\\*{3,64}|x{4,64})`);
}

/** @internal Values of headers that carry credentials (a proxy's own auth): scrubbed from error messages too. */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  if (!headers || typeof headers !== 'object') return [];
  return Object.entries(headers)
    .filter(([name, value]) => typeof value === 'string' && /auth|key|token|secret|cookie/i.test(name))
    .map(([, value]) => value.replace(/^(?:Bearer|Basic)\s+/i, ''));
}

/**
 * @internal The error with its message scrubbed of the caller's secrets and anything key-like. An HTTP error
 * loses its `cause` (the SDK's error holds the raw body and headers, echoed key included).
 */
export function scrubbed(err: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!(err instanceof LlmError)) return err;
  return new LlmError(err.code, scrubSecrets(err.message, secrets), {
    ...(err.status === undefined ? { cause: err.cause } : {}),
    ...(err.status !== undefined ? { status: err.status } : {}),
    ...(err.attempts !== undefined ? { attempts: err.attempts } : {}),
    ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
  });
}

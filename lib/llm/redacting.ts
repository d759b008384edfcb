import { createRedactor, type RedactOptions } from '../redact/index.js';
import type { LlmClient, LlmRequest } from './types.js';

/**
 * Redacts a request before it leaves: the system prompt and every message go through one redactor,
 * so a value gets the same placeholder (`[email-1]`) wherever it appears in the request.
 *
 * @example
 * ```ts
 * const safe = redactRequest({ messages: [{ role: 'user', content: 'mail me: jane@example.com' }], maxTokens: 50 });
 * safe.messages[0].content; // 'mail me: [email-1]'
 * ```
 */
export function redactRequest(request: LlmRequest, options?: RedactOptions): LlmRequest {
  const redactor = createRedactor(options);
  return {
    ...request,
    ...(request.system !== undefined ? { system: redactor.redactText(request.system) } : {}),
    messages: request.messages.map((m) => ({ ...m, content: redactor.redactText(m.content) })),
  };
}

/**
 * Wraps any {@link LlmClient} so every request is redacted before it reaches `inner`. Use it with
 * providers other than Anthropic; {@link anthropicClient} already redacts by default.
 *
 * @example
 * ```ts
 * const llm = redactingClient(myOpenAiClient, { kinds: { email: false } });
 * ```
 */
export function redactingClient(inner: LlmClient, options?: RedactOptions): LlmClient {
  return { complete: (request) => inner.complete(redactRequest(request, options)) };
}

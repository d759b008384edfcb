/** One conversational turn sent to a model. */
export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A provider-neutral completion request. Small on purpose: any provider can implement it.
 */
export interface LlmRequest {
  /** System prompt. */
  system?: string;
  /** The conversation, oldest first; the last message is normally the user's. */
  messages: LlmMessage[];
  /** Upper bound on output tokens. */
  maxTokens: number;
  /** Sampling temperature in [0, 1]; providers' default when absent. */
  temperature?: number;
  /** Cancels the request, including any retry wait, as soon as it fires. */
  signal?: AbortSignal;
  /** Overrides the client's model for this request. */
  model?: string;
  /** Stream the reply (server-sent events) instead of waiting for one JSON body. */
  stream?: boolean;
}

/** Token usage reported by the provider. */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A completed request. */
export interface LlmResponse {
  /** The text of the reply (all text blocks, concatenated). */
  text: string;
  usage: LlmUsage;
  /** Wall time from the first attempt to the final answer, retries included, in milliseconds. */
  latencyMs: number;
  /** The model that answered. */
  model: string;
  /** Why generation stopped (`end_turn`, `max_tokens`, …) when the provider says. */
  stopReason?: string;
  /** How many HTTP attempts it took (1 when no retry was needed). */
  attempts?: number;
}

/**
 * Anything that completes a request: the Anthropic client, a fixture replayer, a test double.
 *
 * @example
 * ```ts
 * const echo: LlmClient = {
 *   async complete(req) {
 *     const text = req.messages.at(-1)?.content ?? '';
 *     return { text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, model: 'echo' };
 *   },
 * };
 * ```
 */
export interface LlmClient {
  complete(request: LlmRequest): Promise<LlmResponse>;
}

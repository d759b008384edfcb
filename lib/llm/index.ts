/**
 * `rearview/llm`: a small provider-neutral client interface, the Anthropic implementation on the
 * official SDK (loaded lazily), retries with backoff, and offline fixture replay and recording.
 *
 * @module
 */
export {
  type AnthropicClientOptions,
  anthropicClient,
  DEFAULT_ANTHROPIC_MODEL,
  STREAM_THRESHOLD_TOKENS,
} from './anthropic.js';
export {
  FIXTURE_KEY_LENGTH,
  type FixtureClientOptions,
  type FixtureLineIssue,
  type FixtureSpelling,
  type FixturesToJsonlOptions,
  fixtureClient,
  fixtureLookup,
  fixturesToJsonl,
  type LlmFixture,
  parseFixturesJsonl,
  type ReadFixturesOptions,
  readFixturesJsonl,
  recordingClient,
  requestKey,
} from './fixtures.js';
export {
  DEFAULT_OPENAI_BASE_URL,
  DEFAULT_OPENAI_MODEL,
  type OpenAiClientOptions,
  openAiClient,
} from './openai.js';
export {
  type RedactedRequest,
  type RedactingClientOptions,
  redactForRequest,
  redactingClient,
  redactRequest,
  withRedaction,
} from './redacting.js';
export { readReply } from './reply.js';
export { abortableSleep, isRetryableStatus, type RetryPolicy, retryAfterMs, withRetries } from './retry.js';
export type { LlmClient, LlmMessage, LlmRequest, LlmResponse, LlmUsage } from './types.js';

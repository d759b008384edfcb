/**
 * rearview: agents that learn from what they just did. The root entry is the front door: the facade
 * (`createRearview`), the stores it keeps playbooks in, the model clients, `parseTranscript`, the
 * errors and `VERSION`. Everything else is imported from its subpath (`rearview/snapshot`,
 * `rearview/playbook`, …), listed in README.md's module table; api/surface.json lists every name.
 *
 * @module
 */
export {
  ConfigError,
  describeError,
  errorCode,
  isRearviewError,
  LlmError,
  RearviewError,
  StoreError,
  TranscriptError,
  ValidationError,
} from './core/index.js';
export { durableObjectPlaybook } from './durable/index.js';
export {
  type IdbStoreOptions,
  idbStore,
  type KeyValueStore,
  type KvNamespaceLike,
  type MemoryStoreOptions,
  memoryStore,
  type OpenBestStoreOptions,
  openBestStore,
  workersKvStore,
} from './kv/index.js';
export {
  type AnthropicClientOptions,
  anthropicClient,
  type FixtureClientOptions,
  fixtureClient,
  type LlmClient,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  type LlmUsage,
  type OpenAiClientOptions,
  openAiClient,
} from './llm/index.js';
export {
  createRearview,
  loadRearview,
  type ObserveResult,
  type Rearview,
  type RearviewBudgets,
  type RearviewOptions,
  type SessionSummary,
} from './session/index.js';
export { type PlaybookStore, type PlaybookStoreOptions, playbookStore } from './store/index.js';
export {
  type Message,
  type ParseTranscriptOptions,
  parseTranscript,
  type Transcript,
} from './transcript/index.js';

/**
 * The package version, kept in step with package.json by a unit test.
 *
 * @example
 * ```ts
 * import { VERSION } from 'rearview';
 * console.log(`rearview ${VERSION}`);
 * ```
 */
export const VERSION = '0.1.0';

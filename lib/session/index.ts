/**
 * `rearview/session`: the drop-in facade. `createRearview({ store, llm?, redact?, budgets? })` gives
 * `observe(messages)` (heuristic, incremental), `endSession({ signal })` (heuristic key points, then
 * the Reflector and Curator when a model is configured; never rejects), `systemPrompt({ query,
 * tokenBudget })` (the playbook section for the next system prompt) and `on('change', listener)`.
 * Works with `idbStore` in browsers and `workersKvStore` or `memoryStore` at the edge. `loadRearview`
 * (async) is the same facade with people's turns read by the learned reader, imported on first use.
 *
 * @module
 */

export { keyPointOf } from './key-point-of.js';
export { loadRearview } from './load.js';
export { type ReflectSessionOptions, type ReflectSessionResult, reflectSession } from './reflect-session.js';
export { createRearview, lessons, lessonsInputOf } from './session.js';
export type {
  LessonsInput,
  LessonsOptions,
  LessonsResult,
  ObserveResult,
  ProposedKeyPoint,
  Rearview,
  RearviewBudgets,
  RearviewOptions,
  SessionError,
  SessionSummary,
} from './types.js';

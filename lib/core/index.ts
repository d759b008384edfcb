/**
 * `rearview/core`: the primitives every other module builds on — the error hierarchy, robust JSON
 * extraction, token estimation, UTF-8 truncation, SHA-256 and Python-compatible canonical JSON.
 *
 * @module
 */

export { type DeadlineOptions, withDeadline } from './abort.js';
export { canonicalJson, compareCodePoints } from './canonical.js';
export { cloneJson } from './clone.js';
export { declinedCall, type ErrorLine, errorLine } from './error-line.js';
export {
  ConfigError,
  describeError,
  errorCode,
  formatLocation,
  type InputLocation,
  type Issue,
  isRearviewError,
  LlmError,
  RearviewError,
  type RearviewErrorOptions,
  StoreError,
  TranscriptError,
  ValidationError,
} from './errors.js';
export { describeKind, EarlyStop, errorName, guardedClock, guardedCounter, isObject } from './guards.js';
export { sha256Hex, toHex } from './hash.js';
export { FNV_OFFSET, FNV_PRIME, fmix32, fnv1a32, fnv1a32Bytes } from './hash32.js';
export { extractJson, parseJsonObject } from './json.js';
export {
  findSyntaxError,
  type JsonErrorLocation,
  lineColumn,
  locateJsonError,
  parseJsonLocated,
} from './json-parse.js';
export { contentText, defaultRef } from './message.js';
export { namesPath, tildeSpelling } from './paths.js';
export { contentWords, jaccard, shingles } from './similarity.js';
export { countTokens, estimateTokens, type TokenCounter } from './tokens.js';
export { clip, truncateUtf8, utf8ByteLength } from './utf8.js';

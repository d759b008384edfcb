/**
 * What the Reflector returns, in a file of its own: the Reflector produces it and the redaction of
 * what is shown and sent reads it, and neither should import the other for a type.
 *
 * @module
 */
import type { KeyPointTag } from './tags.js';

/**
 * What the Reflector returns.
 *
 * @example
 * ```ts
 * const empty: ReflectorResult = { analysis: '', keyPointTags: [] };
 * ```
 */
export interface ReflectorResult {
  /** What went well or poorly; `''` after a failure. */
  analysis: string;
  /** Per-key-point verdicts (`name`, `tag`, `rationale`); `[]` after a failure. */
  keyPointTags: KeyPointTag[];
}

/**
 * Defensive reading of what a caller hands in: objects that may not be objects, callbacks that may
 * throw or return the wrong type, and errors that may not be errors. The reducers never reject, so
 * each of these turns a bad value into a typed early stop or a printable name instead of a throw.
 */
import { describeError, isRearviewError, RearviewError } from './errors.js';
import { countTokens, type TokenCounter } from './tokens.js';

/**
 * Ends a never-rejecting call early with a machine-readable `reason` (its `code`) and a message; the
 * caller catches it and returns its fallback result with that reason.
 *
 * @example
 * ```ts
 * try {
 *   throw new EarlyStop('invalid_input', 'steps must be an array');
 * } catch (err) {
 *   if (err instanceof EarlyStop) console.log(err.reason); // 'invalid_input'
 * }
 * ```
 */
export class EarlyStop extends RearviewError {
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(reason, detail);
  }
}

/**
 * A token counter whose failure ends the call (`EarlyStop` with reason `callback_error`) instead of
 * rejecting it; without `counter`, {@link countTokens}' estimate.
 *
 * @example
 * ```ts
 * const count = guardedCounter((text) => text.length);
 * await count('four'); // 4
 * ```
 */
export function guardedCounter(counter: TokenCounter | undefined): (text: string) => Promise<number> {
  return async (text) => {
    try {
      return await countTokens(text, counter);
    } catch (err) {
      throw new EarlyStop('callback_error', `countTokens threw: ${describeError(err)}`);
    }
  };
}

/**
 * A clock whose failure (a throw, or not a number) ends the call (`EarlyStop`, `callback_error`).
 *
 * @example
 * ```ts
 * const now = guardedClock(() => performance.now());
 * const t0 = now();
 * ```
 */
export function guardedClock(now: () => number): () => number {
  return () => {
    let t: unknown;
    try {
      t = now();
    } catch (err) {
      throw new EarlyStop('callback_error', `now threw: ${describeError(err)}`);
    }
    if (typeof t !== 'number')
      throw new EarlyStop('callback_error', `now returned ${describeKind(t)}, not a number`);
    return t;
  };
}

/**
 * Whether `value` is a non-null object (arrays included), so its fields can be read.
 *
 * @example
 * ```ts
 * isObject({}); // true
 * isObject(null); // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The kind of a value as an error message names it: `null`, `an array`, or its `typeof`.
 *
 * @example
 * ```ts
 * describeKind([1]); // 'an array'
 * describeKind(3); // 'number'
 * ```
 */
export function describeKind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * A RearviewError's code, else an Error's name, else `error`; never throws.
 *
 * @example
 * ```ts
 * errorName(new TypeError('x')); // 'TypeError'
 * errorName(42); // 'error'
 * ```
 */
export function errorName(err: unknown): string {
  if (isRearviewError(err)) return err.code;
  try {
    return err instanceof Error ? err.name : 'error';
  } catch {
    return 'error';
  }
}

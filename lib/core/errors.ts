/**
 * The error hierarchy. Every error rearview throws is a {@link RearviewError} with a stable string
 * `code`, so callers can branch on `err.code` without `instanceof` (which fails across realms: an
 * error thrown inside an iframe, a worker or a second copy of the package is a different class).
 */

/** Marks rearview errors across realms and package copies; `Symbol.for` is shared by every realm. */
const MARKER: unique symbol = /* @__PURE__ */ Symbol.for('rearview.error') as never;

/** Options accepted by every rearview error constructor. */
export interface RearviewErrorOptions {
  /** The underlying error, kept for debugging (`err.cause`). */
  cause?: unknown;
}

/**
 * Base class of every error rearview throws.
 *
 * @example
 * ```ts
 * try {
 *   parseTranscript(text);
 * } catch (err) {
 *   if (isRearviewError(err) && err.code === 'transcript_invalid') console.error(err.message);
 * }
 * ```
 */
export class RearviewError extends Error {
  /** Stable, machine-readable code such as `transcript_invalid` or `store_corrupt`. */
  readonly code: string;
  declare readonly [MARKER]: true;

  constructor(code: string, message: string, options?: RearviewErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'RearviewError';
    Object.defineProperty(this, MARKER, { value: true, enumerable: false });
  }
}

/**
 * True when `value` is an error thrown by any copy of rearview, in any realm.
 *
 * @example
 * ```ts
 * if (isRearviewError(err)) console.log(err.code);
 * ```
 */
export function isRearviewError(value: unknown): value is RearviewError {
  try {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[MARKER] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  } catch {
    // A Proxy whose traps throw is not one of ours.
    return false;
  }
}

/**
 * The message of anything thrown, for a report: `error.message` when it is a string, else
 * `String(value)`. Never throws, whatever a caller's code threw: `String({ toString: 0 })` and a
 * throwing `message` getter give `'a value that cannot be printed'`.
 *
 * @example
 * ```ts
 * describeError(new TypeError('bad input')); // 'bad input'
 * describeError({ toString: 0 });            // 'a value that cannot be printed'
 * ```
 */
export function describeError(value: unknown): string {
  try {
    const message = (value as { message?: unknown } | null | undefined)?.message;
    return typeof message === 'string' ? message : String(value);
  } catch {
    return 'a value that cannot be printed';
  }
}

/**
 * The string `code` of anything thrown (an {@link RearviewError}, a Node-style error), or undefined.
 * Never throws.
 *
 * @example
 * ```ts
 * errorCode(new LlmError('llm_timeout', 'slow')); // 'llm_timeout'
 * errorCode({ toString: 0 });                     // undefined
 * ```
 */
export function errorCode(value: unknown): string | undefined {
  try {
    const code = (value as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Where in an input a problem was found. All fields are optional; messages include what is known. */
export interface InputLocation {
  /** 1-based line number in a text input. */
  line?: number;
  /** 1-based column on `line` (UTF-16 code units, as editors count), when known. */
  column?: number;
  /** 0-based index in an array input. */
  index?: number;
  /** Key path such as `reflection.backend` or `messages[3].content`. */
  path?: string;
}

/**
 * Formats a location as a suffix for an error message: path, line (with its column) and index in
 * that order, in parentheses with a leading space; `''` when nothing is known. A column is shown only
 * with its line: alone it would point nowhere.
 *
 * @example
 * ```ts
 * formatLocation({ line: 3 }); // ' (line 3)'
 * formatLocation({ line: 54, column: 14 }); // ' (line 54, column 14)'
 * formatLocation({ path: 'reflection.backend' }); // ' (at reflection.backend)'
 * formatLocation(undefined); // ''
 * ```
 */
export function formatLocation(location: InputLocation | undefined): string {
  if (!location) return '';
  const parts: string[] = [];
  if (location.path !== undefined) parts.push(`at ${location.path}`);
  if (location.line !== undefined)
    parts.push(
      location.column !== undefined
        ? `line ${location.line}, column ${location.column}`
        : `line ${location.line}`,
    );
  if (location.index !== undefined) parts.push(`index ${location.index}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * A transcript or trajectory could not be read. `format` names the format that was tried.
 *
 * @example
 * ```ts
 * throw new TranscriptError('Expected a JSON object', { format: 'claude-code-jsonl', line: 12 });
 * ```
 */
export class TranscriptError extends RearviewError {
  readonly format: string | undefined;
  readonly location: InputLocation;

  constructor(
    message: string,
    options: RearviewErrorOptions & InputLocation & { format?: string; code?: string } = {},
  ) {
    const { cause, format, code = 'transcript_invalid', ...location } = options;
    super(code, `${format ? `[${format}] ` : ''}${message}${formatLocation(location)}`, { cause });
    this.name = 'TranscriptError';
    this.format = format;
    this.location = location;
  }
}

/** One problem found while validating a config or a record. */
export interface Issue {
  /** Key path of the offending value, e.g. `reflection.summaryTokens`; empty for the root. */
  path: string;
  /** What was wrong, in plain words. */
  message: string;
}

/**
 * Input failed validation. Lists every problem at once in `issues`.
 *
 * @example
 * ```ts
 * throw new ValidationError([{ path: 'name', message: 'must be a string' }]);
 * ```
 */
export class ValidationError extends RearviewError {
  readonly issues: readonly Issue[];

  constructor(
    issues: readonly Issue[],
    options: RearviewErrorOptions & { code?: string; subject?: string } = {},
  ) {
    const { code = 'validation_failed', subject = 'Input', cause } = options;
    super(code, `${subject} is invalid: ${describeIssues(issues)}`, { cause });
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

/**
 * A configuration object was rejected; `issues` names every bad key.
 *
 * @example
 * ```ts
 * throw new ConfigError([{ path: 'reflection.backend', message: 'must be "rulebased" or "llm"' }]);
 * ```
 */
export class ConfigError extends ValidationError {
  constructor(issues: readonly Issue[], options: RearviewErrorOptions = {}) {
    super(issues, { ...options, code: 'config_invalid', subject: 'Config' });
    this.name = 'ConfigError';
  }
}

/**
 * A storage operation failed. `code` tells which way: `store_quota`, `store_corrupt`,
 * `store_unavailable`, `store_aborted`, `store_conflict`.
 *
 * @example
 * ```ts
 * throw new StoreError('store_unavailable', 'IndexedDB is not available in this browser');
 * ```
 */
export class StoreError extends RearviewError {
  readonly key: string | undefined;

  constructor(code: string, message: string, options: RearviewErrorOptions & { key?: string } = {}) {
    super(code, options.key === undefined ? message : `${message} (key ${options.key})`, options);
    this.name = 'StoreError';
    this.key = options.key;
  }
}

/**
 * A language-model call failed after its retries. `status` is the HTTP status when there was one.
 *
 * @example
 * ```ts
 * throw new LlmError('llm_rate_limited', 'Rate limited after 4 attempts', { status: 429, attempts: 4 });
 * ```
 */
export class LlmError extends RearviewError {
  readonly status: number | undefined;
  readonly attempts: number | undefined;
  /** The server's `retry-after` hint in milliseconds, when it gave one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: string,
    message: string,
    options: RearviewErrorOptions & { status?: number; attempts?: number; retryAfterMs?: number } = {},
  ) {
    super(code, message, options);
    this.retryAfterMs = options.retryAfterMs;
    this.name = 'LlmError';
    this.status = options.status;
    this.attempts = options.attempts;
  }
}

function describeIssues(issues: readonly Issue[]): string {
  if (issues.length === 0) return 'no details';
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

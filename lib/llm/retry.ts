import { describeError, LlmError } from '../core/index.js';
import { scrubSecrets } from './redacting.js';

/**
 * Retry policy for model calls (reference design: 3 retries, exponential backoff from 2 s
 * with jitter). All durations in milliseconds.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 3 (so at most 4 attempts). */
  maxRetries?: number;
  /** First backoff delay. Default 2000; then 4000, 8000, … */
  baseDelayMs?: number;
  /** Cap on one backoff delay. Default 32000. */
  maxDelayMs?: number;
  /** Random extra delay as a fraction of the backoff, in [0, 1]. Default 0.25. */
  jitter?: number;
  /** Longest `retry-after` the client will honour; a longer one ends the retries. Default 60000. */
  maxRetryAfterMs?: number;
  /** Injectable clock for tests: resolves after `ms` or rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable randomness for tests, returning [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Called before each retry wait, e.g. for logging. */
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
}

/**
 * Waits `ms` milliseconds; rejects at once with an `llm_aborted` error when `signal` fires.
 *
 * @example
 * ```ts
 * await abortableSleep(100, AbortSignal.timeout(50)); // rejects after 50 ms
 * ```
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error raised when a caller's signal cancels a request. */
export function abortError(signal: AbortSignal): LlmError {
  return new LlmError('llm_aborted', 'The request was aborted by the caller', { cause: signal.reason });
}

/**
 * Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date) into a delay.
 *
 * @example
 * ```ts
 * retryAfterMs({ get: (h) => (h === 'retry-after' ? '3' : null) }); // 3000
 * ```
 */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw == null) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0 && /^\s*[\d.]+\s*$/.test(raw)) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** Failures without an HTTP status that are worth another try. */
const RETRYABLE_CODES = new Set(['llm_connection', 'llm_timeout', 'llm_invalid_response']);

/**
 * True for HTTP status codes worth another try: 408 (timeout), 409 (conflict), 429 (rate limit) and
 * every 5xx (server error, overload).
 *
 * @example
 * ```ts
 * isRetryableStatus(429); // true
 * isRetryableStatus(503); // true
 * isRetryableStatus(400); // false
 * ```
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Runs `attempt` until it succeeds, a non-retryable error occurs, or the retries run out.
 * `attempt` must throw {@link LlmError}s (with `status` for HTTP errors and `retryAfterMs` when the
 * server sent one); anything else is treated as a connection failure and retried.
 *
 * @example
 * ```ts
 * const value = await withRetries((n) => callModel(n), { maxRetries: 3 }, signal);
 * ```
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy = {},
  signal?: AbortSignal,
): Promise<{ value: T; attempts: number }> {
  const {
    maxRetries = 3,
    baseDelayMs = 2000,
    maxDelayMs = 32000,
    jitter = 0.25,
    maxRetryAfterMs = 60000,
    sleep = abortableSleep,
    random = Math.random,
    onRetry,
  } = policy;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return { value: await attempt(n), attempts: n };
    } catch (raw) {
      if (signal?.aborted) throw abortError(signal);
      const error =
        raw instanceof LlmError
          ? raw
          : new LlmError('llm_connection', scrubSecrets(describeError(raw)), { cause: raw });
      const retryable = RETRYABLE_CODES.has(error.code) || isRetryableStatus(error.status ?? 0);
      if (!retryable || n > maxRetries) throw withAttempts(error, n);
      const hinted = error.retryAfterMs;
      if (hinted !== undefined && hinted > maxRetryAfterMs) throw withAttempts(error, n);
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
      const delayMs = hinted ?? Math.round(backoff * (1 + jitter * random()));
      onRetry?.({ attempt: n, delayMs, error });
      await sleep(delayMs, signal);
    }
  }
}

function withAttempts(error: LlmError, attempts: number): LlmError {
  if (error.attempts === attempts) return error;
  return new LlmError(
    error.code,
    `${error.message} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
    {
      cause: error.cause,
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      attempts,
    },
  );
}

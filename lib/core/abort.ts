/**
 * Bounding work the library does not control: a caller's model client may ignore the abort signal or
 * never answer. {@link withDeadline} settles as soon as the signal fires or the time runs out, whatever
 * the work does, so "abort stops" and "never hangs" hold even for custom clients.
 *
 * @module
 */
import { LlmError } from './errors.js';

/** Options of {@link withDeadline}. */
export interface DeadlineOptions {
  /** The caller's signal: when it fires, the returned promise rejects with `llm_aborted` at once. */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds before the returned promise rejects with `llm_timeout`, and the signal handed to the
   * work is aborted. Default: no time limit (`undefined`, `Infinity` or a non-positive number).
   */
  timeoutMs?: number | undefined;
  /** What is being waited for, for the error messages. Default `'The model call'`. */
  what?: string;
}

/**
 * Runs `work` with a signal that fires when the caller's `signal` fires or `timeoutMs` passes, and
 * settles no later than that moment: with `llm_aborted` (an {@link LlmError}) after an abort, with
 * `llm_timeout` after the time limit, else with what `work` settled with. A late result of `work` is
 * ignored (and its rejection swallowed), so nothing runs on behalf of an aborted call.
 *
 * @example
 * ```ts
 * const reply = await withDeadline((signal) => client.complete({ ...request, signal }), {
 *   signal: options.signal,
 *   timeoutMs: 60_000,
 * });
 * ```
 */
export function withDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions = {},
): Promise<T> {
  const { signal, timeoutMs } = options;
  const what = options.what ?? 'The model call';
  const inner = new AbortController();
  if (signal?.aborted) {
    inner.abort(signal.reason);
    return Promise.reject(aborted(what, signal));
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      if (settled) return;
      finish();
      const err = aborted(what, signal!);
      inner.abort(err);
      reject(err);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0) {
      timer = setTimeout(() => {
        if (settled) return;
        finish();
        const err = new LlmError('llm_timeout', `${what} did not finish within ${timeoutMs} ms`);
        inner.abort(err);
        reject(err);
      }, timeoutMs);
    }
    let running: Promise<T>;
    try {
      running = Promise.resolve(work(inner.signal));
    } catch (err) {
      finish();
      reject(err);
      return;
    }
    running.then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (err: unknown) => {
        if (settled) return;
        finish();
        reject(err);
      },
    );
  });
}

function aborted(what: string, signal: AbortSignal): LlmError {
  return new LlmError('llm_aborted', `${what} was aborted by the caller`, { cause: signal.reason });
}

/**
 * Quarantine: a record that fails validation is moved to `quarantine:{key}:{time}-{seq}` with the
 * error, never silently dropped, and reported through `onCorrupt`.
 */
import * as v from 'valibot';
import { StoreError, ValidationError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';

/** The quarantine helpers of one PlaybookStore. */
export interface Quarantine {
  /** A `store_corrupt` error about the record under `key`. */
  corrupt(key: string, message: string, cause?: unknown): StoreError;
  /** Where a bad value of `key` goes: unique per call, so nothing quarantined is ever overwritten. */
  keyFor(key: string): string;
  /** What is written under {@link Quarantine.keyFor}. */
  record(key: string, value: unknown, error: StoreError): unknown;
  /** Hands every error to `onCorrupt`. */
  report(errors: readonly StoreError[]): void;
  /** Moves `raw` away from `key` (replacing it with `replacement`, or deleting it) if it is still there. */
  move(key: string, raw: unknown, error: StoreError, replacement?: unknown): Promise<void>;
}

export function createQuarantine(
  kv: KeyValueStore,
  nowIso: () => string,
  onCorrupt: ((error: StoreError) => void) | undefined,
): Quarantine {
  let seq = 0;
  const keyFor = (key: string) => `quarantine:${key}:${nowIso()}-${String(++seq).padStart(4, '0')}`;
  const record = (key: string, value: unknown, error: StoreError) => ({
    key,
    at: nowIso(),
    error: { code: error.code, message: error.message },
    value,
  });
  return {
    corrupt: (key, message, cause) =>
      new StoreError('store_corrupt', message, { key, ...(cause !== undefined ? { cause } : {}) }),
    keyFor,
    record,
    report(errors) {
      for (const e of errors) onCorrupt?.(e);
    },
    async move(key, raw, error, replacement) {
      const rawJson = JSON.stringify(raw);
      await kv.transact([key], ([current]) => {
        if (JSON.stringify(current) !== rawJson) return { result: undefined };
        return {
          writes: [
            [keyFor(key), record(key, raw, error)],
            ...(replacement !== undefined ? [[key, replacement] as const] : []),
          ],
          deletes: replacement === undefined ? [key] : [],
          result: undefined,
        };
      });
    },
  };
}

/** valibot issues as `path: message; …` for store_corrupt messages. */
export function issuesOf(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ');
}

/** valibot issues as a located {@link ValidationError} about `subject`. */
export function validationFrom(issues: readonly v.BaseIssue<unknown>[], subject: string): ValidationError {
  return new ValidationError(
    issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })),
    { subject },
  );
}

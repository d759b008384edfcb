/** withDeadline: settles on abort or timeout even when the work ignores its signal. */
import { isRearviewError, withDeadline } from 'rearview/core';
import { describe, expect, it } from 'vitest';

const never = () => new Promise<never>(() => {});

describe('withDeadline', () => {
  it('passes through the result of work that finishes in time', async () => {
    await expect(withDeadline(async () => 42, { timeoutMs: 1000 })).resolves.toBe(42);
  });

  it('rejects at once with llm_aborted when the signal fires, even if the work ignores it', async () => {
    const controller = new AbortController();
    const pending = withDeadline(never, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    // The work never settles, so settling at all means the abort settled it (no clock needed).
    const err = await pending.catch((e: unknown) => e);
    expect(isRearviewError(err) && err.code).toBe('llm_aborted');
  });

  it('rejects with llm_timeout after timeoutMs and aborts the signal given to the work', async () => {
    let seen: AbortSignal | undefined;
    const err = await withDeadline(
      (signal) => {
        seen = signal;
        return never();
      },
      { timeoutMs: 10, what: 'The Curator' },
    ).catch((e: unknown) => e);
    expect(isRearviewError(err) && err.code).toBe('llm_timeout');
    expect((err as Error).message).toBe('The Curator did not finish within 10 ms');
    expect(seen?.aborted).toBe(true);
  });

  it('rejects before calling the work when the signal has already fired', async () => {
    let called = false;
    const err = await withDeadline(
      async () => {
        called = true;
      },
      { signal: AbortSignal.abort() },
    ).catch((e: unknown) => e);
    expect(isRearviewError(err) && err.code).toBe('llm_aborted');
    expect(called).toBe(false);
  });

  it('turns a synchronous throw of the work into a rejection', async () => {
    await expect(
      withDeadline(() => {
        throw new TypeError('boom');
      }),
    ).rejects.toThrow('boom');
  });

  it('ignores what the work does after the deadline: a late result or a late rejection changes nothing', async () => {
    let finishLate: (v: string) => void = () => {};
    let failLate: (e: Error) => void = () => {};
    const late = withDeadline(
      () =>
        new Promise<string>((resolve) => {
          finishLate = resolve;
        }),
      { timeoutMs: 5 },
    );
    const lateError = withDeadline(
      () =>
        new Promise<string>((_, reject) => {
          failLate = reject;
        }),
      { timeoutMs: 5 },
    );
    const first = await late.catch((e: unknown) => e);
    const second = await lateError.catch((e: unknown) => e);
    finishLate('too late');
    failLate(new Error('too late'));
    await new Promise((r) => setTimeout(r, 10));
    expect(isRearviewError(first) && first.code).toBe('llm_timeout');
    expect(isRearviewError(second) && second.code).toBe('llm_timeout');
    // The settled promises keep their first outcome.
    await expect(late).rejects.toBe(first);
    await expect(lateError).rejects.toBe(second);
  });
});

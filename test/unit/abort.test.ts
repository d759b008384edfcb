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
});

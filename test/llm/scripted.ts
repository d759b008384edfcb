/**
 * Test doubles shared by the suites that drive rearview with a model: a scripted `LlmClient` and a
 * helper that expects a rejection with a rearview error.
 */
import { isRearviewError, type LlmError } from 'rearview/core';
import type { LlmClient, LlmRequest } from 'rearview/llm';
import { expect } from 'vitest';

/**
 * A scripted model: answers each request with the next reply (the last one again once they run out;
 * an `Error` is thrown instead) and records the requests.
 */
export function scriptedLlm(replies: readonly (string | Error)[]): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  let i = 0;
  return {
    requests,
    async complete(req) {
      requests.push(req);
      const r = replies[Math.min(i++, replies.length - 1)]!;
      if (r instanceof Error) throw r;
      return { text: r, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, model: 'scripted' };
    },
  };
}

/** The rearview error `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function rejectionOf(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (err) {
    expect(isRearviewError(err)).toBe(true);
    return err as LlmError;
  }
  throw new Error('expected a rejection');
}

/** Minimal assertions for the conformance suite: it runs where vitest's `expect` does not exist. */
export class CheckFailure extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

export function checkEqual(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new CheckFailure(`${what}: expected ${e}, got ${a}`);
}

export async function checkRejects(fn: () => unknown, code: string, what: string): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const got = (err as { code?: unknown }).code;
    if (got !== code) throw new CheckFailure(`${what}: expected error code ${code}, got ${String(got)}`);
    return;
  }
  throw new CheckFailure(`${what}: expected an error with code ${code}, none was thrown`);
}

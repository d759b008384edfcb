/**
 * Vitest wiring for the local Messages API server: one server per test file, reset before each test.
 * Returns a handle that always points at the live server.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from './mock-anthropic';

export function useMockAnthropic(): MockAnthropic {
  let current: MockAnthropic | undefined;
  beforeAll(async () => {
    current = await startMockAnthropic();
  });
  afterAll(() => current?.close());
  beforeEach(() => current?.reset());
  return new Proxy({} as MockAnthropic, {
    get(_, key) {
      if (!current) throw new Error('the mock Messages API server is not started yet (use it inside tests)');
      const value = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

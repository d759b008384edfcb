/** The KeyValueStore contract as vitest tests (Node and the browser project). */
import type { KeyValueStore } from 'rearview/kv';
import { describe, it } from 'vitest';
import { keyValueStoreContract } from './contract';

/**
 * Registers every contract case for one store implementation.
 *
 * @example
 * ```ts
 * runKeyValueStoreContract('memoryStore', () => memoryStore());
 * ```
 */
export function runKeyValueStoreContract(
  name: string,
  makeStore: () => KeyValueStore | Promise<KeyValueStore>,
): void {
  describe(`KeyValueStore contract: ${name}`, () => {
    for (const c of keyValueStoreContract) {
      it(c.name, async () => {
        await c.run(await makeStore());
      });
    }
  });
}

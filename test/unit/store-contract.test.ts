// The shared KeyValueStore contract in Node: memoryStore, idbStore on fake-indexeddb, and
// workersKvStore on an in-process KV double (the real binding runs in test/runtime/store-workerd.test.ts).
import { IDBFactory } from 'fake-indexeddb';
import { idbStore, memoryStore, workersKvStore } from 'rearview/kv';
import { runKeyValueStoreContract } from '../store/vitest-contract';
import { fakeKvNamespace } from './store-helpers';

runKeyValueStoreContract('memoryStore', () => memoryStore());

let n = 0;
runKeyValueStoreContract('idbStore on fake-indexeddb', () =>
  idbStore(`contract-${++n}`, 'kv', { indexedDB: new IDBFactory() }),
);

runKeyValueStoreContract('workersKvStore on a KV double', () => workersKvStore(fakeKvNamespace()));

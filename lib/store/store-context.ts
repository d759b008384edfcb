/**
 * The state one PlaybookStore shares between its per-concern modules (reading, content writes,
 * tags, history, transfer): options with their defaults, clock, replica id, caches, notifier and
 * quarantine. Built once per `playbookStore(...)` call.
 */
import type { KeyValueStore } from '../kv/index.js';
import { createNotifier, type Notifier } from './store-notify.js';
import { createQuarantine, type Quarantine } from './store-quarantine.js';
import { createReplicaGuard, type ReplicaGuard } from './store-replica.js';
import type { PlaybookStoreOptions } from './store-types.js';

/** Names of the key points of a playbook at a content version (what applyTags checks tags against). */
export interface NamesEntry {
  version: number;
  names: Set<string>;
}

/** Shared internals of one PlaybookStore. */
export interface StoreContext {
  readonly kv: KeyValueStore;
  readonly options: PlaybookStoreOptions;
  readonly maxVersions: number;
  readonly maxTagEvents: number;
  readonly shards: number;
  /** Per playbook id; dropped whenever the content may have changed. */
  readonly namesCache: Map<string, NamesEntry>;
  readonly notifier: Notifier;
  readonly quarantine: Quarantine;
  /** Detects another concurrent writer using this store's replica id (stores without transactions). */
  readonly replicaGuard: ReplicaGuard;
  nowIso(): string;
  warn(message: string): void;
  replicaId(): Promise<string>;
  actor(): Promise<string>;
}

export function createContext(kv: KeyValueStore, options: PlaybookStoreOptions): StoreContext {
  const namesCache = new Map<string, NamesEntry>();
  let replica: Promise<string> | undefined;
  const nowIso = (): string => {
    const t = options.now ? options.now() : new Date();
    return typeof t === 'string' ? t : new Date(t).toISOString();
  };
  const warn = (message: string) => (options.onWarning ?? ((m: string) => console.warn(m)))(message);
  const replicaId = (): Promise<string> => {
    replica ??= (async () => {
      if (options.replicaId) return options.replicaId;
      if (kv.scope !== 'shared') return crypto.randomUUID();
      return kv.update<string>('meta:replica', (cur) =>
        typeof cur === 'string' && cur ? cur : crypto.randomUUID(),
      );
    })().catch((err) => {
      replica = undefined;
      throw err;
    });
    return replica;
  };
  return {
    kv,
    options,
    maxVersions: Math.max(1, options.maxVersions ?? 50),
    maxTagEvents: Math.max(0, options.maxTagEvents ?? 100),
    shards: Math.max(1, Math.min(256, Math.floor(options.counterShards ?? 32))),
    namesCache,
    notifier: createNotifier(options.broadcast, (id) => namesCache.delete(id), warn),
    quarantine: createQuarantine(kv, nowIso, options.onCorrupt),
    // Only a chosen id can be shared by mistake: a default id is random (or one per shared store).
    replicaGuard: createReplicaGuard(kv.scope !== 'shared' && Boolean(options.replicaId)),
    nowIso,
    warn,
    replicaId,
    actor: async () => options.actor ?? (await replicaId()),
  };
}

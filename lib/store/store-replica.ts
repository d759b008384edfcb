/**
 * Detecting a replica id shared by two concurrent writers on a store without transactions (Workers
 * KV). There each writer must own its counter slot alone: two writers with one id overwrite each
 * other's read-modify-writes, and increments vanish without a trace.
 *
 * Every counter record this writer writes carries a lineage: `seq` (writes of this record so far)
 * and `writers` (instance nonce → the `seq` of that instance's last write). Each PlaybookStore object
 * draws a random nonce and remembers the `seq` it last wrote per key. If a record later shows another
 * `seq` for our nonce, someone wrote it without having seen our write: our increments were lost, or
 * theirs. That is checked right after each write (read-back) and before the next one, and raised as
 * `store_replica_conflict`. KV has no compare-and-set, so a loss in the window between our read-back
 * and another writer's overwrite is only seen at our next write: detection, not prevention.
 */
import { StoreError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import type { CounterRecord } from './playbook-schema.js';
import { dict, own } from './store-keys.js';

/** How many writers' marks a record keeps; older marks are dropped (they can no longer be checked). */
const MAX_WRITERS = 16;

/** A counter record with its lineage (only on guarded stores). */
export type GuardedRecord = CounterRecord & { seq?: number; writers?: Record<string, number> };

/** Lineage checks of one PlaybookStore (all no-ops when the store is not guarded). */
export interface ReplicaGuard {
  readonly active: boolean;
  /**
   * `next` stamped with this writer's mark, for writing under `key` whose stored value is `current`.
   * Throws `store_replica_conflict` when `current` shows our previous write of `key` was overwritten.
   * Call {@link ReplicaGuard.committed} with the returned pending marks once the write is applied.
   */
  stamp(key: string, current: unknown, next: CounterRecord, pending: Map<string, number>): CounterRecord;
  /** Records the marks of a write that was applied. */
  committed(pending: ReadonlyMap<string, number>): void;
  /** Reads the written keys back; throws `store_replica_conflict` when another writer overwrote one. */
  verify(kv: KeyValueStore, pending: ReadonlyMap<string, number>, replica: string): Promise<void>;
  /** `next` with the lineage of `current` carried over (writes that merge, not increment). */
  carry(current: unknown, next: CounterRecord): CounterRecord;
}

const isSeq = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function lineageOf(raw: unknown): { seq: number; writers: Record<string, number> } | undefined {
  const r = raw as GuardedRecord | null | undefined;
  if (typeof r !== 'object' || r === null || !isSeq(r.seq)) return undefined;
  if (typeof r.writers !== 'object' || r.writers === null || Array.isArray(r.writers)) return undefined;
  const writers = dict<number>();
  for (const k of Object.keys(r.writers)) {
    const n = r.writers[k];
    if (isSeq(n)) writers[k] = n;
  }
  return { seq: r.seq, writers };
}

/**
 * The error for a replica id used by two writers at once.
 *
 * @example
 * ```ts
 * throw replicaConflict('colo-a', 'pb:default:c:colo-a:00');
 * ```
 */
export function replicaConflict(replica: string, key: string): StoreError {
  return new StoreError(
    'store_replica_conflict',
    `Replica id ${JSON.stringify(replica)} is used by two writers at once: counter record ${key} was ` +
      'overwritten by another PlaybookStore with the same replica id, so increments may have been lost. ' +
      'A replica id must be unique per concurrent writer (on Workers KV, leave replicaId out to get a ' +
      'fresh one per store object).',
    { key },
  );
}

export function createReplicaGuard(active: boolean): ReplicaGuard {
  const nonce = active ? crypto.randomUUID() : '';
  /** The `seq` of our last applied write, per key. */
  const written = new Map<string, number>();

  /**
   * True when `raw` no longer descends from our write number `mine` of it. A higher mark of ours is
   * fine: our own later write (calls of one object may overlap), which includes the earlier one.
   */
  const overwritten = (raw: unknown, mine: number | undefined): boolean => {
    const lineage = lineageOf(raw);
    // No lineage (new, quarantined or pre-lineage record): nothing to check against.
    if (mine === undefined || lineage === undefined) return false;
    return (own(lineage.writers, nonce) ?? -1) < mine;
  };

  return {
    active,
    stamp(key, current, next, pending) {
      if (!active) return next;
      if (overwritten(current, written.get(key))) {
        // Reported once: our next write joins the lineage as it now is.
        written.delete(key);
        throw replicaConflict(next.replica, key);
      }
      const found = lineageOf(current);
      // A record without lineage (new, or a corrupt one set aside) starts a new one.
      if (!found) written.delete(key);
      const lineage = found ?? { seq: 0, writers: dict<number>() };
      const seq = lineage.seq + 1;
      const marks = Object.entries(lineage.writers).filter(([k]) => k !== nonce);
      marks.push([nonce, seq]);
      marks.sort((a, b) => a[1] - b[1]);
      const writers = dict<number>();
      for (const [k, n] of marks.slice(-MAX_WRITERS)) writers[k] = n;
      pending.set(key, seq);
      return { ...next, seq, writers } as GuardedRecord;
    },
    committed(pending) {
      for (const [k, seq] of pending) written.set(k, Math.max(written.get(k) ?? 0, seq));
    },
    async verify(kv, pending, replica) {
      if (!active || pending.size === 0) return;
      const keys = [...pending.keys()];
      const values = await kv.getMany(keys);
      keys.forEach((key, i) => {
        if (!overwritten(values[i], pending.get(key))) return;
        written.delete(key);
        throw replicaConflict(replica, key);
      });
    },
    carry(current, next) {
      const lineage = active ? lineageOf(current) : undefined;
      return lineage ? ({ ...next, ...lineage } as GuardedRecord) : next;
    },
  };
}

/**
 * G-counters: per key point, per counter, one slot per replica; merge is the per-slot maximum and
 * the value is the sum of the slots. Pure functions; no storage here. Every lookup keyed by a name or
 * replica id goes through own entries only, so an id such as `constructor` or `__proto__` is data.
 */
import type { CounterRecord } from './playbook-schema.js';
import { dict, own } from './store-keys.js';

/** G-counters of a playbook: per key point, per counter, per replica, the count that replica made. */
export type GCounters = Record<string, { helpful: Record<string, number>; harmful: Record<string, number> }>;

/**
 * Turns per-replica counter records into the {@link GCounters} map.
 *
 * @example
 * ```ts
 * countersFromRecords([{ replica: 'a', counts: { 'pat-001': { helpful: 2, harmful: 0 } } }]);
 * // { 'pat-001': { helpful: { a: 2 }, harmful: {} } }
 * ```
 */
export function countersFromRecords(records: readonly CounterRecord[]): GCounters {
  const out: GCounters = dict();
  for (const r of records) {
    for (const [name, c] of Object.entries(r.counts)) {
      const slot = own(out, name) ?? { helpful: dict<number>(), harmful: dict<number>() };
      out[name] = slot;
      if (c.helpful) slot.helpful[r.replica] = Math.max(own(slot.helpful, r.replica) ?? 0, c.helpful);
      if (c.harmful) slot.harmful[r.replica] = Math.max(own(slot.harmful, r.replica) ?? 0, c.harmful);
    }
  }
  return out;
}

/**
 * Splits {@link GCounters} back into one record per replica.
 *
 * @example
 * ```ts
 * recordsFromCounters({ 'pat-001': { helpful: { a: 2 }, harmful: {} } });
 * // [{ replica: 'a', counts: { 'pat-001': { helpful: 2, harmful: 0 } } }]
 * ```
 */
export function recordsFromCounters(counters: GCounters): CounterRecord[] {
  const byReplica = new Map<string, CounterRecord>();
  const slot = (r: string) => {
    let rec = byReplica.get(r);
    if (!rec) {
      rec = { replica: r, counts: dict() };
      byReplica.set(r, rec);
    }
    return rec;
  };
  for (const [name, c] of Object.entries(counters)) {
    for (const field of ['helpful', 'harmful'] as const) {
      for (const [r, n] of Object.entries(c[field])) {
        const counts = slot(r).counts;
        const count = own(counts, name) ?? { helpful: 0, harmful: 0 };
        count[field] = n;
        counts[name] = count;
      }
    }
  }
  return [...byReplica.values()].sort((a, b) => (a.replica < b.replica ? -1 : 1));
}

/**
 * Merges two G-counter maps: the per-replica maximum of every slot. Commutative, associative and
 * idempotent, so replicas converge to the same counts whatever the order of syncs.
 *
 * @example
 * ```ts
 * mergeCounters({ k: { helpful: { a: 2 }, harmful: {} } }, { k: { helpful: { a: 1, b: 3 }, harmful: {} } });
 * // { k: { helpful: { a: 2, b: 3 }, harmful: {} } }
 * ```
 */
export function mergeCounters(a: GCounters, b: GCounters): GCounters {
  const out: GCounters = dict();
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const x = own(a, name);
    const y = own(b, name);
    out[name] = { helpful: maxSlots(x?.helpful, y?.helpful), harmful: maxSlots(x?.harmful, y?.harmful) };
  }
  return out;
}

function maxSlots(a: Record<string, number> = {}, b: Record<string, number> = {}): Record<string, number> {
  const out = dict<number>();
  for (const r of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    out[r] = Math.max(own(a, r) ?? 0, own(b, r) ?? 0);
  }
  return out;
}

/** Sum of every replica's slot: the value of a G-counter. */
export function sumSlots(slots: Record<string, number> | undefined): number {
  let n = 0;
  if (slots) for (const r of Object.keys(slots)) n += slots[r]!;
  return n;
}

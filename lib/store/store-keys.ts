/**
 * The key layout of a stored playbook (see lib/store/README.md) and the sharding of counter records.
 * Ids and replica ids are URI-encoded so that no user-chosen id can reach into another's keys.
 */
import { FNV_OFFSET, FNV_PRIME } from '../core/index.js';
import type { CounterRecord } from './playbook-schema.js';

const enc = encodeURIComponent;

/** `pb:{id}:` — every key of playbook `id` starts with it. */
export const playbookPrefix = (id: string): string => `pb:${enc(id)}:`;
export const docKey = (id: string): string => `${playbookPrefix(id)}doc`;
export const headKey = (id: string): string => `${playbookPrefix(id)}head`;
export const versionPrefix = (id: string): string => `${playbookPrefix(id)}v:`;
export const versionKey = (id: string, n: number): string =>
  `${versionPrefix(id)}${String(n).padStart(10, '0')}`;
export const counterPrefix = (id: string): string => `${playbookPrefix(id)}c:`;
/** Counter records are sharded by key point name so that applyTags reads and writes small records. */
export const counterKey = (id: string, replica: string, shard: number): string =>
  `${counterPrefix(id)}${enc(replica)}:${shard.toString(16).padStart(2, '0')}`;
export const tagPrefix = (id: string): string => `${playbookPrefix(id)}t:`;
export const tagKey = (id: string, replica: string): string => `${tagPrefix(id)}${enc(replica)}`;

/** Every shard key of one replica's counters. */
export function allShards(id: string, replica: string, shards: number): string[] {
  return Array.from({ length: shards }, (_, i) => counterKey(id, replica, i));
}

/** FNV-1a of the name, modulo the shard count: which counter record holds a key point. */
export function shardOf(name: string, shards: number): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return (h >>> 0) % shards;
}

/** Splits one replica's counts into its shard records. */
export function splitRecord(record: CounterRecord, shards: number): Map<number, CounterRecord> {
  const out = new Map<number, CounterRecord>();
  for (const [name, c] of Object.entries(record.counts)) {
    const shard = shardOf(name, shards);
    let r = out.get(shard);
    if (!r) {
      r = { replica: record.replica, counts: dict() };
      out.set(shard, r);
    }
    r.counts[name] = c;
  }
  return out;
}

/**
 * An empty record for user-chosen keys (key point names, replica ids): without a prototype,
 * `constructor` or `__proto__` are plain entries instead of inherited members or a prototype setter.
 */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `record[key]` only when it is the record's own entry, never an inherited member. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A {@link dict} copy of `record` (own entries only; `__proto__` stays data). */
export function dictOf<T>(record: Readonly<Record<string, T>> | undefined): Record<string, T> {
  const out = dict<T>();
  if (record) for (const k of Object.keys(record)) out[k] = record[k]!;
  return out;
}

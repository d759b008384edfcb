/**
 * Counter records: the per-replica G-counter slots, checked and merged. A slot only ever grows.
 */
import { SECTION_NAMES } from '../playbook/index.js';
import type { GCounters } from './playbook-gcounters.js';
import type { ContentDoc, CounterRecord } from './playbook-schema.js';
import type { StoreContext } from './store-context.js';
import { counterKey, dict, own, splitRecord } from './store-keys.js';

/** Key points in a document. */
export function sizeOf(doc: ContentDoc): number {
  let n = 0;
  for (const s of SECTION_NAMES) n += doc.sections[s].length;
  return n;
}

/** `raw` when it is a valid record, else an empty slot of `replica`. */
export function validRecord(raw: unknown, replica: string): CounterRecord {
  return isCounterRecord(raw) ? (raw as CounterRecord) : { replica, counts: dict() };
}

const isCount = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * {@link CounterRecordSchema}, hand-written for the applyTags hot path: a record holds one entry per
 * tagged key point and valibot's generic walk costs more than the transaction on large ones. Same
 * answers (a property test in test/unit/store-integrity.test.ts holds them together), but stricter on
 * two points: `counts` given as an array is refused, where valibot's record accepts its indices; and
 * the counts under `__proto__`, `prototype` and `constructor` are checked like any other, where
 * valibot's record skips those names (found by `npm run fuzz`). The store reads counter records with
 * this check everywhere, so one definition holds.
 */
export function isCounterRecord(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const r = raw as { replica?: unknown; counts?: unknown };
  if (
    typeof r.replica !== 'string' ||
    typeof r.counts !== 'object' ||
    r.counts === null ||
    Array.isArray(r.counts)
  ) {
    return false;
  }
  const counts = r.counts as Record<string, { helpful?: unknown; harmful?: unknown } | null>;
  for (const k of Object.keys(counts)) {
    const c = counts[k];
    if (typeof c !== 'object' || c === null || !isCount(c.helpful) || !isCount(c.harmful)) return false;
  }
  return true;
}

/** Per-name, per-field maximum of two slots of the same replica. */
export function maxRecord(a: CounterRecord | undefined, b: CounterRecord): CounterRecord {
  const counts = dict<CounterRecord['counts'][string]>();
  const names = [...new Set([...Object.keys(a?.counts ?? {}), ...Object.keys(b.counts)])].sort();
  for (const n of names) {
    const x = own(a?.counts, n);
    const y = own(b.counts, n);
    counts[n] = {
      helpful: Math.max(x?.helpful ?? 0, y?.helpful ?? 0),
      harmful: Math.max(x?.harmful ?? 0, y?.harmful ?? 0),
    };
  }
  return { replica: b.replica, counts };
}

/** Raises every replica slot to at least `counters` (per-slot maximum); writes only what grows. */
export async function mergeCounterRecords(
  ctx: StoreContext,
  id: string,
  counters: GCounters,
): Promise<boolean> {
  const incoming = new Map<string, CounterRecord>();
  for (const [name, c] of Object.entries(counters)) {
    for (const field of ['helpful', 'harmful'] as const) {
      for (const [r, n] of Object.entries(c[field])) {
        let rec = incoming.get(r);
        if (!rec) {
          rec = { replica: r, counts: dict() };
          incoming.set(r, rec);
        }
        const count = own(rec.counts, name) ?? { helpful: 0, harmful: 0 };
        count[field] = n;
        rec.counts[name] = count;
      }
    }
  }
  if (!incoming.size) return false;
  const parts: { key: string; replica: string; record: CounterRecord }[] = [];
  for (const r of [...incoming.keys()].sort()) {
    for (const [shard, record] of splitRecord(incoming.get(r)!, ctx.shards)) {
      parts.push({ key: counterKey(id, r, shard), replica: r, record });
    }
  }
  parts.sort((a, b) => (a.key < b.key ? -1 : 1));
  return ctx.kv.transact(
    parts.map((p) => p.key),
    (values) => {
      const writes: (readonly [string, unknown])[] = [];
      parts.forEach((p, i) => {
        const prev = validRecord(values[i], p.replica);
        const next = maxRecord(prev, p.record);
        if (JSON.stringify(next.counts) !== JSON.stringify(maxRecord(prev, prev).counts)) {
          // A merge adds no increment of its own: the slot keeps its writer's lineage.
          writes.push([p.key, ctx.replicaGuard.carry(values[i], next)]);
        }
      });
      return { writes, result: writes.length > 0 };
    },
  );
}

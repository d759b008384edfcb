import * as v from 'valibot';
import { StoreError, ValidationError } from '../core/index.js';
import type { KeyValueStore } from './types.js';

/** One stored memory entry: the caller's value wrapped with an id, a sequence number and a time. */
export interface StoredEntry<T> {
  /** Stable id: the sequence number, zero-padded (`000000000001`). */
  id: string;
  /** Append order within the namespace, from 1. */
  seq: number;
  /** When it was appended (ISO 8601). */
  at: string;
  value: T;
}

/** Options of {@link memoryEntryStore}. */
export interface MemoryEntryStoreOptions<T> {
  /** Separates logs in one key-value store (e.g. `notes`, `reflection:agent-1`). */
  namespace: string;
  /** valibot schema every value must pass, on write and on read. Default: any JSON value. */
  schema?: v.GenericSchema<unknown, T>;
  /** Most entries kept; appending beyond evicts the oldest first. Default 1000. */
  maxEntries?: number;
  /** Clock for `at` (ISO string, Date or epoch ms). Default: the current time. */
  now?: () => string | number | Date;
  /** Called with each corrupt entry found (code `store_corrupt`) after it has been quarantined. */
  onCorrupt?: (error: StoreError) => void;
}

/** Options of {@link MemoryEntryStore.list} and {@link MemoryEntryStore.query}. */
export interface ListOptions {
  /** At most this many entries. */
  limit?: number;
  /** `oldest` first (default) or `newest` first. */
  order?: 'oldest' | 'newest';
  /** Only entries with `seq` greater than this. */
  after?: number;
}

/** An append-only, bounded log of validated memory entries in a {@link KeyValueStore}. */
export interface MemoryEntryStore<T> {
  /** Appends one value or a batch in ONE transaction; validates all first (nothing is written on error). */
  append(values: T | readonly T[]): Promise<StoredEntry<T>[]>;
  /** Entries in append order; corrupt ones are quarantined and reported, the others returned. */
  list(options?: ListOptions): Promise<StoredEntry<T>[]>;
  /** Entries whose value passes `filter`. */
  query(
    filter: (value: T, entry: StoredEntry<T>) => boolean,
    options?: ListOptions,
  ): Promise<StoredEntry<T>[]>;
  /** One entry by id. */
  get(id: string): Promise<StoredEntry<T> | undefined>;
  /** Removes entries by id; returns how many existed. */
  delete(ids: string | readonly string[]): Promise<number>;
  /** Removes every entry of the namespace. */
  clear(): Promise<void>;
  /** Number of stored entries. */
  count(): Promise<number>;
}

const MEMORY_SCHEMA = 1;
const Int = v.pipe(v.number(), v.integer(), v.minValue(0));
const EnvelopeSchema = v.object({
  schema: v.literal(MEMORY_SCHEMA),
  id: v.string(),
  seq: Int,
  at: v.string(),
  value: v.unknown(),
});
const HeadSchema = v.object({ schema: v.literal(MEMORY_SCHEMA), next: Int, first: Int });
type Head = v.InferOutput<typeof HeadSchema>;

/**
 * A {@link MemoryEntryStore}: an append-only, bounded log of validated values, schema-agnostic (pass
 * the valibot schema of your entries). Layout: `mem:{ns}:head` holds the next sequence number and the oldest retained one; each entry lives
 * at `mem:{ns}:e:{seq}` inside a versioned envelope (`schema: 1`). Appends are one transaction (atomic
 * across tabs in IndexedDB); when more than `maxEntries` are stored the oldest are deleted in that same
 * transaction. An entry that fails validation on read is moved to `quarantine:{key}:{time}` and
 * reported, never dropped silently; the others still load.
 *
 * @example
 * ```ts
 * const notes = memoryEntryStore(memoryStore(), { namespace: 'notes', schema: v.object({ text: v.string() }) });
 * await notes.append([{ text: 'parser handles CRLF' }, { text: 'release on Friday' }]);
 * const recent = await notes.query((n) => n.text.includes('parser'), { limit: 3, order: 'newest' });
 * ```
 */
export function memoryEntryStore<T = unknown>(
  kv: KeyValueStore,
  options: MemoryEntryStoreOptions<T>,
): MemoryEntryStore<T> {
  const ns = encodeURIComponent(options.namespace);
  const headKey = `mem:${ns}:head`;
  const prefix = `mem:${ns}:e:`;
  const keyOf = (seq: number) => `${prefix}${String(seq).padStart(12, '0')}`;
  const max = Math.max(1, options.maxEntries ?? 1000);
  const schema = options.schema ?? (v.unknown() as unknown as v.GenericSchema<unknown, T>);
  let seq = 0;
  const nowIso = () => {
    const t = options.now ? options.now() : new Date();
    return typeof t === 'string' ? t : new Date(t).toISOString();
  };

  const readAll = async (): Promise<StoredEntry<T>[]> => {
    const keys = await kv.keys(prefix);
    const values = await kv.getMany(keys);
    const out: StoredEntry<T>[] = [];
    for (let i = 0; i < keys.length; i++) {
      const entry = check(values[i]);
      if (entry) out.push(entry);
      else await quarantine(keys[i]!, values[i]);
    }
    return out.sort((a, b) => a.seq - b.seq);
  };

  const check = (raw: unknown): StoredEntry<T> | undefined => {
    const env = v.safeParse(EnvelopeSchema, raw);
    if (!env.success) return undefined;
    const value = v.safeParse(schema, env.output.value);
    if (!value.success) return undefined;
    return { id: env.output.id, seq: env.output.seq, at: env.output.at, value: value.output };
  };

  const quarantine = async (key: string, raw: unknown) => {
    const env = v.safeParse(EnvelopeSchema, raw);
    const issues = env.success ? v.safeParse(schema, env.output.value).issues : env.issues;
    const detail = (issues ?? []).map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ');
    const error = new StoreError('store_corrupt', `Memory entry is invalid: ${detail}`, { key });
    const rawJson = JSON.stringify(raw);
    await kv.transact([key], ([current]) => {
      if (JSON.stringify(current) !== rawJson) return { result: undefined };
      return {
        writes: [
          [
            `quarantine:${key}:${nowIso()}-${String(++seq).padStart(4, '0')}`,
            { key, at: nowIso(), error: { code: error.code, message: error.message }, value: raw },
          ],
        ],
        deletes: [key],
        result: undefined,
      };
    });
    options.onCorrupt?.(error);
  };

  const select = (entries: StoredEntry<T>[], o: ListOptions = {}) => {
    let out = o.after !== undefined ? entries.filter((e) => e.seq > o.after!) : entries;
    if (o.order === 'newest') out = [...out].reverse();
    return o.limit !== undefined ? out.slice(0, Math.max(0, o.limit)) : out;
  };

  return {
    async append(values) {
      const list = (Array.isArray(values) ? values : [values]) as readonly T[];
      const issues = list.flatMap((value, index) => {
        const r = v.safeParse(schema, value);
        return r.success ? [] : r.issues.map((i) => ({ path: `[${index}]${pathOf(i)}`, message: i.message }));
      });
      if (issues.length) throw new ValidationError(issues, { subject: 'Memory entry' });
      if (!list.length) return [];
      const at = nowIso();
      return kv.transact([headKey], ([rawHead]) => {
        const head: Head = v.safeParse(HeadSchema, rawHead).success
          ? (rawHead as Head)
          : { schema: MEMORY_SCHEMA, next: 1, first: 1 };
        const entries = list.map((value, i) => {
          const s = head.next + i;
          return { schema: MEMORY_SCHEMA, id: String(s).padStart(12, '0'), seq: s, at, value };
        });
        const next = head.next + list.length;
        const first = Math.max(head.first, next - max);
        const deletes: string[] = [];
        for (let s = head.first; s < first; s++) deletes.push(keyOf(s));
        return {
          writes: [
            ...entries.filter((e) => e.seq >= first).map((e) => [keyOf(e.seq), e] as const),
            [headKey, { schema: MEMORY_SCHEMA, next, first }],
          ],
          deletes,
          result: entries.filter((e) => e.seq >= first).map(({ schema: _s, ...e }) => e as StoredEntry<T>),
        };
      });
    },
    async list(o) {
      return select(await readAll(), o);
    },
    async query(filter, o) {
      return select(
        (await readAll()).filter((e) => filter(e.value, e)),
        o,
      );
    },
    async get(id) {
      const key = `${prefix}${id}`;
      const raw = await kv.get(key);
      if (raw === undefined) return undefined;
      const entry = check(raw);
      if (!entry) await quarantine(key, raw);
      return entry;
    },
    async delete(ids) {
      const keys = (typeof ids === 'string' ? [ids] : [...ids]).map((id) => `${prefix}${id}`);
      return kv.transact(keys, (values) => ({
        deletes: keys,
        result: values.filter((x) => x !== undefined).length,
      }));
    },
    async clear() {
      const keys = await kv.keys(prefix);
      await kv.deleteMany([...keys, headKey]);
    },
    async count() {
      return (await kv.keys(prefix)).length;
    },
  };
}

function pathOf(issue: v.BaseIssue<unknown>): string {
  const p = v.getDotPath(issue);
  return p ? `.${p}` : '';
}

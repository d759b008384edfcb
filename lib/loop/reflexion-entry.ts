/**
 * The reflexion memory record — a past mistake and its correction, keyed by the prompt's hash — and
 * its one valibot schema. {@link ReflexionMemory} persists it (inside {@link StoredEntrySchema}'s
 * document) and any bounded log can hold it (`memoryEntryStore(kv, { schema: ReflexionEntrySchema })`
 * from `rearview/kv`).
 */
import * as v from 'valibot';
import { sha256Hex } from '../core/index.js';

/** One remembered lesson. `timestamp` is in milliseconds since the epoch. */
export interface ReflexionEntry {
  /** SHA-256 (hex) of {@link normalizePrompt}(prompt). */
  promptHash: string;
  prompt: string;
  /** What went wrong. */
  mistake: string;
  /** How it was fixed. */
  correction: string;
  timestamp: number;
}

/** A retrieved entry with its similarity to the query in [0, 1]. */
export interface ReflexionMatch extends ReflexionEntry {
  similarity: number;
}

/** What {@link ReflexionMemory.store} takes: the hash and (by default) the timestamp are filled in. */
export interface ReflexionInput {
  prompt: string;
  mistake: string;
  correction: string;
  timestamp?: number;
}

/**
 * The prompt as hashed into `promptHash`: NFC, whitespace collapsed, trimmed, lowercased.
 *
 * @example
 * ```ts
 * normalizePrompt('  Sort   users\n'); // 'sort users'
 * ```
 */
export function normalizePrompt(prompt: string): string {
  return prompt.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * `promptHash` of a prompt: SHA-256 (Web Crypto, hence async) of {@link normalizePrompt}(prompt), hex.
 *
 * @example
 * ```ts
 * await promptHash('Sort users'); // 64 hex characters, same as for '  sort   USERS '
 * ```
 */
export function promptHash(prompt: string): Promise<string> {
  return sha256Hex(normalizePrompt(prompt));
}

// An ISO 8601 date, or date-time with an explicit offset: without one, `Date.parse` would read the
// local time zone, and the same record would load as different instants on different machines.
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Epoch milliseconds of an ISO 8601 timestamp string (`2025-01-01`, `2025-01-01T10:00:00.5Z`,
 * `…+02:00`), computed from its fields so that every engine agrees; `undefined` for anything else,
 * including impossible dates such as `2025-02-30`.
 */
function isoToEpochMs(text: string): number | undefined {
  const m = ISO_TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s, +frac.slice(0, 3).padEnd(3, '0'));
  const back = new Date(ms);
  const exact =
    back.getUTCFullYear() === +y! &&
    back.getUTCMonth() === +mo! - 1 &&
    back.getUTCDate() === +d! &&
    back.getUTCHours() === +h &&
    back.getUTCMinutes() === +mi &&
    back.getUTCSeconds() === +s;
  if (!exact) return undefined;
  if (zone === 'Z') return ms;
  const sign = zone.startsWith('-') ? -1 : 1;
  return ms - sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
}

/**
 * `timestamp`: epoch milliseconds. Records written by the store's former reflexion schema carried an
 * ISO 8601 string instead; those are read as the same instant in milliseconds (read old, write new).
 * Any other value fails with valibot's own number message.
 */
const TimestampSchema = v.pipe(
  v.unknown(),
  v.transform((value) => (typeof value === 'string' ? (isoToEpochMs(value) ?? value) : value)),
  v.number(),
  v.finite(),
);

/**
 * valibot schema of a {@link ReflexionEntry}: the one reflexion-memory record schema. It validates
 * {@link ReflexionMemory}'s stored documents (see {@link StoredEntrySchema}) and the values of a
 * `memoryEntryStore` log; `rearview/store` re-exports it as `ReflexionMemorySchema` (and the record
 * type as `ReflexionMemoryRecord`), the names it had there. Older records whose `timestamp` is an
 * ISO 8601 string still load, as epoch milliseconds.
 *
 * @example
 * ```ts
 * const lessons = memoryEntryStore(kv, { namespace: 'reflexion', schema: ReflexionEntrySchema });
 * await lessons.append({ promptHash: await promptHash('q'), prompt: 'q', mistake: 'm', correction: 'c', timestamp: Date.now() });
 * ```
 */
export const ReflexionEntrySchema = v.object({
  promptHash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters')),
  prompt: v.string(),
  mistake: v.string(),
  correction: v.string(),
  timestamp: TimestampSchema,
});

/**
 * valibot schema of one document {@link ReflexionMemory} stores
 * (`reflexion:{namespace}:entry:{seq}:{hash prefix}`): a {@link ReflexionEntrySchema} record with the
 * document version `v`, its sequence number and, with an embedding model, the prompt's vector.
 * Documents that fail it are skipped by {@link ReflexionMemory.load} and reported in `skipped`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 *
 * const keys = await store.keys('reflexion:default:entry:');
 * const doc = v.parse(StoredEntrySchema, await store.get(keys[0]!));
 * console.log(doc.seq, doc.mistake, doc.correction);
 * ```
 */
export const StoredEntrySchema = v.object({
  v: v.literal(1),
  seq: v.pipe(v.number(), v.integer(), v.minValue(0)),
  ...ReflexionEntrySchema.entries,
  embedding: v.optional(v.array(v.pipe(v.number(), v.finite()))),
});

/** A document as {@link StoredEntrySchema} reads it. */
export type StoredReflexionDocument = v.InferOutput<typeof StoredEntrySchema>;

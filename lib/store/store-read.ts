/**
 * Reading a stored playbook: the content document (migrated from older schemas, recovered from the
 * newest valid snapshot when corrupt, bad key points quarantined one by one) and the counter records.
 */
import * as v from 'valibot';
import { describeError, StoreError } from '../core/index.js';
import { SECTION_NAMES, type SectionName } from '../playbook/index.js';
import { countersFromRecords } from './playbook-gcounters.js';
import { viewPlaybook } from './playbook-merge.js';
import { detectPlaybookSchema, migratePlaybook } from './playbook-migrations.js';
import {
  type ContentDoc,
  ContentDocEnvelopeSchema,
  type CounterRecord,
  CounterRecordSchema,
  type HeadRecord,
  HeadRecordSchema,
  type StoredKeyPoint,
  StoredKeyPointSchema,
  type VersionMeta,
  type VersionSnapshot,
  VersionSnapshotSchema,
} from './playbook-schema.js';
import type { StoreContext } from './store-context.js';
import { isCounterRecord, maxRecord, sizeOf } from './store-counters.js';
import {
  allShards,
  counterPrefix,
  docKey,
  headKey,
  splitRecord,
  versionKey,
  versionPrefix,
} from './store-keys.js';
import { issuesOf } from './store-quarantine.js';
import type { OpenedPlaybook } from './store-types.js';

/** Returned by a step that lost a race with another writer: read again. */
export const STALE = Symbol('stale');

/** Reads, migrates and validates the content document; quarantines what fails. */
export async function readDoc(
  ctx: StoreContext,
  id: string,
  diagnostics: StoreError[],
): Promise<ContentDoc | undefined> {
  const { kv, quarantine: q } = ctx;
  const key = docKey(id);
  for (let attempt = 0; attempt < 5; attempt++) {
    const raw = await kv.get(key);
    if (raw === undefined) return undefined;
    const schema = detectPlaybookSchema(raw);
    if (schema === 0 || schema === 1) {
      const migrated = await migrateStored(ctx, id, raw, schema, diagnostics);
      if (migrated === STALE) continue;
      return migrated;
    }
    const env = schema === 2 ? v.safeParse(ContentDocEnvelopeSchema, raw) : undefined;
    if (!env?.success) {
      const error = q.corrupt(
        key,
        env
          ? `Playbook document is invalid: ${issuesOf(env.issues)}`
          : `Unknown playbook schema ${String(schema)}`,
      );
      diagnostics.push(error);
      const recovered = await recoverFromSnapshot(ctx, id, diagnostics);
      await q.move(key, raw, error, recovered);
      return recovered;
    }
    const clean = await dropBadKeyPoints(ctx, key, raw as ContentDoc, diagnostics);
    if (clean === STALE) continue;
    return clean;
  }
  throw new StoreError('store_conflict', `Playbook ${id} kept changing while it was being read`, { key });
}

/** Key points checked one by one: a bad one is quarantined, the others load. */
async function dropBadKeyPoints(
  ctx: StoreContext,
  key: string,
  doc: ContentDoc,
  diagnostics: StoreError[],
): Promise<ContentDoc | typeof STALE> {
  const q = ctx.quarantine;
  const bad: { section: SectionName; value: unknown; error: StoreError }[] = [];
  const clean = { ...doc, sections: {} as ContentDoc['sections'] };
  for (const s of SECTION_NAMES) {
    clean.sections[s] = [];
    doc.sections[s].forEach((e, i) => {
      const r = v.safeParse(StoredKeyPointSchema, e);
      if (r.success) clean.sections[s].push(e as StoredKeyPoint);
      else {
        bad.push({
          section: s,
          value: e,
          error: q.corrupt(key, `Key point ${s}[${i}] is invalid: ${issuesOf(r.issues)}`),
        });
      }
    });
  }
  if (!bad.length) return clean;
  const done = await ctx.kv.transact([key], ([current]) => {
    const c = current as ContentDoc | undefined;
    if (!c || c.version !== doc.version || c.clock !== doc.clock) return { result: false };
    return {
      writes: [
        [key, clean],
        ...bad.map((b) => [q.keyFor(`${key}#${b.section}`), q.record(key, b.value, b.error)] as const),
      ],
      result: true,
    };
  });
  if (!done) return STALE;
  diagnostics.push(...bad.map((b) => b.error));
  return clean;
}

async function recoverFromSnapshot(
  ctx: StoreContext,
  id: string,
  diagnostics: StoreError[],
): Promise<ContentDoc | undefined> {
  const keys = await ctx.kv.keys(versionPrefix(id));
  for (const key of keys.reverse()) {
    const raw = await ctx.kv.get(key);
    const r = v.safeParse(VersionSnapshotSchema, raw);
    if (r.success) return (raw as VersionSnapshot).doc;
    const error = ctx.quarantine.corrupt(key, `Playbook version snapshot is invalid: ${issuesOf(r.issues)}`);
    diagnostics.push(error);
    await ctx.quarantine.move(key, raw, error);
  }
  return undefined;
}

async function migrateStored(
  ctx: StoreContext,
  id: string,
  raw: unknown,
  schema: number,
  diagnostics: StoreError[],
): Promise<ContentDoc | undefined | typeof STALE> {
  let outcome: ReturnType<typeof migratePlaybook>;
  try {
    outcome = migratePlaybook(raw, id);
  } catch (err) {
    const error = ctx.quarantine.corrupt(
      docKey(id),
      `Playbook document of schema ${schema} cannot be migrated: ${describeError(err)}`,
      err,
    );
    diagnostics.push(error);
    await ctx.quarantine.move(docKey(id), raw, error);
    return undefined;
  }
  for (const n of outcome.notes) ctx.warn(`playbook ${id}: ${n}`);
  const at = ctx.nowIso();
  const who = await ctx.actor();
  const rawJson = JSON.stringify(raw);
  const migratedKeys = allShards(id, outcome.counters.replica, ctx.shards);
  const parts = splitRecord(outcome.counters, ctx.shards);
  return ctx.kv.transact<ContentDoc | typeof STALE>([docKey(id), headKey(id), ...migratedKeys], (values) => {
    const [current, head] = values;
    if (JSON.stringify(current) !== rawJson) return { result: STALE };
    const h = v.safeParse(HeadRecordSchema, head);
    const log = h.success ? (head as HeadRecord).log : [];
    const version = (h.success ? (head as HeadRecord).version : 0) + 1;
    const doc: ContentDoc = { ...outcome.doc, version };
    const meta: VersionMeta = {
      version,
      at,
      actor: who,
      kind: 'migrate',
      migratedFrom: schema,
      size: sizeOf(doc),
    };
    const counterWrites = [...parts].map(([shard, part]) => {
      const slot = values[2 + shard];
      const prev = isCounterRecord(slot) ? (slot as CounterRecord) : undefined;
      return [migratedKeys[shard]!, maxRecord(prev, part)] as const;
    });
    return {
      writes: [
        [docKey(id), doc],
        [headKey(id), { version, log: [...log, meta].slice(-ctx.maxVersions) }],
        [versionKey(id, version), { meta, doc }],
        ...counterWrites,
      ],
      result: doc,
    };
  });
}

/** Every replica's counter records; invalid ones are quarantined. */
export async function readCounters(
  ctx: StoreContext,
  id: string,
  diagnostics: StoreError[],
): Promise<CounterRecord[]> {
  const keys = await ctx.kv.keys(counterPrefix(id));
  const values = await ctx.kv.getMany(keys);
  const out: CounterRecord[] = [];
  for (let i = 0; i < keys.length; i++) {
    // The hot path's check decides (stricter than valibot's record, which skips `__proto__`,
    // `prototype` and `constructor` and takes an array's indices as names); valibot words the reason.
    if (isCounterRecord(values[i])) out.push(values[i] as CounterRecord);
    else {
      const r = v.safeParse(CounterRecordSchema, values[i]);
      const why = r.success
        ? 'counts must be an object of {helpful, harmful} non-negative integers by key point (an array, or a bad count under a reserved name)'
        : issuesOf(r.issues);
      const error = ctx.quarantine.corrupt(keys[i]!, `Counter record is invalid: ${why}`);
      diagnostics.push(error);
      await ctx.quarantine.move(keys[i]!, values[i], error);
    }
  }
  return out;
}

/** Remembers the key point names of `doc` for applyTags. */
export function cacheNames(ctx: StoreContext, id: string, doc: ContentDoc | undefined): void {
  const names = new Set<string>();
  if (doc) for (const s of SECTION_NAMES) for (const e of doc.sections[s]) names.add(e.name);
  ctx.namesCache.set(id, { version: doc?.version ?? 0, names });
}

/** {@link PlaybookStore.open}. */
export async function openPlaybook(ctx: StoreContext, id: string): Promise<OpenedPlaybook> {
  const diagnostics: StoreError[] = [];
  const doc = await readDoc(ctx, id, diagnostics);
  const counters = await readCounters(ctx, id, diagnostics);
  cacheNames(ctx, id, doc);
  ctx.quarantine.report(diagnostics);
  return {
    id,
    exists: doc !== undefined,
    version: doc?.version ?? 0,
    playbook: viewPlaybook(doc, countersFromRecords(counters)),
    legacyNames: doc?.legacyNames ?? [],
    diagnostics,
  };
}

import * as v from 'valibot';
import { describeError, parseJsonLocated, StoreError, ValidationError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import {
  type AppliedOperation,
  applyDelta as applyDeltaPure,
  type BulletTag,
  cloneJson,
  type Playbook,
  PlaybookSchema,
  SECTION_NAMES,
  type SectionName,
  tallyBulletTags,
} from '../playbook/index.js';
import {
  countersFromRecords,
  type GCounters,
  type MergeConflict,
  mergeContent,
  mergePlaybookDocuments,
  type PlaybookDocument,
  PlaybookDocumentSchema,
  sameContent,
  viewPlaybook,
} from './playbook-merge.js';
import {
  type ContentDoc,
  ContentDocEnvelopeSchema,
  type CounterRecord,
  CounterRecordSchema,
  detectPlaybookSchema,
  type HeadRecord,
  HeadRecordSchema,
  migratePlaybook,
  PlaybookV0Schema,
  PlaybookV1Schema,
  type Stamp,
  type StoredKeyPoint,
  StoredKeyPointSchema,
  type TagEvent,
  type TagLogRecord,
  TagLogRecordSchema,
  type VersionMeta,
  type VersionSnapshot,
  VersionSnapshotSchema,
} from './playbook-schema.js';

/** Options of {@link playbookStore}. */
export interface PlaybookStoreOptions {
  /**
   * This writer's G-counter slot. Default: for stores with shared transactions (IndexedDB, memory) a
   * per-store id persisted under `meta:replica`, so every tab of a browser shares one slot; for
   * Workers KV a fresh id per PlaybookStore object (KV has no transactions, so writers must not share
   * a slot; pass a stable id per writer to keep the number of slots small).
   */
  replicaId?: string;
  /** Who is making changes, recorded in the change log. Default: the replica id. */
  actor?: string;
  /** Clock for timestamps (ISO string, Date or epoch ms). Default: the current time. */
  now?: () => string | number | Date;
  /** Content versions retained for history and revert (default 50, at least 1). */
  maxVersions?: number;
  /** applyTags events retained per replica (default 100). */
  maxTagEvents?: number;
  /**
   * How many records one replica's counters are split into (default 32; fix it per store). More
   * shards make applyTags on huge playbooks cheaper and loads read more keys.
   */
  counterShards?: number;
  /**
   * BroadcastChannel name used to tell other tabs about changes, or `false` for none. Default
   * `rearview:playbook` when the runtime has BroadcastChannel.
   */
  broadcast?: string | false;
  /** Called with each corrupt record found (code `store_corrupt`) after it has been quarantined. */
  onCorrupt?: (error: StoreError) => void;
  /** Called with each warning (skipped tags, ignored counter decreases). Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/** A change notification. */
export interface PlaybookChange {
  id: string;
  kind: VersionMeta['kind'] | 'tags';
  /** Content version after the change. */
  version: number;
  /** `local`: made through this PlaybookStore; `remote`: another tab, through BroadcastChannel. */
  origin: 'local' | 'remote';
}

/** What {@link PlaybookStore.open} returns. */
export interface OpenedPlaybook {
  id: string;
  exists: boolean;
  /** Content version (0 when the playbook does not exist yet). */
  version: number;
  playbook: Playbook;
  /** Legacy `kpt_NNN` names carried over by a migration. */
  legacyNames: string[];
  /** Corrupt records found and quarantined while loading (code `store_corrupt`). */
  diagnostics: StoreError[];
}

/** What {@link PlaybookStore.applyTags} did. */
export interface ApplyTagsResult {
  /** Tags that changed a counter. */
  applied: number;
  /** Tags skipped (unknown name or tag value); neutral tags are neither applied nor skipped. */
  skipped: { tag: BulletTag; reason: string }[];
  /** Content version the tags were checked against. */
  version: number;
}

/** What {@link PlaybookStore.applyDelta} did. */
export interface ApplyDeltaStoreResult {
  /** Content version after the delta (unchanged when nothing applied). */
  version: number;
  applied: AppliedOperation[];
  rejected: { op: unknown; reason: string }[];
  playbook: Playbook;
}

/** One line of {@link PlaybookStore.history}: a content version or an applyTags call. */
export type HistoryEntry =
  | ({ type: 'version' } & VersionMeta)
  | ({ type: 'tags'; replica: string } & TagEvent);

/** Result of save, revert and import. */
export interface WriteResult {
  id: string;
  /** Content version after the call. */
  version: number;
  /** False when there was nothing to change. */
  changed: boolean;
  /** Key points whose saved counters were lower than stored ones (counters never decrease). */
  ignoredDecreases?: string[];
  /** Same ids created independently on two replicas (the older text was dropped). */
  conflicts?: MergeConflict[];
}

/**
 * Playbooks persisted in any {@link KeyValueStore}, safe across tabs and devices. See
 * lib/store/README.md for the layout and guarantees.
 */
export interface PlaybookStore {
  /** The key-value store underneath. */
  readonly kv: KeyValueStore;
  /** This writer's G-counter slot id. */
  replicaId(): Promise<string>;
  /** Ids of every stored playbook, sorted. */
  list(): Promise<string[]>;
  /** Loads a playbook with its version and diagnostics; migrates and quarantines as needed. */
  open(id: string): Promise<OpenedPlaybook>;
  /** The playbook (five empty sections when it does not exist). */
  load(id: string): Promise<Playbook>;
  /**
   * Replaces the content (sections, key points, texts) with `playbook` as a new version. Counters
   * only grow: a saved counter higher than the stored total raises this replica's slot by the
   * difference; a lower one is ignored with a warning. Use applyTags for concurrent increments.
   */
  save(id: string, playbook: Playbook): Promise<WriteResult>;
  /** Applies reflector tags atomically: one transaction however many tags (seed 001 semantics). */
  applyTags(id: string, tags: readonly BulletTag[]): Promise<ApplyTagsResult>;
  /** Applies curator operations (ADD/UPDATE/MERGE/REMOVE) atomically as one new version. */
  applyDelta(id: string, operations: readonly unknown[]): Promise<ApplyDeltaStoreResult>;
  /** Retained content versions and applyTags events, oldest first. */
  history(id: string): Promise<HistoryEntry[]>;
  /** Restores the content of a retained version as a new version; counters are not rolled back. */
  revert(id: string, version: number): Promise<WriteResult>;
  /** The portable document: content plus every replica's counter slots. */
  exportDocument(id: string): Promise<PlaybookDocument>;
  /** Merges a portable document into the stored one (creating it when absent). */
  importDocument(
    doc: PlaybookDocument,
    options?: { id?: string; kind?: 'import' | 'sync' },
  ): Promise<WriteResult>;
  /** {@link PlaybookStore.exportDocument} as JSON text. */
  exportJson(id: string): Promise<string>;
  /**
   * Imports JSON: a document from exportJson, a schema-1 document, or seed 001's plain playbook.json
   * (then `options.id` names it). Malformed input throws a located ValidationError and changes nothing.
   */
  importJson(json: string, options?: { id?: string }): Promise<WriteResult>;
  /** Calls `listener` after every change to playbook `id`, from this object or other tabs. */
  subscribe(id: string, listener: (change: PlaybookChange) => void): () => void;
  /** Releases the BroadcastChannel. */
  close(): void;
}

const enc = encodeURIComponent;
const docKey = (id: string) => `pb:${enc(id)}:doc`;
const headKey = (id: string) => `pb:${enc(id)}:head`;
const versionKey = (id: string, n: number) => `pb:${enc(id)}:v:${String(n).padStart(10, '0')}`;
const counterPrefix = (id: string) => `pb:${enc(id)}:c:`;
/** Counter records are sharded by key point name so that applyTags reads and writes small records. */
const counterKey = (id: string, replica: string, shard: number) =>
  `${counterPrefix(id)}${enc(replica)}:${shard.toString(16).padStart(2, '0')}`;

/** FNV-1a of the name, modulo the shard count: which counter record holds a key point. */
function shardOf(name: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

/** Splits one replica's counts into its shard records. */
function splitRecord(record: CounterRecord, shards: number): Map<number, CounterRecord> {
  const out = new Map<number, CounterRecord>();
  for (const [name, c] of Object.entries(record.counts)) {
    const shard = shardOf(name, shards);
    let r = out.get(shard);
    if (!r) {
      r = { replica: record.replica, counts: {} };
      out.set(shard, r);
    }
    r.counts[name] = c;
  }
  return out;
}
const tagPrefix = (id: string) => `pb:${enc(id)}:t:`;
const tagKey = (id: string, replica: string) => `${tagPrefix(id)}${enc(replica)}`;

class Conflict {}
const STALE = Symbol('stale');

/**
 * A {@link PlaybookStore} over any {@link KeyValueStore}.
 *
 * @example
 * ```ts
 * const playbooks = playbookStore(idbStore('my-app', 'playbooks'));
 * await playbooks.applyDelta('default', [{ type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'Write tests' }]);
 * await playbooks.applyTags('default', [{ name: 'pat-001', tag: 'helpful' }]);
 * const pb = await playbooks.load('default'); // pat-001 helpful: 1
 * ```
 */
export function playbookStore(kv: KeyValueStore, options: PlaybookStoreOptions = {}): PlaybookStore {
  const maxVersions = Math.max(1, options.maxVersions ?? 50);
  const maxTagEvents = Math.max(0, options.maxTagEvents ?? 100);
  const shards = Math.max(1, Math.min(256, Math.floor(options.counterShards ?? 32)));
  const allShards = (id: string, r: string) => Array.from({ length: shards }, (_, i) => counterKey(id, r, i));
  const listeners = new Map<string, Set<(c: PlaybookChange) => void>>();
  const namesCache = new Map<string, { version: number; names: Set<string> }>();
  let channel: BroadcastChannel | undefined;
  let replica: Promise<string> | undefined;
  let quarantineSeq = 0;

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
  const actor = async () => options.actor ?? (await replicaId());

  // ---- change notification -------------------------------------------------------------------------
  const getChannel = (): BroadcastChannel | undefined => {
    if (channel || options.broadcast === false) return channel;
    const BC = (globalThis as { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
    if (!BC) return undefined;
    channel = new BC(options.broadcast ?? 'rearview:playbook');
    channel.onmessage = (event: MessageEvent) => {
      const d = event.data as Partial<PlaybookChange> | undefined;
      if (!d || typeof d.id !== 'string' || typeof d.kind !== 'string') return;
      namesCache.delete(d.id);
      deliver({ id: d.id, kind: d.kind, version: Number(d.version) || 0, origin: 'remote' });
    };
    refChannel();
    return channel;
  };
  /** Keeps the process alive (Node, Bun) only while someone listens. */
  const refChannel = () => {
    const c = channel as (BroadcastChannel & { ref?: () => void; unref?: () => void }) | undefined;
    if (!c) return;
    if (listeners.size) c.ref?.();
    else c.unref?.();
  };
  const deliver = (change: PlaybookChange) => {
    for (const l of listeners.get(change.id) ?? []) {
      try {
        l(change);
      } catch (err) {
        warn(`playbook subscriber threw: ${describeError(err)}`);
      }
    }
  };
  const emit = (id: string, kind: PlaybookChange['kind'], version: number) => {
    deliver({ id, kind, version, origin: 'local' });
    try {
      getChannel()?.postMessage({ id, kind, version });
    } catch {
      // a closed channel: same-instance notifications still went out
    }
  };

  // ---- quarantine -----------------------------------------------------------------------------------
  const corrupt = (key: string, message: string, cause?: unknown) =>
    new StoreError('store_corrupt', message, { key, ...(cause !== undefined ? { cause } : {}) });
  const quarantineKey = (key: string) =>
    `quarantine:${key}:${nowIso()}-${String(++quarantineSeq).padStart(4, '0')}`;
  const quarantineRecord = (key: string, value: unknown, error: StoreError) => ({
    key,
    at: nowIso(),
    error: { code: error.code, message: error.message },
    value,
  });
  const report = (errors: StoreError[]) => {
    for (const e of errors) options.onCorrupt?.(e);
  };
  /** Moves `raw` away from `key` (replacing it with `replacement`, or deleting it) if it is still there. */
  const quarantine = async (key: string, raw: unknown, error: StoreError, replacement?: unknown) => {
    const rawJson = JSON.stringify(raw);
    await kv.transact([key], ([current]) => {
      if (JSON.stringify(current) !== rawJson) return { result: undefined };
      return {
        writes: [
          [quarantineKey(key), quarantineRecord(key, raw, error)],
          ...(replacement !== undefined ? [[key, replacement] as const] : []),
        ],
        deletes: replacement === undefined ? [key] : [],
        result: undefined,
      };
    });
  };
  const issuesOf = (issues: readonly v.BaseIssue<unknown>[]) =>
    issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ');

  // ---- reading --------------------------------------------------------------------------------------
  /** Reads, migrates and validates the content document; quarantines what fails. */
  const readDoc = async (id: string, diagnostics: StoreError[]): Promise<ContentDoc | undefined> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const key = docKey(id);
      const raw = await kv.get(key);
      if (raw === undefined) return undefined;
      const schema = detectPlaybookSchema(raw);
      if (schema === 0 || schema === 1) {
        const migrated = await migrateStored(id, raw, schema, diagnostics);
        if (migrated === STALE) continue;
        return migrated;
      }
      const env = schema === 2 ? v.safeParse(ContentDocEnvelopeSchema, raw) : undefined;
      if (!env?.success) {
        const error = corrupt(
          key,
          env
            ? `Playbook document is invalid: ${issuesOf(env.issues)}`
            : `Unknown playbook schema ${String(schema)}`,
        );
        diagnostics.push(error);
        const recovered = await recoverFromSnapshot(id, diagnostics);
        await quarantine(key, raw, error, recovered);
        return recovered;
      }
      // Key points one by one: a bad one is quarantined, the others load.
      const doc = raw as ContentDoc;
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
              error: corrupt(key, `Key point ${s}[${i}] is invalid: ${issuesOf(r.issues)}`),
            });
          }
        });
      }
      if (bad.length) {
        const done = await kv.transact([key], ([current]) => {
          const c = current as ContentDoc | undefined;
          if (!c || c.version !== doc.version || c.clock !== doc.clock) return { result: false };
          return {
            writes: [
              [key, clean],
              ...bad.map(
                (b) =>
                  [quarantineKey(`${key}#${b.section}`), quarantineRecord(key, b.value, b.error)] as const,
              ),
            ],
            result: true,
          };
        });
        if (!done) continue;
        diagnostics.push(...bad.map((b) => b.error));
      }
      return clean;
    }
    throw new StoreError('store_conflict', `Playbook ${id} kept changing while it was being read`, {
      key: docKey(id),
    });
  };

  const recoverFromSnapshot = async (
    id: string,
    diagnostics: StoreError[],
  ): Promise<ContentDoc | undefined> => {
    const keys = await kv.keys(`pb:${enc(id)}:v:`);
    for (const key of keys.reverse()) {
      const raw = await kv.get(key);
      const r = v.safeParse(VersionSnapshotSchema, raw);
      if (r.success) return (raw as VersionSnapshot).doc;
      const error = corrupt(key, `Playbook version snapshot is invalid: ${issuesOf(r.issues)}`);
      diagnostics.push(error);
      await quarantine(key, raw, error);
    }
    return undefined;
  };

  const migrateStored = async (
    id: string,
    raw: unknown,
    schema: number,
    diagnostics: StoreError[],
  ): Promise<ContentDoc | undefined | typeof STALE> => {
    let outcome: ReturnType<typeof migratePlaybook>;
    try {
      outcome = migratePlaybook(raw, id);
    } catch (err) {
      const error = corrupt(
        docKey(id),
        `Playbook document of schema ${schema} cannot be migrated: ${describeError(err)}`,
        err,
      );
      diagnostics.push(error);
      await quarantine(docKey(id), raw, error);
      return undefined;
    }
    for (const n of outcome.notes) warn(`playbook ${id}: ${n}`);
    const at = nowIso();
    const who = await actor();
    const rawJson = JSON.stringify(raw);
    const migratedKeys = allShards(id, outcome.counters.replica);
    const parts = splitRecord(outcome.counters, shards);
    return kv.transact<ContentDoc | typeof STALE>([docKey(id), headKey(id), ...migratedKeys], (values) => {
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
        size: size(doc),
      };
      const counterWrites = [...parts].map(([shard, part]) => {
        const slot = values[2 + shard];
        const prev = v.safeParse(CounterRecordSchema, slot).success ? (slot as CounterRecord) : undefined;
        return [migratedKeys[shard]!, maxRecord(prev, part)] as const;
      });
      return {
        writes: [
          [docKey(id), doc],
          [headKey(id), { version, log: [...log, meta].slice(-maxVersions) }],
          [versionKey(id, version), { meta, doc }],
          ...counterWrites,
        ],
        result: doc,
      };
    });
  };

  const readCounters = async (id: string, diagnostics: StoreError[]): Promise<CounterRecord[]> => {
    const keys = await kv.keys(counterPrefix(id));
    const values = await kv.getMany(keys);
    const out: CounterRecord[] = [];
    for (let i = 0; i < keys.length; i++) {
      const r = v.safeParse(CounterRecordSchema, values[i]);
      if (r.success) out.push(values[i] as CounterRecord);
      else {
        const error = corrupt(keys[i]!, `Counter record is invalid: ${issuesOf(r.issues)}`);
        diagnostics.push(error);
        await quarantine(keys[i]!, values[i], error);
      }
    }
    return out;
  };

  const cacheNames = (id: string, doc: ContentDoc | undefined) => {
    const names = new Set<string>();
    if (doc) for (const s of SECTION_NAMES) for (const e of doc.sections[s]) names.add(e.name);
    namesCache.set(id, { version: doc?.version ?? 0, names });
  };

  const open = async (id: string): Promise<OpenedPlaybook> => {
    const diagnostics: StoreError[] = [];
    const doc = await readDoc(id, diagnostics);
    const counters = await readCounters(id, diagnostics);
    cacheNames(id, doc);
    report(diagnostics);
    return {
      id,
      exists: doc !== undefined,
      version: doc?.version ?? 0,
      playbook: viewPlaybook(doc, countersFromRecords(counters)),
      legacyNames: doc?.legacyNames ?? [],
      diagnostics,
    };
  };

  // ---- writing content ------------------------------------------------------------------------------
  interface Built<R> {
    doc: ContentDoc;
    meta?: Partial<VersionMeta>;
    writes?: (readonly [string, unknown])[];
    result: R;
  }

  /**
   * One content change as one transaction: reads the document (validated outside), checks inside the
   * transaction that nobody wrote in between, writes document, head, snapshot and extra records.
   */
  const changeContent = async <R>(
    id: string,
    kind: VersionMeta['kind'],
    extraKeys: readonly string[],
    build: (doc: ContentDoc | undefined, stamp: Stamp, extra: unknown[]) => Built<R> | { unchanged: R },
  ): Promise<{ version: number; changed: boolean; result: R }> => {
    const who = await actor();
    const me = await replicaId();
    for (let attempt = 0; attempt < 50; attempt++) {
      const diagnostics: StoreError[] = [];
      const base = await readDoc(id, diagnostics);
      report(diagnostics);
      const expected = base?.version ?? 0;
      const at = nowIso();
      try {
        const out = await kv.transact([docKey(id), headKey(id), ...extraKeys], (values) => {
          const [current, head] = values as [ContentDoc | undefined, HeadRecord | undefined];
          if ((current?.version ?? 0) !== expected || (current !== undefined && current.schema !== 2)) {
            throw new Conflict();
          }
          const h = v.safeParse(HeadRecordSchema, head).success ? head! : { version: expected, log: [] };
          const stamp: Stamp = [(base?.clock ?? 0) + 1, me];
          const built = build(base ? cloneJson(base) : undefined, stamp, values.slice(2));
          if ('unchanged' in built)
            return { result: { version: expected, changed: false, result: built.unchanged } };
          const version = Math.max(expected, h.version) + 1;
          const doc: ContentDoc = { ...built.doc, version, clock: Math.max(built.doc.clock, stamp[0]) };
          const meta: VersionMeta = { version, at, actor: who, kind, size: size(doc), ...built.meta };
          const log = [...h.log, meta].slice(-maxVersions);
          const kept = new Set(log.map((m) => m.version));
          return {
            writes: [
              [docKey(id), doc],
              [headKey(id), { version, log }],
              [versionKey(id, version), { meta, doc }],
              ...(built.writes ?? []),
            ],
            deletes: h.log.filter((m) => !kept.has(m.version)).map((m) => versionKey(id, m.version)),
            result: { version, changed: true, result: built.result },
          };
        });
        if (out.changed) {
          namesCache.delete(id);
          emit(id, kind, out.version);
        }
        return out;
      } catch (err) {
        if (err instanceof Conflict) continue;
        throw err;
      }
    }
    throw new StoreError('store_conflict', `Playbook ${id} changed concurrently too many times; try again`, {
      key: docKey(id),
    });
  };

  const newDoc = (id: string): ContentDoc => ({
    schema: 2,
    id,
    version: 0,
    clock: 0,
    sections: Object.fromEntries(SECTION_NAMES.map((s) => [s, []])) as unknown as ContentDoc['sections'],
    highWater: { pat: 0, mis: 0, pref: 0, ctx: 0, oth: 0 },
    removed: {},
    aliases: {},
  });

  /** Replaces the live key points of `base` by `target`'s, stamping only what changed. */
  const replaceContent = (
    base: ContentDoc,
    target: Record<SectionName, readonly Omit<StoredKeyPoint, 'stamp'>[]>,
    stamp: Stamp,
  ): ContentDoc => {
    const current = new Map<string, { entry: StoredKeyPoint; section: SectionName }>();
    for (const s of SECTION_NAMES)
      for (const e of base.sections[s]) current.set(e.name, { entry: e, section: s });
    const sections = {} as ContentDoc['sections'];
    const keep = new Set<string>();
    for (const s of SECTION_NAMES) {
      sections[s] = target[s].map((kp) => {
        keep.add(kp.name);
        const prev = current.get(kp.name);
        const content = contentOf(kp);
        if (prev && prev.section === s && JSON.stringify(contentOf(prev.entry)) === JSON.stringify(content)) {
          return prev.entry;
        }
        return { ...content, stamp };
      });
    }
    const removed = { ...base.removed };
    for (const name of current.keys()) if (!keep.has(name)) removed[name] = stamp;
    const highWater = { ...base.highWater };
    for (const s of SECTION_NAMES) {
      for (const kp of target[s]) {
        const m = /^(pat|mis|pref|ctx|oth)-(\d+)$/.exec(kp.name);
        if (m) {
          const slug = m[1] as keyof typeof highWater;
          highWater[slug] = Math.max(highWater[slug], Number(m[2]));
        }
      }
    }
    return { ...base, sections, removed, highWater };
  };

  const save = async (id: string, playbook: Playbook): Promise<WriteResult> => {
    const parsed = v.safeParse(PlaybookSchema, playbook);
    if (!parsed.success) {
      throw new ValidationError(
        parsed.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })),
        { subject: 'Playbook' },
      );
    }
    const me = await replicaId();
    const diagnostics: StoreError[] = [];
    const records = await readCounters(id, diagnostics);
    report(diagnostics);
    const others = countersFromRecords(records.filter((r) => r.replica !== me));
    const ownKeys = allShards(id, me);
    const ignored: string[] = [];
    const out = await changeContent(id, 'save', ownKeys, (doc, stamp, ownRaw) => {
      const base = doc ?? newDoc(id);
      const own: CounterRecord = { replica: me, counts: {} };
      for (const raw of ownRaw) Object.assign(own.counts, validRecord(raw, me).counts);
      const next = replaceContent(base, parsed.output.sections as Playbook['sections'], stamp);
      // Counters only grow: raise our slot by what the saved totals exceed.
      let raised = false;
      ignored.length = 0;
      const counts = { ...own.counts };
      for (const s of SECTION_NAMES) {
        for (const kp of playbook.sections[s]) {
          const mine = counts[kp.name] ?? { helpful: 0, harmful: 0 };
          const totalH = sumSlots(others[kp.name]?.helpful) + mine.helpful;
          const totalX = sumSlots(others[kp.name]?.harmful) + mine.harmful;
          if (kp.helpful < totalH || kp.harmful < totalX) ignored.push(kp.name);
          if (kp.helpful > totalH || kp.harmful > totalX) {
            counts[kp.name] = {
              helpful: mine.helpful + Math.max(0, kp.helpful - totalH),
              harmful: mine.harmful + Math.max(0, kp.harmful - totalX),
            };
            raised = true;
          }
        }
      }
      if (doc && !raised && sameContent(doc, next)) return { unchanged: undefined };
      const writes = raised
        ? [...splitRecord({ replica: me, counts }, shards)].map(([shard, r]) => [ownKeys[shard]!, r] as const)
        : [];
      return { doc: next, writes, result: undefined };
    });
    if (ignored.length) {
      warn(`playbook ${id}: counters never decrease; lower saved counters ignored for ${ignored.join(', ')}`);
    }
    return {
      id,
      version: out.version,
      changed: out.changed,
      ...(ignored.length ? { ignoredDecreases: [...ignored] } : {}),
    };
  };

  const applyDelta = async (id: string, operations: readonly unknown[]): Promise<ApplyDeltaStoreResult> => {
    let rejected: ApplyDeltaStoreResult['rejected'] = [];
    let applied: AppliedOperation[] = [];
    const at = nowIso();
    const out = await changeContent(id, 'delta', [], (doc, stamp) => {
      const base = doc ?? newDoc(id);
      const current = viewPlaybook(base, {});
      const res = applyDeltaPure(current, operations, { highWater: base.highWater, now: () => at });
      applied = res.applied;
      rejected = res.rejected;
      if (!res.applied.length) return { unchanged: undefined };
      const next = replaceContent(base, res.playbook.sections, stamp);
      next.highWater = res.highWater;
      const aliases = { ...next.aliases };
      for (const op of res.applied) {
        if (op.type !== 'MERGE') continue;
        for (const n of op.names) if (n !== op.into) aliases[n] = { into: op.into, stamp };
      }
      next.aliases = aliases;
      return {
        doc: next,
        meta: { ops: res.applied, ...(res.rejected.length ? { rejected } : {}) },
        result: undefined,
      };
    });
    return { version: out.version, applied, rejected, playbook: await load(id) };
  };

  const applyTags = async (id: string, tags: readonly BulletTag[]): Promise<ApplyTagsResult> => {
    if (!Array.isArray(tags)) {
      throw new ValidationError([{ path: '', message: 'bullet tags must be an array' }], {
        subject: 'Bullet tags',
      });
    }
    const me = await replicaId();
    const who = await actor();
    const tKey = tagKey(id, me);
    for (let attempt = 0; attempt < 50; attempt++) {
      let cached = namesCache.get(id);
      if (!cached) {
        const diagnostics: StoreError[] = [];
        const doc = await readDoc(id, diagnostics);
        report(diagnostics);
        cacheNames(id, doc);
        cached = namesCache.get(id)!;
      }
      const { version, names } = cached;
      const tally = tallyBulletTags(names, tags);
      const at = nowIso();
      const corruptFound: StoreError[] = [];
      // Only the shards holding the tagged names take part in the transaction.
      const touched = [...new Set([...tally.increments.keys()].map((n) => shardOf(n, shards)))].sort(
        (a, b) => a - b,
      );
      const cKeys = touched.map((shard) => counterKey(id, me, shard));
      const result = await kv.transact<number | typeof STALE>([headKey(id), tKey, ...cKeys], (values) => {
        const [head, tagLog] = values;
        const headVersion = v.safeParse(HeadRecordSchema, head).success ? (head as HeadRecord).version : 0;
        if (headVersion !== version) return { result: STALE };
        const writes: (readonly [string, unknown])[] = [];
        const records = new Map<number, CounterRecord>();
        touched.forEach((shard, i) => {
          const counter = values[2 + i];
          let record: CounterRecord = { replica: me, counts: {} };
          if (counter !== undefined) {
            if (isCounterRecord(counter)) record = counter as CounterRecord;
            else {
              const error = corrupt(cKeys[i]!, 'Counter record is invalid');
              corruptFound.push(error);
              writes.push([quarantineKey(cKeys[i]!), quarantineRecord(cKeys[i]!, counter, error)]);
            }
          }
          records.set(shard, { replica: me, counts: { ...record.counts } });
        });
        let log: TagLogRecord = { events: [] };
        if (tagLog !== undefined) {
          // Only the shape is checked on this hot path; history() validates every event with valibot.
          if (Array.isArray((tagLog as TagLogRecord | null)?.events)) log = tagLog as TagLogRecord;
          else {
            const error = corrupt(tKey, 'Tag log is invalid');
            corruptFound.push(error);
            writes.push([quarantineKey(tKey), quarantineRecord(tKey, tagLog, error)]);
          }
        }
        if (tally.increments.size === 0 && writes.length === 0) return { result: version };
        const increments: TagEvent['increments'] = {};
        for (const [name, inc] of tally.increments) {
          const counts = records.get(shardOf(name, shards))!.counts;
          const c = counts[name] ?? { helpful: 0, harmful: 0 };
          counts[name] = { helpful: c.helpful + inc.helpful, harmful: c.harmful + inc.harmful };
          increments[name] = { ...inc };
        }
        touched.forEach((shard, i) => {
          writes.push([cKeys[i]!, records.get(shard)!]);
        });
        if (maxTagEvents > 0 && tally.increments.size) {
          const event: TagEvent = {
            at,
            actor: who,
            contentVersion: version,
            increments,
            given: tags.length,
            skipped: tally.skipped.length,
          };
          writes.push([tKey, { events: [...log.events, event].slice(-maxTagEvents) }]);
        }
        return { writes, result: version };
      });
      if (corruptFound.length) report(corruptFound);
      if (result === STALE) {
        namesCache.delete(id);
        continue;
      }
      if (tally.skipped.length) for (const s of tally.skipped) warn(`applyTags(${id}): skipped ${s.reason}`);
      const appliedCount = [...tally.increments.values()].reduce((n, i) => n + i.helpful + i.harmful, 0);
      if (appliedCount) emit(id, 'tags', version);
      return { applied: appliedCount, skipped: tally.skipped, version };
    }
    throw new StoreError('store_conflict', `Playbook ${id} changed concurrently too many times; try again`, {
      key: headKey(id),
    });
  };

  const history = async (id: string): Promise<HistoryEntry[]> => {
    const diagnostics: StoreError[] = [];
    const head = await kv.get(headKey(id));
    const out: HistoryEntry[] = [];
    if (head !== undefined) {
      const r = v.safeParse(HeadRecordSchema, head);
      if (r.success) for (const m of (head as HeadRecord).log) out.push({ type: 'version', ...m });
      else {
        const error = corrupt(headKey(id), `Playbook head is invalid: ${issuesOf(r.issues)}`);
        diagnostics.push(error);
        await quarantine(headKey(id), head, error);
      }
    }
    const keys = await kv.keys(tagPrefix(id));
    const logs = await kv.getMany(keys);
    for (let i = 0; i < keys.length; i++) {
      const r = v.safeParse(TagLogRecordSchema, logs[i]);
      const replicaOfKey = decodeURIComponent(keys[i]!.slice(tagPrefix(id).length));
      if (r.success)
        for (const e of (logs[i] as TagLogRecord).events)
          out.push({ type: 'tags', replica: replicaOfKey, ...e });
      else {
        const error = corrupt(keys[i]!, `Tag log is invalid: ${issuesOf(r.issues)}`);
        diagnostics.push(error);
        await quarantine(keys[i]!, logs[i], error);
      }
    }
    report(diagnostics);
    // Stable: content versions keep their order, tag events slot in by time.
    return out
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.at < b.e.at ? -1 : a.e.at > b.e.at ? 1 : a.i - b.i))
      .map(({ e }) => e);
  };

  const revert = async (id: string, version: number): Promise<WriteResult> => {
    const raw = await kv.get(versionKey(id, version));
    if (raw === undefined) {
      throw new StoreError('store_not_found', `Version ${version} of playbook ${id} is not retained`, {
        key: versionKey(id, version),
      });
    }
    const r = v.safeParse(VersionSnapshotSchema, raw);
    if (!r.success) {
      const error = corrupt(
        versionKey(id, version),
        `Playbook version snapshot is invalid: ${issuesOf(r.issues)}`,
      );
      await quarantine(versionKey(id, version), raw, error);
      report([error]);
      throw error;
    }
    const target = (raw as VersionSnapshot).doc;
    const out = await changeContent(id, 'revert', [], (doc, stamp) => {
      const base = doc ?? newDoc(id);
      const next = replaceContent(base, target.sections, stamp);
      for (const k of Object.keys(next.highWater) as (keyof ContentDoc['highWater'])[]) {
        next.highWater[k] = Math.max(next.highWater[k], target.highWater[k]);
      }
      if (doc && sameContent(doc, next)) return { unchanged: undefined };
      return { doc: next, meta: { revertedTo: version }, result: undefined };
    });
    return { id, version: out.version, changed: out.changed };
  };

  const exportDocument = async (id: string): Promise<PlaybookDocument> => {
    const diagnostics: StoreError[] = [];
    const doc = await readDoc(id, diagnostics);
    const records = await readCounters(id, diagnostics);
    report(diagnostics);
    if (!doc) throw new StoreError('store_not_found', `Playbook ${id} does not exist`, { key: docKey(id) });
    return { format: 'rearview.playbook', ...doc, counters: countersFromRecords(records) };
  };

  const importDocument = async (
    incoming: PlaybookDocument,
    opts: { id?: string; kind?: 'import' | 'sync' } = {},
  ): Promise<WriteResult> => {
    const parsed = v.safeParse(PlaybookDocumentSchema, incoming);
    if (!parsed.success) throw validationFrom(parsed.issues, 'Playbook document');
    const id = opts.id ?? incoming.id;
    const { format: _f, counters, ...content } = incoming;
    const contentDoc: ContentDoc = { ...content, id };
    let conflicts: MergeConflict[] = [];
    const out = await changeContent(id, opts.kind ?? 'import', [], (doc) => {
      if (!doc) return { doc: cloneJson(contentDoc), result: undefined };
      const merged = mergeContent(doc, contentDoc);
      conflicts = merged.conflicts;
      if (sameContent(doc, merged.doc)) return { unchanged: undefined };
      return { doc: { ...merged.doc, id }, result: undefined };
    });
    const grew = await mergeCounterRecords(id, counters);
    if (grew && !out.changed) emit(id, opts.kind ?? 'import', out.version);
    return {
      id,
      version: out.version,
      changed: out.changed || grew,
      ...(conflicts.length ? { conflicts } : {}),
    };
  };

  /** Raises every replica slot to at least `counters` (per-slot maximum); writes only what grows. */
  const mergeCounterRecords = async (id: string, counters: GCounters): Promise<boolean> => {
    const incoming = new Map<string, CounterRecord>();
    for (const [name, c] of Object.entries(counters)) {
      for (const field of ['helpful', 'harmful'] as const) {
        for (const [r, n] of Object.entries(c[field])) {
          let rec = incoming.get(r);
          if (!rec) {
            rec = { replica: r, counts: {} };
            incoming.set(r, rec);
          }
          rec.counts[name] ??= { helpful: 0, harmful: 0 };
          rec.counts[name][field] = n;
        }
      }
    }
    if (!incoming.size) return false;
    const parts: { key: string; replica: string; record: CounterRecord }[] = [];
    for (const r of [...incoming.keys()].sort()) {
      for (const [shard, record] of splitRecord(incoming.get(r)!, shards)) {
        parts.push({ key: counterKey(id, r, shard), replica: r, record });
      }
    }
    parts.sort((a, b) => (a.key < b.key ? -1 : 1));
    return kv.transact(
      parts.map((p) => p.key),
      (values) => {
        const writes: (readonly [string, unknown])[] = [];
        parts.forEach((p, i) => {
          const prev = validRecord(values[i], p.replica);
          const next = maxRecord(prev, p.record);
          if (JSON.stringify(next.counts) !== JSON.stringify(maxRecord(prev, prev).counts))
            writes.push([p.key, next]);
        });
        return { writes, result: writes.length > 0 };
      },
    );
  };

  const importJson = async (json: string, opts: { id?: string } = {}): Promise<WriteResult> => {
    const raw = parseJsonLocated(json, 'Playbook JSON');
    const schema = detectPlaybookSchema(raw);
    if (schema === 0 || schema === 1) {
      const id = opts.id ?? (raw as { id?: unknown }).id;
      if (typeof id !== 'string' || !id) {
        throw new ValidationError(
          [{ path: 'id', message: 'a playbook id is needed to import this layout' }],
          {
            subject: 'Playbook JSON',
          },
        );
      }
      const validation = v.safeParse(schema === 0 ? PlaybookV0Schema : PlaybookV1Schema, raw);
      if (!validation.success) throw validationFrom(validation.issues, 'Playbook JSON');
      const { doc, counters } = migratePlaybook(raw, id);
      return importDocument(
        { format: 'rearview.playbook', ...doc, counters: countersFromRecords([counters]) },
        { id },
      );
    }
    if ((raw as { format?: unknown })?.format !== 'rearview.playbook' || schema !== 2) {
      throw new ValidationError(
        [
          {
            path: schema === undefined ? '' : 'schema',
            message: `not a playbook document (schema ${String(schema)})`,
          },
        ],
        { subject: 'Playbook JSON' },
      );
    }
    const parsed = v.safeParse(PlaybookDocumentSchema, raw);
    if (!parsed.success) throw validationFrom(parsed.issues, 'Playbook JSON');
    return importDocument(raw as PlaybookDocument, opts);
  };

  const load = async (id: string) => (await open(id)).playbook;

  return {
    kv,
    replicaId,
    async list() {
      const keys = await kv.keys('pb:');
      return keys
        .filter((k) => k.endsWith(':doc'))
        .map((k) => decodeURIComponent(k.slice(3, -4)))
        .sort();
    },
    open,
    load,
    save,
    applyTags,
    applyDelta,
    history,
    revert,
    exportDocument,
    importDocument,
    async exportJson(id) {
      return JSON.stringify(await exportDocument(id), null, 2);
    },
    importJson,
    subscribe(id, listener) {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      getChannel();
      refChannel();
      return () => {
        const s = listeners.get(id);
        s?.delete(listener);
        if (s && !s.size) listeners.delete(id);
        refChannel();
      };
    },
    close() {
      channel?.close();
      channel = undefined;
      listeners.clear();
    },
  };
}

// ---- helpers ------------------------------------------------------------------------------------------

function contentOf(
  kp: Omit<StoredKeyPoint, 'stamp'> & { helpful?: number; harmful?: number; stamp?: Stamp },
) {
  return {
    name: kp.name,
    text: kp.text,
    ...(kp.createdAt !== undefined ? { createdAt: kp.createdAt } : {}),
    ...(kp.updatedAt !== undefined ? { updatedAt: kp.updatedAt } : {}),
    ...(kp.source !== undefined ? { source: kp.source } : {}),
  };
}

function size(doc: ContentDoc): number {
  let n = 0;
  for (const s of SECTION_NAMES) n += doc.sections[s].length;
  return n;
}

function sumSlots(slots: Record<string, number> | undefined): number {
  let n = 0;
  for (const r in slots) n += slots[r]!;
  return n;
}

function validRecord(raw: unknown, replica: string): CounterRecord {
  return isCounterRecord(raw) ? (raw as CounterRecord) : { replica, counts: {} };
}

const isCount = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * Exactly {@link CounterRecordSchema}, hand-written for the applyTags hot path: a record holds one
 * entry per tagged key point and valibot's generic walk costs more than the transaction on large ones.
 */
function isCounterRecord(raw: unknown): boolean {
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
  for (const k in r.counts as Record<string, unknown>) {
    const c = (r.counts as Record<string, { helpful?: unknown; harmful?: unknown } | null>)[k];
    if (typeof c !== 'object' || c === null || !isCount(c.helpful) || !isCount(c.harmful)) return false;
  }
  return true;
}

/** Per-name, per-field maximum of two slots of the same replica. */
function maxRecord(a: CounterRecord | undefined, b: CounterRecord): CounterRecord {
  const counts: CounterRecord['counts'] = {};
  const names = [...new Set([...Object.keys(a?.counts ?? {}), ...Object.keys(b.counts)])].sort();
  for (const n of names) {
    const x = a?.counts[n];
    const y = b.counts[n];
    counts[n] = {
      helpful: Math.max(x?.helpful ?? 0, y?.helpful ?? 0),
      harmful: Math.max(x?.harmful ?? 0, y?.harmful ?? 0),
    };
  }
  return { replica: b.replica, counts };
}

function validationFrom(issues: readonly v.BaseIssue<unknown>[], subject: string): ValidationError {
  return new ValidationError(
    issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })),
    { subject },
  );
}

/**
 * Brings two replicas of playbook `id` to the same state: each exports its document, the two are
 * merged (content last-writer-wins, counters per-replica maximum) and each imports the result. After
 * the call both load the same playbook, with counters equal to the sum of every replica's increments.
 *
 * @example
 * ```ts
 * await syncPlaybooks(laptop, phone, 'default');
 * ```
 */
export async function syncPlaybooks(a: PlaybookStore, b: PlaybookStore, id: string): Promise<void> {
  const read = async (s: PlaybookStore) => {
    try {
      return await s.exportDocument(id);
    } catch (err) {
      if ((err as { code?: string }).code === 'store_not_found') return undefined;
      throw err;
    }
  };
  const [da, db] = await Promise.all([read(a), read(b)]);
  if (!da && !db) throw new StoreError('store_not_found', `Playbook ${id} exists in neither store`);
  const merged = da && db ? mergePlaybookDocuments(da, db) : (da ?? db)!;
  await a.importDocument(merged, { id, kind: 'sync' });
  await b.importDocument(merged, { id, kind: 'sync' });
}

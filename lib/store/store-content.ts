/**
 * Content writes: every change of sections, key points or texts is one transaction that writes the
 * document, the head (version and change log) and a snapshot of the new version.
 */
import * as v from 'valibot';
import { cloneJson, StoreError } from '../core/index.js';
import type { AppliedOperation, Playbook, SectionName } from '../playbook/index.js';
import { applyDelta as applyDeltaPure, PlaybookSchema, SECTION_NAMES } from '../playbook/index.js';
import { countersFromRecords, sumSlots } from './playbook-gcounters.js';
import { sameContent, viewPlaybook } from './playbook-merge.js';
import {
  type ContentDoc,
  type CounterRecord,
  type HeadRecord,
  HeadRecordSchema,
  type Stamp,
  type StoredKeyPoint,
  type VersionMeta,
} from './playbook-schema.js';
import type { StoreContext } from './store-context.js';
import { sizeOf, validRecord } from './store-counters.js';
import { allShards, dict, dictOf, docKey, headKey, own, splitRecord, versionKey } from './store-keys.js';
import { validationFrom } from './store-quarantine.js';
import { readCounters, readDoc } from './store-read.js';
import type { ApplyDeltaStoreResult, WriteResult } from './store-types.js';

/** What a content change builds from the current document. */
export interface Built<R> {
  doc: ContentDoc;
  meta?: Partial<VersionMeta>;
  writes?: (readonly [string, unknown])[];
  result: R;
}

/** Thrown inside a transaction that found the document changed since it was read: read again. */
class Conflict {}

/**
 * One content change as one transaction: reads the document (validated outside), checks inside the
 * transaction that nobody wrote in between, writes document, head, snapshot and extra records.
 */
export async function changeContent<R>(
  ctx: StoreContext,
  id: string,
  kind: VersionMeta['kind'],
  extraKeys: readonly string[],
  build: (doc: ContentDoc | undefined, stamp: Stamp, extra: unknown[]) => Built<R> | { unchanged: R },
): Promise<{ version: number; changed: boolean; result: R }> {
  const who = await ctx.actor();
  const me = await ctx.replicaId();
  for (let attempt = 0; attempt < 50; attempt++) {
    const diagnostics: StoreError[] = [];
    const base = await readDoc(ctx, id, diagnostics);
    ctx.quarantine.report(diagnostics);
    const expected = base?.version ?? 0;
    const at = ctx.nowIso();
    try {
      const out = await ctx.kv.transact([docKey(id), headKey(id), ...extraKeys], (values) => {
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
        const meta: VersionMeta = { version, at, actor: who, kind, size: sizeOf(doc), ...built.meta };
        const log = [...h.log, meta].slice(-ctx.maxVersions);
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
        ctx.namesCache.delete(id);
        ctx.notifier.emit(id, kind, out.version);
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
}

/** An empty schema-2 document. */
export function newDoc(id: string): ContentDoc {
  return {
    schema: 2,
    id,
    version: 0,
    clock: 0,
    sections: Object.fromEntries(SECTION_NAMES.map((s) => [s, []])) as unknown as ContentDoc['sections'],
    highWater: { pat: 0, mis: 0, pref: 0, ctx: 0, oth: 0 },
    removed: {},
    aliases: {},
  };
}

type ContentOnly = Omit<StoredKeyPoint, 'stamp'> & { helpful?: number; harmful?: number; stamp?: Stamp };

function contentOf(kp: ContentOnly) {
  return {
    name: kp.name,
    text: kp.text,
    ...(kp.createdAt !== undefined ? { createdAt: kp.createdAt } : {}),
    ...(kp.updatedAt !== undefined ? { updatedAt: kp.updatedAt } : {}),
    ...(kp.source !== undefined ? { source: kp.source } : {}),
  };
}

/** Replaces the live key points of `base` by `target`'s, stamping only what changed. */
export function replaceContent(
  base: ContentDoc,
  target: Record<SectionName, readonly Omit<StoredKeyPoint, 'stamp'>[]>,
  stamp: Stamp,
): ContentDoc {
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
  const removed = dictOf(base.removed);
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
}

/** {@link PlaybookStore.save}. */
export async function savePlaybook(ctx: StoreContext, id: string, playbook: Playbook): Promise<WriteResult> {
  const parsed = v.safeParse(PlaybookSchema, playbook);
  if (!parsed.success) throw validationFrom(parsed.issues, 'Playbook');
  const me = await ctx.replicaId();
  const diagnostics: StoreError[] = [];
  const records = await readCounters(ctx, id, diagnostics);
  ctx.quarantine.report(diagnostics);
  const others = countersFromRecords(records.filter((r) => r.replica !== me));
  const ownKeys = allShards(id, me, ctx.shards);
  const ignored: string[] = [];
  const pending = new Map<string, number>();
  const out = await changeContent(ctx, id, 'save', ownKeys, (doc, stamp, ownRaw) => {
    const base = doc ?? newDoc(id);
    const mine: CounterRecord = { replica: me, counts: dict() };
    for (const raw of ownRaw) Object.assign(mine.counts, validRecord(raw, me).counts);
    const next = replaceContent(base, parsed.output.sections as Playbook['sections'], stamp);
    // Counters only grow: raise our slot by what the saved totals exceed.
    let raised = false;
    ignored.length = 0;
    pending.clear();
    const counts = dictOf(mine.counts);
    for (const s of SECTION_NAMES) {
      for (const kp of playbook.sections[s]) {
        const current = own(counts, kp.name) ?? { helpful: 0, harmful: 0 };
        const theirs = own(others, kp.name);
        const totalH = sumSlots(theirs?.helpful) + current.helpful;
        const totalX = sumSlots(theirs?.harmful) + current.harmful;
        if (kp.helpful < totalH || kp.harmful < totalX) ignored.push(kp.name);
        if (kp.helpful > totalH || kp.harmful > totalX) {
          counts[kp.name] = {
            helpful: current.helpful + Math.max(0, kp.helpful - totalH),
            harmful: current.harmful + Math.max(0, kp.harmful - totalX),
          };
          raised = true;
        }
      }
    }
    if (doc && !raised && sameContent(doc, next)) return { unchanged: undefined };
    const writes = raised
      ? [...splitRecord({ replica: me, counts }, ctx.shards)].map(
          ([shard, r]) =>
            [ownKeys[shard]!, ctx.replicaGuard.stamp(ownKeys[shard]!, ownRaw[shard], r, pending)] as const,
        )
      : [];
    return { doc: next, writes, result: undefined };
  });
  ctx.replicaGuard.committed(pending);
  await ctx.replicaGuard.verify(ctx.kv, pending, me);
  if (ignored.length) {
    ctx.warn(
      `playbook ${id}: counters never decrease; lower saved counters ignored for ${ignored.join(', ')}`,
    );
  }
  return {
    id,
    version: out.version,
    changed: out.changed,
    ...(ignored.length ? { ignoredDecreases: [...ignored] } : {}),
  };
}

/** {@link PlaybookStore.applyDelta}. */
export async function applyDeltaToStore(
  ctx: StoreContext,
  id: string,
  operations: readonly unknown[],
  load: (id: string) => Promise<Playbook>,
): Promise<ApplyDeltaStoreResult> {
  let rejected: ApplyDeltaStoreResult['rejected'] = [];
  let applied: AppliedOperation[] = [];
  const at = ctx.nowIso();
  const out = await changeContent(ctx, id, 'delta', [], (doc, stamp) => {
    const base = doc ?? newDoc(id);
    const current = viewPlaybook(base, {});
    const res = applyDeltaPure(current, operations, { highWater: base.highWater, now: () => at });
    applied = res.applied;
    rejected = res.rejected;
    if (!res.applied.length) return { unchanged: undefined };
    const next = replaceContent(base, res.playbook.sections, stamp);
    next.highWater = res.highWater;
    const aliases = dictOf(next.aliases);
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
}

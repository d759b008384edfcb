/**
 * History and revert: the retained content versions (head log and snapshots) and every replica's
 * applyTags events, and restoring an old version's content as a new version.
 */
import * as v from 'valibot';
import { StoreError } from '../core/index.js';
import { sameContent } from './playbook-merge.js';
import {
  type ContentDoc,
  type HeadRecord,
  HeadRecordSchema,
  type TagLogRecord,
  TagLogRecordSchema,
  type VersionSnapshot,
  VersionSnapshotSchema,
} from './playbook-schema.js';
import { changeContent, newDoc, replaceContent } from './store-content.js';
import type { StoreContext } from './store-context.js';
import { headKey, tagPrefix, versionKey } from './store-keys.js';
import { issuesOf } from './store-quarantine.js';
import type { HistoryEntry, WriteResult } from './store-types.js';

/** {@link PlaybookStore.history}. */
export async function historyOf(ctx: StoreContext, id: string): Promise<HistoryEntry[]> {
  const { kv, quarantine: q } = ctx;
  const diagnostics: StoreError[] = [];
  const head = await kv.get(headKey(id));
  const out: HistoryEntry[] = [];
  if (head !== undefined) {
    const r = v.safeParse(HeadRecordSchema, head);
    if (r.success) for (const m of (head as HeadRecord).log) out.push({ type: 'version', ...m });
    else {
      const error = q.corrupt(headKey(id), `Playbook head is invalid: ${issuesOf(r.issues)}`);
      diagnostics.push(error);
      await q.move(headKey(id), head, error);
    }
  }
  const prefix = tagPrefix(id);
  const keys = await kv.keys(prefix);
  const logs = await kv.getMany(keys);
  for (let i = 0; i < keys.length; i++) {
    const r = v.safeParse(TagLogRecordSchema, logs[i]);
    const replicaOfKey = decodeURIComponent(keys[i]!.slice(prefix.length));
    if (r.success) {
      for (const e of (logs[i] as TagLogRecord).events)
        out.push({ type: 'tags', replica: replicaOfKey, ...e });
    } else {
      const error = q.corrupt(keys[i]!, `Tag log is invalid: ${issuesOf(r.issues)}`);
      diagnostics.push(error);
      await q.move(keys[i]!, logs[i], error);
    }
  }
  q.report(diagnostics);
  // Stable: content versions keep their order, tag events slot in by time.
  return out
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.at < b.e.at ? -1 : a.e.at > b.e.at ? 1 : a.i - b.i))
    .map(({ e }) => e);
}

/** {@link PlaybookStore.revert}. */
export async function revertPlaybook(ctx: StoreContext, id: string, version: number): Promise<WriteResult> {
  const key = versionKey(id, version);
  const raw = await ctx.kv.get(key);
  if (raw === undefined) {
    throw new StoreError('store_not_found', `Version ${version} of playbook ${id} is not retained`, { key });
  }
  const r = v.safeParse(VersionSnapshotSchema, raw);
  if (!r.success) {
    const error = ctx.quarantine.corrupt(key, `Playbook version snapshot is invalid: ${issuesOf(r.issues)}`);
    await ctx.quarantine.move(key, raw, error);
    ctx.quarantine.report([error]);
    throw error;
  }
  const target = (raw as VersionSnapshot).doc;
  const out = await changeContent(ctx, id, 'revert', [], (doc, stamp) => {
    const base = doc ?? newDoc(id);
    const next = replaceContent(base, target.sections, stamp);
    for (const k of Object.keys(next.highWater) as (keyof ContentDoc['highWater'])[]) {
      next.highWater[k] = Math.max(next.highWater[k], target.highWater[k]);
    }
    if (doc && sameContent(doc, next)) return { unchanged: undefined };
    return { doc: next, meta: { revertedTo: version }, result: undefined };
  });
  return { id, version: out.version, changed: out.changed };
}
